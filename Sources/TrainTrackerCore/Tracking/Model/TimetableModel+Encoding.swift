/// Why a compiled timetable cannot be read: which part, and what is wrong with it.
public struct CompiledTimetableError: Error, Equatable, CustomStringConvertible {
    /// The part at fault: 0 for the header, 1 + `LineDirection.index` for a line.
    public var part: Int
    /// What is wrong, e.g. `trip 12 calls at station slot 40 of 30`.
    public var problem: String

    /// `part N: problem`.
    public var description: String { "part \(part): \(problem)" }

    /// An error for `part`.
    public init(part: Int, problem: String) {
        self.part = part
        self.problem = problem
    }
}

extension TrackerModel {
    /// The version of the compiled form; a file of another version is compiled afresh from
    /// its trains. Raise it whenever what `TimetableModel` builds from a timetable changes.
    public static let compiledTimetableVersion: UInt32 = 2

    /// The timetable part of the model, compiled: a header, then one part per railway and
    /// direction (`LineDirection.index` order). `CompiledTimetableReader` reads them back into
    /// a model that answers exactly as this one.
    ///
    /// - Complexity: O(calls).
    public func compiledTimetable() -> [[UInt8]] {
        var header = ByteWriter()
        for byte in Self.magic { header.uint8(byte) }
        header.uint32(Self.compiledTimetableVersion)
        header.uint8(hasTimetable ? 1 : 0)
        header.count(network.railways.count)
        for railway in network.railways { header.count(railway.stationIDs.count) }
        header.count(services.count)
        for service in services { header.string(service) }
        for links in throughService {
            header.count(links.count)
            for railway in links.sorted() { header.count(railway) }
        }
        return [header.bytes] + LineDirection.all(railwayCount: network.railways.count).map(compiledLine)
    }

    /// "TTtm": the first bytes of a compiled timetable.
    static let magic: [UInt8] = [0x54, 0x54, 0x74, 0x6D]

    private func compiledLine(_ line: LineDirection) -> [UInt8] {
        let trips = self.trips[line: line]
        var part = ByteWriter(capacity: 16 + trips.reduce(0) { $0 + 17 + 8 * $1.departures.count })
        part.count(line.index)
        part.double(logPrior[line: line])
        part.count(segmentTraffic[line: line].count)
        for value in segmentTraffic[line: line] { part.double(value) }
        part.count(patterns[line: line].count)
        for pattern in patterns[line: line] {
            part.count(pattern.trains)
            part.uint8(pattern.trainTypeID == nil ? 0 : 1)
            if let type = pattern.trainTypeID { part.string(type) }
            part.bools(pattern.stops)
            part.bools(pattern.runs)
        }
        part.count(trips.count)
        for (index, trip) in trips.enumerated() {
            let label = timetable.tripNames[line: line, trip: index] ?? TripLabel(id: "", number: nil)
            part.int32(trip.pattern)
            part.int32(trip.service)
            part.count(trip.departures.count)
            for call in trip.departures {
                part.int32(call.slot)
                part.float(call.time)
            }
            part.uint8(trip.arrival == nil ? 0 : 1)
            if let arrival = trip.arrival {
                part.int32(arrival.slot)
                part.float(arrival.time)
            }
            part.string(label.id)
            part.uint8(label.number == nil ? 0 : 1)
            if let number = label.number { part.string(number) }
        }
        return part.bytes
    }
}

/// Reads a compiled timetable (`TrackerModel.compiledTimetable()`) part by part, checking
/// every count, index and time against the network it is read for: the bytes come from a
/// file and are untrusted.
///
///     var reader = try CompiledTimetableReader(network: network, header: parts[0])
///     for part in parts.dropFirst() { try reader.add(part) }
///     let model = try reader.model(calendar: calendar, zone: .fixed(32_400, identifier: "Asia/Tokyo"))
public struct CompiledTimetableReader {
    private let network: RailwayNetwork
    private let hasTimetable: Bool
    /// The services the trains run on, by name (for a calendar of weekly rules).
    public let services: [String]
    private let throughService: [Set<Int>]
    private var patterns: [[ServicePattern]] = []
    private var logPrior: [Double] = []
    private var segmentTraffic: [[Double]] = []
    private var trips: [[ScheduledTrip]] = []
    private var tripNames = TripNames()

    /// Most services, train type name bytes, calls per trip and trips per line a file may hold.
    static let maximumServices = 100_000
    static let maximumNameBytes = 1_000
    static let maximumCalls = 10_000
    static let maximumTrips = 10_000_000
    /// Times of day, seconds after midnight: up to 48 h (as the train tables hold them).
    static let clock: ClosedRange<Double> = 0...172_799

    /// The version of the compiled timetable `header` begins, or `nil` when it begins none.
    public static func version(ofHeader header: [UInt8]) -> UInt32? {
        var reader = ByteReader(header)
        guard let magic = try? (0..<4).map({ _ throws(ByteReadError) in try reader.uint8() }), magic == TrackerModel.magic
        else { return nil }
        return try? reader.uint32()
    }

    /// Starts reading with the header (part 0), which must be of this version and describe
    /// `network`'s railways and stations.
    ///
    /// - Throws: `CompiledTimetableError` for part 0.
    public init(network: RailwayNetwork, header: [UInt8]) throws(CompiledTimetableError) {
        self.network = network
        var reader = ByteReader(header)
        do throws(ByteReadError) {
            let magic = try (0..<4).map { _ throws(ByteReadError) in try reader.uint8() }
            guard magic == TrackerModel.magic else { throw ByteReadError(problem: "not a compiled timetable") }
            let version = try reader.uint32()
            guard version == TrackerModel.compiledTimetableVersion else {
                throw ByteReadError(
                    problem: "version \(version), this build reads version \(TrackerModel.compiledTimetableVersion)")
            }
            hasTimetable = try reader.flag(what: "the timetable flag")
            let railwayCount = network.railways.count
            _ = try reader.count(in: railwayCount...railwayCount, what: "a railway count")
            for (index, railway) in network.railways.enumerated() {
                let stations = railway.stationIDs.count
                _ = try reader.count(in: stations...stations, what: "railway \(index)'s station count")
            }
            let serviceCount = try reader.count(in: 0...Self.maximumServices, itemBytes: 4, what: "a service count")
            services = try (0..<serviceCount).map { _ throws(ByteReadError) in
                try reader.string(maximumBytes: Self.maximumNameBytes, what: "a service name")
            }
            throughService = try (0..<railwayCount).map { railway throws(ByteReadError) in
                let count = try reader.count(in: 0...railwayCount, itemBytes: 4, what: "railway \(railway)'s links")
                return Set(
                    try (0..<count).map { _ throws(ByteReadError) in
                        try reader.count(in: 0...max(railwayCount - 1, 0), what: "a linked railway")
                    })
            }
            guard reader.isAtEnd else { throw ByteReadError(problem: "bytes after the end") }
        } catch {
            throw CompiledTimetableError(part: 0, problem: error.problem)
        }
    }

    /// Reads the next line's part (1 + `LineDirection.index`, in order).
    ///
    /// - Throws: `CompiledTimetableError` for the part.
    public mutating func add(_ bytes: [UInt8]) throws(CompiledTimetableError) {
        let key = patterns.count
        guard key < network.railways.count * 2 else {
            throw CompiledTimetableError(part: key + 1, problem: "more parts than railways and directions")
        }
        do throws(ByteReadError) {
            try read(bytes, key: key)
        } catch {
            throw CompiledTimetableError(part: key + 1, problem: error.problem)
        }
    }

    private mutating func read(_ bytes: [UInt8], key: Int) throws(ByteReadError) {
        var reader = ByteReader(bytes)
        // A part read before that threw left its trips' names behind.
        tripNames.discardLine()
        _ = try reader.count(in: key...key, what: "the line")
        let stations = network.railways[key / 2].stationIDs.count
        let prior = try reader.double(in: 0...100, what: "the line's prior")
        let segmentCount = try reader.count(in: stations...stations, itemBytes: 8, what: "a segment count")
        let traffic = try (0..<segmentCount).map { _ throws(ByteReadError) in
            try reader.double(in: 0...100, what: "a segment's traffic")
        }
        let patternCount = try reader.count(
            in: 1...TimetableModel.maximumPatterns, itemBytes: 5 + 2 * stations, what: "a pattern count")
        let patterns = try (0..<patternCount).map { _ throws(ByteReadError) in
            let trains = try reader.count(in: 1...Self.maximumTrips, what: "a pattern's trains")
            let type =
                try reader.flag(what: "a pattern's train type flag")
                ? try reader.string(maximumBytes: Self.maximumNameBytes, what: "a train type") : nil
            return ServicePattern(
                stops: try reader.bools(stations, what: "a pattern's stops"),
                runs: try reader.bools(stations, what: "a pattern's stretch"), trains: trains, trainTypeID: type)
        }
        let tripCount = try reader.count(in: 0...Self.maximumTrips, itemBytes: 13, what: "a trip count")
        // Room for as many calls as the bytes could hold (a call takes 8), so that the line's
        // array of calls never grows to twice its size.
        var lineTrips = LineTrips(calls: bytes.count / 8, trips: tripCount)
        for _ in 0..<tripCount {
            try readTrip(&reader, stations: stations, patterns: patternCount, into: &lineTrips)
        }
        let trips = lineTrips.trips
        guard reader.isAtEnd else { throw ByteReadError(problem: "bytes after the end") }
        tripNames.endLine()
        self.patterns.append(patterns)
        logPrior.append(prior)
        segmentTraffic.append(traffic)
        self.trips.append(trips)
    }

    private mutating func readTrip(
        _ reader: inout ByteReader, stations: Int, patterns: Int, into trips: inout LineTrips
    ) throws(ByteReadError) {
        let pattern = try reader.count(in: 0...patterns - 1, what: "a trip's pattern")
        let service = try reader.count(in: 0...max(services.count - 1, 0), what: "a trip's service")
        guard service < services.count else { throw ByteReadError(problem: "a trip without any service listed") }
        let callCount = try reader.count(in: 0...Self.maximumCalls, itemBytes: 8, what: "a trip's calls")
        func call() throws(ByteReadError) -> TripCall {
            let slot = try reader.count(in: 0...max(stations - 1, 0), what: "a call's station slot")
            guard slot < stations else { throw ByteReadError(problem: "a call at a station of a railway without any") }
            let time = try reader.float()
            guard time.isFinite, Self.clock.contains(Double(time)) else {
                throw ByteReadError(problem: "a call's time \(time) is outside 0...172799 s")
            }
            return (Int32(slot), time)
        }
        for _ in 0..<callCount { trips.append(try call()) }
        let arrival = try reader.flag(what: "a trip's arrival flag") ? try call() : nil
        let id = try reader.string(maximumBytes: Self.maximumNameBytes, what: "a trip's id")
        let number =
            try reader.flag(what: "a trip's number flag")
            ? try reader.string(maximumBytes: Self.maximumNameBytes, what: "a trip's number") : nil
        guard tripNames.fits(bytes: id.utf8.count + (number?.utf8.count ?? 0)) else {
            throw ByteReadError(problem: "trip names of more than 4 GB on one line, or more than 2^31 trips")
        }
        trips.endTrip(pattern: Int32(pattern), service: Int32(service), arrival: arrival)
        tripNames.append(TripLabel(id: id, number: number))
    }

    /// The model, once every line's part is read.
    ///
    /// - Throws: `CompiledTimetableError` when parts are missing.
    public func model(calendar: ServiceCalendar, zone: TimeZoneRules) throws(CompiledTimetableError) -> TrackerModel {
        let lines = network.railways.count * 2
        guard patterns.count == lines else {
            throw CompiledTimetableError(part: patterns.count + 1, problem: "missing: \(lines) lines, \(patterns.count) read")
        }
        let stationOrder = TrackerModel.stationOrder(of: network)
        let timetable = TimetableModel(
            hasTimetable: hasTimetable, patterns: patterns, logPrior: logPrior, segmentTraffic: segmentTraffic,
            throughService: throughService, services: services, trips: trips, tripNames: tripNames, calendar: calendar,
            zone: zone)
        return TrackerModel(network: network, stationOrder: stationOrder, timetable: timetable)
    }
}
