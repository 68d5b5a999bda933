import Foundation
import GRDB
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerImport
@testable import TrainTrackerLab

/// The file `import` writes carries the tracker's compiled timetable: loaded from it, the model
/// is the one built from the trains, and tracks the same; a broken one is named, an old one
/// compiled afresh.
@Suite(.tags(.sharedData)) struct CompiledTimetableFileTests {
    static let caltrain: TransitDataset = {
        do { return try GTFSImporter.load(path: SharedPaths.caltrain) } catch { fatalError("\(error)") }
    }()

    func writeCaltrain(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("caltrain.sqlite")
        try RailwayDatabase.write(Self.caltrain, to: path)
        return path
    }

    @Test func caltrainFromItsCompiledTimetableTracksAsFromItsTrains() throws {
        let directory = try TemporaryDirectory()
        let path = try writeCaltrain(directory)
        var recompiled: [String] = []
        let compiled = try RailwayDatabase.loadModel(path: path, recompiled: { recompiled.append($0) })
        #expect(recompiled.isEmpty)
        #expect(compiled.hasTimetable)
        let fromTrains = TrackerModel(dataset: try RailwayDatabase.loadDataset(path: path))
        let fromFeed = TrackerModel(dataset: Self.caltrain)
        #expect(compiled.compiledTimetable() == fromTrains.compiledTimetable())
        #expect(compiled.compiledTimetable() == fromFeed.compiledTimetable())
        // Rides simulated on the feed, tracked with each model: the same answer at every fix.
        let rides = CaseGenerator(dataset: Self.caltrain).cases(count: 3, seed: 29)
        #expect(rides.count == 3)
        for ride in rides {
            var one = RailwayTracker(model: compiled)
            var other = RailwayTracker(model: fromTrains)
            let answers = ride.fixes.map(\.location).map { one.process($0) }
            #expect(answers.contains { $0.best != nil })
            #expect(ride.fixes.map(\.location).map { other.process($0) } == answers, "\(ride.sessionID)")
        }
        // Without timetables the compiled part is not read.
        #expect(!(try RailwayDatabase.loadModel(path: path, timetables: false)).hasTimetable)
    }

    /// A compiled part broken in the file: the error names the table, the part and the problem.
    @Test(arguments: [
        (
            "UPDATE trackerModel SET data = substr(data, 1, 20) WHERE part = 2", "part 2",
            "a segment count 13 needs more bytes than are left"
        ),
        ("DELETE FROM trackerModel WHERE part = 3", "part 3", "missing (the next is part 4)"),
        ("UPDATE trackerModel SET data = 'text' WHERE part = 0", "part 0", "not bytes but 'text'"),
        ("UPDATE trackerModel SET data = x'00000000' WHERE part = 0", "part 0", "not a compiled timetable"),
        ("DELETE FROM trackerModel WHERE part = 6", "part 6", "missing: 6 lines, 5 read"),
    ])
    func aBrokenCompiledPartIsNamedWithItsPart(sql: String, row: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let path = try writeCaltrain(directory)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
        #expect(
            throws: StorageError.invalidValue(path: path, table: "trackerModel", row: row, column: "data", problem: problem)
        ) {
            try RailwayDatabase.loadModel(path: path)
        }
    }

    @Test func aCompiledTimetableOfAnotherVersionIsCompiledAfreshFromTheTrains() throws {
        let directory = try TemporaryDirectory()
        let path = try writeCaltrain(directory)
        let current = try RailwayDatabase.loadModel(path: path)
        // Version 1 + 1 in the header's bytes 4...7 (little-endian).
        try DatabaseQueue(path: path).write { db in
            let header = try #require(try Data.fetchOne(db, sql: "SELECT data FROM trackerModel WHERE part = 0"))
            var bytes = [UInt8](header)
            bytes[4] &+= 1
            try db.execute(sql: "UPDATE trackerModel SET data = ? WHERE part = 0", arguments: [Data(bytes)])
        }
        var recompiled: [String] = []
        let model = try RailwayDatabase.loadModel(path: path, recompiled: { recompiled.append($0) })
        #expect(recompiled == ["\(path): its compiled timetable is of another version; compiling it from the trains"])
        #expect(model.compiledTimetable() == current.compiledTimetable())
    }

    @Test func aNetworkImportedWithoutTrainsLoadsWithoutATimetable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("network.sqlite")
        try RailwayDatabase.write(TransitDataset(network: Self.caltrain.network), to: path)
        let model = try RailwayDatabase.loadModel(path: path)
        #expect(!model.hasTimetable)
        #expect(model.network.railways.count == Self.caltrain.network.railways.count)
    }

    @Test func aFileWithoutACompiledTimetableIsCompiledFromItsTrains() throws {
        let directory = try TemporaryDirectory()
        let path = try writeCaltrain(directory)
        let current = try RailwayDatabase.loadModel(path: path)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP TABLE trackerModel") }
        #expect(try RailwayDatabase.loadModel(path: path).compiledTimetable() == current.compiledTimetable())
    }
}

extension CompiledTimetableFileTests {
    /// NYC's 1 and 2 (1,990 trips of a real feed): read back from the compiled file, every trip
    /// is found by its id on its railway and named as the feed names it, as the dictionary of
    /// strings did that the packed names replaced.
    @Test func everyTripOfARealFeedIsFoundByItsIdAndNamedAsTheFeedNamesIt() throws {
        let dataset = try GTFSImporter.load(path: SharedPaths.nycSubway)
        #expect(dataset.timetable.trains.count > 1_000)
        let directory = try TemporaryDirectory()
        let path = directory.path("nyc.sqlite")
        try RailwayDatabase.write(dataset, to: path)
        let model = try RailwayDatabase.loadModel(path: path)
        var first: [String: (railway: String, name: String)] = [:]
        for train in dataset.timetable.trains where first[train.id] == nil {
            let number = train.number.flatMap { $0.isEmpty ? nil : $0 }
            first[train.id] = (train.railwayID, number ?? train.id)
        }
        for (id, expected) in first {
            #expect(model.railwayID(ofTrip: id) == expected.railway, "\(id)")
            #expect(model.tripName(id) == expected.name, "\(id)")
        }
        #expect(model.tripName("no such trip") == nil)
        #expect(model.tripName(String(first.keys.sorted()[0].dropLast())) == nil)
    }
}
