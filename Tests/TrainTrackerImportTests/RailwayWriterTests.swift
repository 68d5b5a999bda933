import Foundation
import GRDB
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerImport

/// `import` writes the Eki railway schema; reading it back gives the same network and timetable.
@Suite(.tags(.sharedData)) struct RailwayWriterTests {
    @Test func aGTFSImportRoundTripsThroughTheEkiSchema() throws {
        let dataset = try GTFSImporter.load(path: SharedPaths.caltrain)
        let directory = try TemporaryDirectory()
        let path = directory.path("caltrain.sqlite")
        try RailwayDatabase.write(dataset, to: path)
        let read = try RailwayDatabase.loadDataset(path: path)
        #expect(read.network.railways.map(\.id) == dataset.network.railways.map(\.id))
        #expect(read.network.stations.count == dataset.network.stations.count)
        for railway in dataset.network.railways {
            let back = try #require(read.network.railway(id: railway.id))
            #expect(back.stationIDs == railway.stationIDs)
            #expect(back.name == railway.name && back.color == railway.color)
            #expect((back.ascendingName, back.descendingName) == (railway.ascendingName, railway.descendingName))
            #expect(abs(back.track.polyline.length - railway.track.polyline.length) < 1)
        }
        #expect(read.timetable.trains == dataset.timetable.trains)
        #expect(read.timetable.trainTypes == dataset.timetable.trainTypes)
        #expect(read.timetable.calendar == dataset.timetable.calendar)
        #expect(read.timetable.calendar.dateRange != nil)
    }

    @Test func aMiniTokyo3DSubsetKeepsLoopsUndergroundPartsAndThroughService() throws {
        let full = try MiniTokyo3DImporter.load(path: SharedPaths.miniTokyo3D, timetables: false)
        let keep: Set = ["JR-East.Yamanote", "TokyoMetro.Ginza", "Tokyu.Toyoko"]
        let railways = full.network.railways.filter { keep.contains($0.id) }
        let stations = railways.flatMap { full.network.stations(of: $0) }
        let network = try RailwayNetwork(railways: railways, stations: stations)
        let train = TimetabledTrain(
            id: "T1", railwayID: "Tokyu.Toyoko", number: "1", trainTypeID: "Tokyu.Express", directionName: "Outbound",
            service: "Weekday",
            stops: [
                TimetableStop(stationID: "Tokyu.Toyoko.Shibuya", arrival: nil, departure: 36_000),
                TimetableStop(stationID: "Tokyu.Toyoko.Yokohama", arrival: 37_800, departure: nil),
            ], previousTrainIDs: ["F1"], nextTrainIDs: ["M1", "M2"])
        let dataset = TransitDataset(
            network: network, timetable: Timetable(trainTypes: [TrainType(id: "Tokyu.Express", name: "Express")], trains: [train])
        )
        let directory = try TemporaryDirectory()
        let path = directory.path("subset.sqlite")
        try RailwayDatabase.write(dataset, to: path)
        let read = try RailwayDatabase.loadDataset(path: path)
        let yamanote = try #require(read.network.railway(id: "JR-East.Yamanote"))
        #expect(yamanote.isLoop && yamanote.stationIDs.count == 30)
        let ginza = try #require(read.network.railway(id: "TokyoMetro.Ginza"))
        let original = try #require(network.railway(id: "TokyoMetro.Ginza"))
        #expect(abs(ginza.track.undergroundLength - original.track.undergroundLength) < original.track.polyline.length * 0.02)
        #expect(read.network.station(id: "TokyoMetro.Ginza.Ginza")?.isUnderground == true)
        #expect(read.timetable.trains == [train])
    }

    @Test func theFileHasTheEkiTablesAndColumns() throws {
        let dataset = try GTFSImporter.load(path: SharedPaths.caltrain)
        let directory = try TemporaryDirectory()
        let path = directory.path("caltrain.sqlite")
        try RailwayDatabase.write(dataset, to: path)
        // The same tables and columns as the Eki railway file, R-trees included.
        func columns(_ file: String) throws -> [String: [String]] {
            var configuration = Configuration()
            configuration.readonly = true
            return try DatabaseQueue(path: file, configuration: configuration).read { db in
                var tables: [String: [String]] = [:]
                for table in [
                    "railway", "station", "segment", "coordinate", "segmentCoordinate", "station_rtree", "coordinate_rtree",
                ] {
                    tables[table] = try db.columns(in: table).map(\.name)
                }
                return tables
            }
        }
        #expect(try columns(path) == columns(SharedPaths.tokyoRailways))
        let hits = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM station_rtree WHERE minLat > 37.77 AND maxLon < -122.39") ?? 0
        }
        #expect(hits == 3, "San Francisco, once per railway")
        let network = try RailwayDatabase.load(path: path)
        #expect(network.railways.count == 3)
        #expect(throws: StorageError.fileExists(path: path)) { try RailwayDatabase.write(dataset, to: path) }
        try RailwayDatabase.write(dataset, to: path, replacing: true)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.hasSuffix(".partial")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func anImportThatFailsLeavesNoFile() throws {
        let dataset = try GTFSImporter.load(path: SharedPaths.caltrain)
        var broken = dataset.timetable
        broken.trains[0].stops[0].stationID = "nowhere"
        let directory = try TemporaryDirectory()
        let path = directory.path("broken.sqlite")
        #expect(throws: StorageError.self) {
            try RailwayDatabase.write(TransitDataset(network: dataset.network, timetable: broken), to: path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
