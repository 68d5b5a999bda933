import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerImport

/// Collects warnings from an import.
final class Warnings: @unchecked Sendable {
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

@Suite(.tags(.sharedData)) struct GTFSImporterTests {
    @Test func caltrainGivesOneRailwayPerRailRouteWithNamedDirections() throws {
        let dataset = try GTFSImporter.load(path: SharedPaths.caltrain)
        let network = dataset.network
        #expect(network.railways.map(\.id).sorted() == ["Bu-129", "Li-129", "Lo-129"], "the bus shuttle is not rail")
        let local = try #require(network.railway(id: "Lo-129"))
        #expect(local.name == "Local")
        #expect(local.ascendingName == "North" && local.descendingName == "South")
        // North-bound order: from the south end to San Francisco.
        #expect(network.station(id: try #require(local.stationIDs.last))?.name == "San Francisco Caltrain")
        #expect(local.color == "#77787B")
        // Platforms 70011 (north-bound) and 70012 (south-bound) are one station.
        let names = network.stations(of: local).map(\.name)
        #expect(names.filter { $0 == "San Francisco Caltrain" }.count == 1)
        #expect(Set(names).count == names.count)
    }

    @Test func theBabyBulletPassesStationsTheLocalServes() throws {
        let dataset = try GTFSImporter.load(path: SharedPaths.caltrain)
        let bullet = try #require(dataset.network.railway(id: "Bu-129"))
        let local = try #require(dataset.network.railway(id: "Lo-129"))
        #expect(bullet.stationIDs.count < local.stationIDs.count / 2)
        let bulletTrains = dataset.timetable.trains.filter { $0.railwayID == "Bu-129" }
        #expect(!bulletTrains.isEmpty)
        #expect(bulletTrains.allSatisfy { $0.trainTypeID == "Bu-129" && $0.stops.count <= bullet.stationIDs.count })
        #expect(dataset.timetable.trainTypes.contains { $0.id == "Bu-129" && $0.name == "Baby Bullet" })
        let train = try #require(bulletTrains.first)
        let times = train.stops.compactMap { $0.departure ?? $0.arrival }
        #expect(times == times.sorted() && times.count == train.stops.count)
        #expect(["North", "South"].contains(train.directionName))
    }

    @Test func theTrackComesFromTheShapeNearEveryStation() throws {
        let network = try GTFSImporter.load(path: SharedPaths.caltrain).network
        for railway in network.railways {
            #expect(railway.track.polyline.coordinates.count > 100, "shapes, not station-to-station lines")
            for station in network.stations(of: railway) {
                #expect(
                    railway.track.polyline.distance(to: station.coordinate, within: 150) != nil,
                    "\(station.name) on \(railway.id)")
            }
        }
    }

    @Test func routeTypesChooseWhatIsImported() throws {
        let buses = try GTFSImporter.load(path: SharedPaths.caltrain, options: .init(routeTypes: [3]))
        #expect(buses.network.railways.map(\.id) == ["TaSj-129"])
        #expect(throws: ImportError(file: "\(SharedPaths.caltrain)/routes.txt", problem: "no routes with trips of route type 7"))
        {
            try GTFSImporter.load(path: SharedPaths.caltrain, options: .init(routeTypes: [7]))
        }
    }

    @Test func theZippedNewYorkSubsetUsesParentStations() throws {
        let warnings = Warnings()
        let dataset = try GTFSImporter.load(path: SharedPaths.nycSubway, warn: warnings.add)
        let network = dataset.network
        #expect(network.railways.map(\.id).sorted() == ["1", "2"])
        let one = try #require(network.railway(id: "1"))
        #expect(one.stationIDs.first == "1.101" || one.stationIDs.last == "1.101", "parent 101, not platform 101N or 101S")
        #expect(!network.stations.contains { $0.id.hasSuffix("N") || $0.id.hasSuffix("S") })
        #expect(network.station(id: "1.101")?.name == "Van Cortlandt Park-242 St")
        #expect(Set([one.ascendingName, one.descendingName]) == ["Van Cortlandt Park-242 St", "South Ferry"])
        // The 2 runs express in Manhattan: its day trips skip stations the 1 serves.
        let express = dataset.timetable.trains.filter { $0.railwayID == "2" }
        let two = try #require(network.railway(id: "2"))
        #expect(express.contains { $0.stops.count < two.stationIDs.count - 10 })
        #expect(!warnings.lines.contains { $0.contains("lies more than 150 m") }, "\(warnings.lines)")
    }

    @Test func stopPatternsMergeIntoOneLine() {
        #expect(GTFSImporter.merge(["A", "B", "D"], ["A", "B", "C", "D"]) == ["A", "B", "C", "D"])
        #expect(GTFSImporter.merge(["B", "C"], ["A", "B", "C"]) == ["A", "B", "C"], "extended at the start")
        #expect(GTFSImporter.merge(["A", "B"], ["A", "B", "C"]) == ["A", "B", "C"], "extended at the end")
        #expect(GTFSImporter.merge(["A", "B", "C", "D"], ["X", "Y", "C", "D"]) == ["A", "B", "C", "D"], "a branch is left out")
        #expect(GTFSImporter.merge(["A", "B"], []) == ["A", "B"])
    }
}

/// Malformed feeds: one error naming the file, the line and the field; nothing imported.
@Suite(.tags(.sharedData)) struct GTFSErrorTests {
    /// A copy of the Caltrain feed that a test may damage.
    @Test func caltrainsCalendarKnowsWhichDaysEachServiceRuns() throws {
        let calendar = try GTFSImporter.load(path: SharedPaths.caltrain).timetable.calendar
        let day = { (text: String) in try #require(CivilDay(gtfs: text)) }
        // Within the feed's dates: calendar_dates.txt takes the Saturday service off weekdays and Sundays.
        #expect(calendar.runs("CT-17JUL-Combo-Weekday-01", on: try day("20170724")))
        #expect(!calendar.runs("CT-17JUL-Caltrain-Saturday-03", on: try day("20170724")))
        #expect(calendar.runs("CT-17JUL-Caltrain-Saturday-03", on: try day("20170722")))
        #expect(!calendar.runs("CT-17JUL-Caltrain-Saturday-03", on: try day("20170723")))
        #expect(calendar.runs("CT-17JUL-Caltrain-Sunday-01", on: try day("20170723")))
        #expect(!calendar.runs("CT-17JUL-Combo-Weekday-01", on: try day("20170722")))
        // After the feed expired: a typical week of each weekday.
        #expect(calendar.runs("CT-17JUL-Combo-Weekday-01", on: try day("20250922")))
        #expect(!calendar.runs("CT-17JUL-Caltrain-Saturday-03", on: try day("20250922")))
        #expect(calendar.runs("CT-17JUL-Caltrain-Saturday-03", on: try day("20250927")))
        #expect(calendar.runs("CT-17JUL-Caltrain-Sunday-01", on: try day("20250928")))
    }

    @Test(arguments: [
        ("calendar.txt", 2, "20170715", "2017-07-15", "start_date", "not a date '2017-07-15'"),
        ("calendar.txt", 2, "1,1,1,1,1,1,1", "1,1,1,1,1,1,yes", "sunday", "must be 0 or 1"),
        ("calendar_dates.txt", 3, "20170717,2", "20170717,3", "exception_type", "must be 1 or 2"),
    ])
    func aBadCalendarEntryIsNamed(file: String, line: Int, old: String, new: String, field: String, problem: String) throws {
        let feed = try copyOfCaltrain()
        try edit(feed, file, line: line, old, new)
        #expect(throws: ImportError(file: feed.path(file), location: "line \(line)", field: field, problem: problem)) {
            try GTFSImporter.load(path: feed.url.path)
        }
    }

    func copyOfCaltrain() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let source = URL(fileURLWithPath: SharedPaths.caltrain)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(atPath: source.appendingPathComponent(name).path, toPath: directory.path(name))
        }
        return directory
    }

    /// Replaces `old` with `new` in line `line` (1-based) of `name`.
    func edit(_ directory: TemporaryDirectory, _ name: String, line: Int, _ old: String, _ new: String) throws {
        let path = directory.path(name)
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        #expect(lines[line - 1].contains(old))
        lines[line - 1] = lines[line - 1].replacingOccurrences(of: old, with: new)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aMissingRequiredFileIsNamed() throws {
        let feed = try copyOfCaltrain()
        try FileManager.default.removeItem(atPath: feed.path("stop_times.txt"))
        #expect(throws: ImportError(file: feed.url.path, problem: "missing required file stop_times.txt")) {
            try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func aMissingRequiredColumnIsNamed() throws {
        let feed = try copyOfCaltrain()
        try edit(feed, "stops.txt", line: 1, "stop_lat", "latitude")
        #expect(throws: ImportError(file: feed.path("stops.txt"), field: "stop_lat", problem: "missing column")) {
            try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func aBadNumberIsNamedByLineAndField() throws {
        let feed = try copyOfCaltrain()
        try edit(feed, "stops.txt", line: 3, "37.776348", "37.77x")
        #expect(
            throws: ImportError(
                file: feed.path("stops.txt"), location: "line 3", field: "stop_lat", problem: "not a number '37.77x'")
        ) {
            try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func aStopTimeForAnUnknownStopIsNamed() throws {
        let feed = try copyOfCaltrain()
        try edit(feed, "stop_times.txt", line: 2, ",70261,", ",99999,")
        #expect(
            throws: ImportError(
                file: feed.path("stop_times.txt"), location: "line 2", field: "stop_id", problem: "unknown stop '99999'")
        ) {
            try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func aBadTimeIsNamed() throws {
        let feed = try copyOfCaltrain()
        try edit(feed, "stop_times.txt", line: 2, "22:08:00,22:08:00", "22:08:00,late")
        #expect(
            throws: ImportError(
                file: feed.path("stop_times.txt"), location: "line 2", field: "departure_time", problem: "not a time 'late'")
        ) {
            try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func aShapeWithOnePointIsNamed() throws {
        let feed = try copyOfCaltrain()
        let path = feed.path("shapes.txt")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try (text + "\"lonely\",\"37.5\",\"-122.3\",1,\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            throws: ImportError(
                file: path, location: "shape 'lonely'", field: "shape_pt_lat",
                problem: "a shape needs at least two distinct points")
        ) {
            try GTFSImporter.load(path: feed.url.path)
        }
    }

    @Test func aFeedWithoutShapesIsDrawnStationToStationWithAWarning() throws {
        let feed = try copyOfCaltrain()
        try FileManager.default.removeItem(atPath: feed.path("shapes.txt"))
        let warnings = Warnings()
        let dataset = try GTFSImporter.load(path: feed.url.path, warn: warnings.add)
        let local = try #require(dataset.network.railway(id: "Lo-129"))
        #expect(local.track.polyline.coordinates.count == local.stationIDs.count)
        #expect(
            warnings.lines.contains("warning: \(feed.url.path): route Lo-129 has no shape; its track is drawn station to station")
        )
    }

    @Test func aFileThatIsNotAZipIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("feed.zip")
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImportError(file: path, problem: "not a zip archive")) { try GTFSImporter.load(path: path) }
    }
}
