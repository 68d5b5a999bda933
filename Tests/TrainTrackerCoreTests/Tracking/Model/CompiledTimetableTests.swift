import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The compiled timetable a file carries: read back, it answers as the model built from the
/// trains; bytes that do not describe the network are an error naming the part, never a trap.
@Suite struct CompiledTimetableTests {
    static let built = TrackerModel(dataset: DemoRides.dataset)
    static var network: RailwayNetwork { built.network }

    static func read(_ parts: [[UInt8]]) throws(CompiledTimetableError) -> TrackerModel {
        var reader = try CompiledTimetableReader(network: network, header: parts.first ?? [])
        for part in parts.dropFirst() { try reader.add(part) }
        return try reader.model(calendar: built.calendar, zone: built.zone)
    }

    @Test func readBackItIsTheSameModelAndTracksTheSame() throws {
        let parts = Self.built.compiledTimetable()
        #expect(parts.count == 1 + 2 * Self.network.railways.count)
        let read = try Self.read(parts)
        #expect(read.compiledTimetable() == parts)
        #expect(read.hasTimetable)
        let ride = try #require(CaseGenerator(dataset: DemoRides.dataset).cases(count: 1, seed: 3).first)
        var fromTrains = RailwayTracker(model: Self.built)
        var fromFile = RailwayTracker(model: read)
        let answers = ride.fixes.map(\.location).map { fromTrains.process($0) }
        #expect(answers.contains { $0.best != nil })
        #expect(ride.fixes.map(\.location).map { fromFile.process($0) } == answers)
    }

    @Test func theDeparturesOfAStationComeInTimeOrderWithTheirTrips() throws {
        let model = Self.built
        let line = try #require(
            LineDirection.all(railwayCount: Self.network.railways.count).first { !model.trips[line: $0].isEmpty })
        let trips = model.trips[line: line]
        let slot = Int(try #require(trips.first?.departures.first).slot)
        let found = model.timetable.departures(line: line.index, station: slot, from: 0, through: 172_800)
        let expected = trips.enumerated().flatMap { index, trip in
            trip.departures.filter { Int($0.slot) == slot }.map { (Double($0.time), Int32(index)) }
        }.sorted { $0.0 < $1.0 }
        #expect(found.map(\.time) == expected.map(\.0))
        #expect(found.map(\.trip) == expected.map(\.1))
        let first = try #require(found.first)
        #expect(
            model.timetable.departures(line: line.index, station: slot, from: first.time + 1, through: first.time + 1).isEmpty)
    }

    /// A line part written by hand: `stations` stations, one pattern, the given trips.
    static func linePart(
        key: Int = 0, stations: Int? = nil, patterns: Int = 1, tripCount: Int? = nil,
        trips: [(pattern: Int32, service: Int32, calls: [(Int32, Float)])] = [(0, 0, [(0, 28_800)])], trailing: [UInt8] = []
    ) -> [UInt8] {
        let stations = stations ?? network.railways[key / 2].stationIDs.count
        var part = ByteWriter()
        part.count(key)
        part.double(1)
        part.count(stations)
        for _ in 0..<stations { part.double(0) }
        part.count(patterns)
        for _ in 0..<patterns {
            part.count(1)
            part.uint8(0)
            part.bools(Array(repeating: true, count: stations))
            part.bools(Array(repeating: true, count: stations))
        }
        part.count(tripCount ?? trips.count)
        for trip in trips {
            part.int32(trip.pattern)
            part.int32(trip.service)
            part.count(trip.calls.count)
            for (slot, time) in trip.calls {
                part.int32(slot)
                part.float(time)
            }
            part.uint8(0)  // no arrival
            part.string("T")  // the trip's id
            part.uint8(0)  // no number of its own
        }
        return part.bytes + trailing
    }

    /// Bytes broken one way, and the error they must give.
    struct Breakage: Sendable, CustomTestStringConvertible {
        var name: String
        var part: Int
        var problem: String
        var breaking: @Sendable ([[UInt8]]) -> [[UInt8]]
        var testDescription: String { name }

        init(_ name: String, part: Int, _ problem: String, _ breaking: @escaping @Sendable ([[UInt8]]) -> [[UInt8]]) {
            (self.name, self.part, self.problem, self.breaking) = (name, part, problem, breaking)
        }
    }

    /// The first line's part replaced by `line`.
    static func withLine(_ parts: [[UInt8]], _ line: [UInt8]) -> [[UInt8]] {
        [parts[0], line] + parts.dropFirst(2)
    }

    static let breakages: [Breakage] = [
        Breakage("not one", part: 0, "not a compiled timetable") { parts in
            [[0x50, 0x4B, 3, 4] + parts[0].dropFirst(4)] + parts.dropFirst()
        },
        Breakage("empty header", part: 0, "ends early, at byte 0 of at least 1") { parts in [[]] + parts.dropFirst() },
        Breakage("cut header", part: 0, "ends early") { parts in [Array(parts[0].prefix(13))] + parts.dropFirst() },
        Breakage("another network", part: 0, "a railway count 99 is outside 2...2") { parts in
            var header = parts[0]
            header[9] = 99
            return [header] + parts.dropFirst()
        },
        Breakage("bytes after the header", part: 0, "bytes after the end") { parts in [parts[0] + [0]] + parts.dropFirst() },
        Breakage("a part missing", part: 4, "missing: 4 lines, 3 read") { parts in Array(parts.dropLast()) },
        Breakage("a part too many", part: 5, "more parts than railways and directions") { parts in parts + [parts[1]] },
        Breakage("parts swapped", part: 1, "the line 1 is outside 0...0") { parts in
            [parts[0], parts[2], parts[1]] + parts.dropFirst(3)
        },
        Breakage("a pattern not there", part: 1, "a trip's pattern 3 is outside 0...0") { parts in
            withLine(parts, linePart(trips: [(3, 0, [(0, 28_800)])]))
        },
        Breakage("a station not there", part: 1, "a call's station slot 40 is outside") { parts in
            withLine(parts, linePart(trips: [(0, 0, [(40, 28_800)])]))
        },
        Breakage("a time that is not one", part: 1, "a call's time nan is outside 0...172799 s") { parts in
            withLine(parts, linePart(trips: [(0, 0, [(0, .nan)])]))
        },
        Breakage("a time past two days", part: 1, "a call's time 1e+09 is outside 0...172799 s") { parts in
            withLine(parts, linePart(trips: [(0, 0, [(0, 1e9)])]))
        },
        Breakage("a service not there", part: 1, "a trip's service 7 is outside 0...0") { parts in
            withLine(parts, linePart(trips: [(0, 7, [(0, 28_800)])]))
        },
        Breakage("four billion trips", part: 1, "a trip count 4000000000 is outside 0...10000000") { parts in
            withLine(parts, linePart(tripCount: 4_000_000_000))
        },
        Breakage("more trips than bytes", part: 1, "a trip count 1000 needs more bytes than are left") { parts in
            withLine(parts, linePart(tripCount: 1_000))
        },
        Breakage("no pattern", part: 1, "a pattern count 0 is outside 1...12") { parts in
            withLine(parts, linePart(patterns: 0, trips: []))
        },
        Breakage("another station count", part: 1, "a segment count 2 is outside") { parts in
            withLine(parts, linePart(stations: 2, trips: []))
        },
        Breakage("bytes after a line", part: 1, "bytes after the end") { parts in
            withLine(parts, linePart(trailing: [1, 2]))
        },
    ]

    /// A part refused (its trips read, then bytes after its end) leaves nothing behind: the
    /// same part read again gives the model the file describes, every trip named as before.
    @Test func aPartRefusedAndReadAgainLeavesNoTripBehind() throws {
        let parts = Self.built.compiledTimetable()
        var reader = try CompiledTimetableReader(network: Self.network, header: parts[0])
        let line = try #require(
            parts.indices.dropFirst().first { index in
                Self.built.timetable.tripNames.count(line: LineDirection(index: index - 1)) > 0
            })
        for part in parts[1..<line] { try reader.add(part) }
        #expect(throws: CompiledTimetableError.self) { try reader.add(parts[line] + [0]) }
        for part in parts[line...] { try reader.add(part) }
        let read = try reader.model(calendar: Self.built.calendar, zone: Self.built.zone)
        #expect(read.compiledTimetable() == parts)
        let key = LineDirection(index: line - 1)
        #expect(read.timetable.tripNames.count(line: key) == Self.built.timetable.tripNames.count(line: key))
        #expect(read.timetable.tripNames.count == Self.built.timetable.tripNames.count)
        #expect(read.timetable.tripNames[line: key, trip: 0] == Self.built.timetable.tripNames[line: key, trip: 0])
        let id = try #require(Self.built.timetable.tripNames.id(line: key, trip: 0))
        #expect(read.tripIndex[id].map { [$0.line, $0.trip] } == [Int32(line - 1), 0])
    }

    @Test(arguments: breakages)
    func brokenBytesNameThePartAndTheProblem(_ breakage: Breakage) {
        let parts = breakage.breaking(Self.built.compiledTimetable())
        do {
            _ = try Self.read(parts)
            Issue.record("read without an error")
        } catch {
            #expect(error.part == breakage.part)
            #expect(error.problem.hasPrefix(breakage.problem), "\(error.problem)")
        }
    }

    @Test func theHeaderSaysItsVersion() {
        var header = Self.built.compiledTimetable()[0]
        #expect(CompiledTimetableReader.version(ofHeader: header) == TrackerModel.compiledTimetableVersion)
        header[4] &+= 1
        #expect(CompiledTimetableReader.version(ofHeader: header) == TrackerModel.compiledTimetableVersion + 1)
        #expect(CompiledTimetableReader.version(ofHeader: []) == nil)
        #expect(CompiledTimetableReader.version(ofHeader: [0x54, 0x54, 0x74, 0x6D]) == nil)
        #expect(CompiledTimetableReader.version(ofHeader: Array("SQLite format 3".utf8)) == nil)
    }
}
