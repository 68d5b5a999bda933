import Foundation
import GRDB
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerStorage

@Suite(.tags(.sharedData)) struct RailwayDatabaseTests {
    @Test func theGreaterTokyoNetworkLoadsWhole() throws {
        let network = try RailwayDatabase.load(path: SharedPaths.tokyoRailways)
        #expect(network.railways.count == 179)
        #expect(network.stations.count == 2_583)
        #expect(network.trackVertexCount > 80_000)
        let toyoko = try #require(network.railway(id: "Tokyu.Toyoko"))
        #expect(toyoko.name == "Toyoko Line")
        #expect(toyoko.names["ja"] == "東横線")
        #expect(toyoko.ascendingName == "Outbound" && toyoko.descendingName == "Inbound")
        #expect(toyoko.stationIDs.first == "Tokyu.Toyoko.Shibuya" && toyoko.stationIDs.last == "Tokyu.Toyoko.Yokohama")
        #expect(toyoko.track.undergroundLength > 1_000)  // Shibuya and Yokohama ends run underground
        #expect(network.station(id: "Tokyu.Toyoko.Tsunashima")?.name == "Tsunashima")
    }

    @Test func stationsLieOnTheirOwnTrackInOrder() throws {
        let network = try RailwayDatabase.load(path: SharedPaths.tokyoRailways)
        var farStations: [String] = []
        var unorderedRailways: [String] = []
        for railway in network.railways {
            for station in network.stations(of: railway)
            where (railway.track.polyline.distance(to: station.coordinate) ?? .infinity) > 150 {
                farStations.append(station.id)
            }
            let positions = network.stationPositions(of: railway)
            if positions != positions.sorted() { unorderedRailways.append(railway.id) }
        }
        #expect(farStations.count <= network.stations.count / 100, "stations far from their track: \(farStations)")
        #expect(unorderedRailways.count <= network.railways.count / 10, "railways out of order: \(unorderedRailways)")
    }

    @Test func aMissingFileIsReportedByName() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nowhere.sqlite")
        #expect(throws: StorageError.missingFile(path: path)) { try RailwayDatabase.load(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing is created")
    }

    @Test func aDirectoryIsReportedAsOneNotAsMissing() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: StorageError.isDirectory(path: directory.url.path)) { try RailwayDatabase.load(path: directory.url.path) }
        #expect(StorageError.isDirectory(path: "x").description == "x: is a directory")
    }

    @Test func aFileThatIsNotSQLiteIsReported() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("railways.sqlite")
        try Data("this is not a database, just some text that is long enough to look like a header".utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(throws: StorageError.notSQLite(path: path)) { try RailwayDatabase.load(path: path) }
        #expect(StorageError.notSQLite(path: path).description == "\(path): not an SQLite database")
    }

    /// A railway file with one railway, built by hand; `drop` leaves a table or column out.
    func makeRailwayFile(
        _ path: String, stationsJSON: String = #"["A","B"]"#, omitTable: String? = nil, railwayColumns: String? = nil
    ) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE railway (\(railwayColumns ?? "id TEXT, title TEXT, stations TEXT, color TEXT, ascending TEXT, descending TEXT"))"
            )
            if railwayColumns == nil {
                try db.execute(
                    sql: "INSERT INTO railway VALUES ('R', '{\"en\":\"Line R\"}', ?, '#FF0000', 'Up', 'Down')",
                    arguments: [stationsJSON])
            }
            try db.execute(
                sql:
                    #"CREATE TABLE station (id TEXT, railway TEXT, title TEXT, latitude DOUBLE, longitude DOUBLE, "order" INTEGER)"#
            )
            try db.execute(
                sql:
                    #"INSERT INTO station VALUES ('A', 'R', '{"en":"A"}', 35.60, 139.60, 0), ('B', 'R', '{"en":"B"}', 35.61, 139.60, 1)"#
            )
            if omitTable != "segment" {
                try db.execute(
                    sql: #"CREATE TABLE segment (id INTEGER PRIMARY KEY, railway TEXT, underground BOOLEAN, "order" INTEGER)"#)
                try db.execute(sql: "INSERT INTO segment VALUES (1, 'R', 0, 0)")
            }
            try db.execute(sql: "CREATE TABLE coordinate (id INTEGER PRIMARY KEY, latitude DOUBLE, longitude DOUBLE)")
            try db.execute(sql: "INSERT INTO coordinate VALUES (1, 35.60, 139.60), (2, 35.61, 139.60)")
            try db.execute(sql: #"CREATE TABLE segmentCoordinate (segment INTEGER, "order" INTEGER, coordinate INTEGER)"#)
            try db.execute(sql: "INSERT INTO segmentCoordinate VALUES (1, 0, 1), (1, 1, 2)")
        }
    }

    @Test func aMinimalHandMadeFileLoads() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("mini.sqlite")
        try makeRailwayFile(path)
        let network = try RailwayDatabase.load(path: path)
        #expect(network.railways.map(\.name) == ["Line R"])
        #expect(abs(network.trackLength - 1_112) < 2)
    }

    @Test func aMissingTableIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("no-segment.sqlite")
        try makeRailwayFile(path, omitTable: "segment")
        #expect(throws: StorageError.missingTable(path: path, table: "segment")) { try RailwayDatabase.load(path: path) }
    }

    @Test func aMissingColumnIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("no-ascending.sqlite")
        try makeRailwayFile(path, railwayColumns: "id TEXT, title TEXT, stations TEXT, color TEXT, descending TEXT")
        #expect(throws: StorageError.missingColumn(path: path, table: "railway", column: "ascending")) {
            try RailwayDatabase.load(path: path)
        }
    }

    @Test func aStationListThatIsNotJSONIsNamedWithItsRow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bad-json.sqlite")
        try makeRailwayFile(path, stationsJSON: "A, B")
        #expect(
            throws: StorageError.invalidValue(
                path: path, table: "railway", row: "R", column: "stations", problem: "not a JSON array of station ids")
        ) {
            try RailwayDatabase.load(path: path)
        }
    }

    @Test func aRailwayListingAnUnknownStationIsRejected() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("unknown-station.sqlite")
        try makeRailwayFile(path, stationsJSON: #"["A","Z"]"#)
        #expect(throws: StorageError.invalidNetwork(path: path, problem: .unknownStation(railway: "R", station: "Z"))) {
            try RailwayDatabase.load(path: path)
        }
    }

    /// Runs `sql` on the hand-made file at `path`.
    func change(_ path: String, _ sql: String) throws {
        try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
    }

    /// The hand-made file with TrainTracker's timetable tables: two trains of two calls.
    func makeTimetabledFile(_ path: String) throws {
        try makeRailwayFile(path)
        try change(
            path,
            """
            CREATE TABLE train (rowid INTEGER PRIMARY KEY, id TEXT, railway TEXT, number TEXT, trainType TEXT,
              direction TEXT, service TEXT, name TEXT, previousTrains TEXT, nextTrains TEXT);
            CREATE TABLE trainStop (train INTEGER, "order" INTEGER, station INTEGER, arrival INTEGER, departure INTEGER);
            CREATE TABLE timetableInfo (key TEXT, value TEXT);
            INSERT INTO train VALUES (1, 'T1', 'R', NULL, NULL, 'Up', 'Daily', NULL, '[]', '[]'),
              (2, 'T2', 'R', NULL, NULL, 'Down', 'Daily', NULL, '[]', '[]');
            INSERT INTO trainStop VALUES (1, 0, 1, NULL, 28800), (1, 1, 2, 28920, NULL),
              (2, 0, 2, NULL, 30000), (2, 1, 1, 30120, NULL);
            INSERT INTO timetableInfo VALUES ('utcOffset', '32400');
            """)
    }

    @Test func aHandMadeTimetableLoads() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("timetable.sqlite")
        try makeTimetabledFile(path)
        let timetable = try RailwayDatabase.loadDataset(path: path).timetable
        #expect(timetable.trains.map(\.id) == ["T1", "T2"])
        #expect(timetable.trains.first?.stops.map(\.departure) == [28_800, nil])
        #expect(timetable.zone.offset(at: Timestamp(secondsSince1970: 0)) == 32_400)
    }

    /// Values a reader must not drop or let through: each is an error naming its table, row and column.
    @Test(arguments: [
        ("UPDATE coordinate SET latitude = 1e300 WHERE id = 2", "coordinate", "2", "latitude", "not a position (1e+300, 139.6)"),
        ("UPDATE coordinate SET latitude = NULL WHERE id = 2", "coordinate", "2", "latitude", "missing"),
        ("UPDATE coordinate SET longitude = 'east' WHERE id = 2", "coordinate", "2", "longitude", "not a number ('east')"),
        ("DELETE FROM coordinate WHERE id = 2", "segmentCoordinate", "segment 1", "coordinate", "no coordinate with id 2"),
        ("UPDATE station SET latitude = 1e300 WHERE id = 'B'", "station", "B", "latitude", "not a position (1e+300, 139.6)"),
        (
            "UPDATE trainStop SET departure = 1e300 WHERE train = 1 AND \"order\" = 0", "trainStop", "train 1, order 0",
            "departure", "not a time of day in whole seconds, 0 to 172799 (1e+300)"
        ),
        (
            "UPDATE trainStop SET arrival = 28920.5 WHERE train = 1 AND \"order\" = 1", "trainStop", "train 1, order 1",
            "arrival", "not a time of day in whole seconds, 0 to 172799 (28920.5)"
        ),
        (
            "UPDATE timetableInfo SET value = '1e300' WHERE key = 'utcOffset'", "timetableInfo", "utcOffset", "value",
            "not an offset from UTC in seconds, -64800 to 64800 ('1e300')"
        ),
        ("UPDATE train SET id = 'T1' WHERE rowid = 2", "train", "T1", "id", "listed twice"),
    ])
    func aValueOutOfRangeIsNamedNotDropped(sql: String, table: String, row: String, column: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bad-value.sqlite")
        try makeTimetabledFile(path)
        try change(path, sql)
        #expect(throws: StorageError.invalidValue(path: path, table: table, row: row, column: column, problem: problem)) {
            try RailwayDatabase.loadDataset(path: path)
        }
    }
}
