import Foundation
import GRDB
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerStorage

@Suite struct RailwayDatabaseTests {
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
        #expect(throws: StorageError.missingFile(path: directory.url.path)) { try RailwayDatabase.load(path: directory.url.path) }
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
}
