import Foundation
import GRDB
import TrainTrackerCore

extension RailwayDatabase {
    /// The Eki railway schema, as the Eki Live tools create it, plus TrainTracker's
    /// timetable tables (`trainType`, `train`, `trainStop`), which Eki tools ignore.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: Eki railway schema") { db in
            try db.execute(
                sql: """
                    CREATE TABLE "railway" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "stations" TEXT NOT NULL,
                      "color" TEXT NOT NULL, "ascending" TEXT NOT NULL, "descending" TEXT NOT NULL);
                    CREATE TABLE "station" ("id" TEXT PRIMARY KEY NOT NULL, "railway" TEXT NOT NULL REFERENCES "railway"("id"),
                      "title" TEXT NOT NULL, "latitude" DOUBLE, "longitude" DOUBLE, "order" INTEGER NOT NULL);
                    CREATE TABLE "segment" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "railway" TEXT NOT NULL REFERENCES "railway"("id"),
                      "underground" BOOLEAN NOT NULL, "order" INTEGER NOT NULL);
                    CREATE TABLE "coordinate" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "latitude" DOUBLE, "longitude" DOUBLE,
                      UNIQUE ("latitude", "longitude"));
                    CREATE TABLE "segmentCoordinate" ("segment" INTEGER NOT NULL REFERENCES "segment"("id"), "order" INTEGER NOT NULL,
                      "coordinate" INTEGER NOT NULL REFERENCES "coordinate"("id"), PRIMARY KEY ("segment", "order"),
                      UNIQUE ("segment", "coordinate"));
                    CREATE INDEX "station_on_latitude" ON "station"("latitude");
                    CREATE INDEX "station_on_longitude" ON "station"("longitude");
                    CREATE INDEX "coordinate_on_latitude" ON "coordinate"("latitude");
                    CREATE INDEX "coordinate_on_longitude" ON "coordinate"("longitude");
                    CREATE VIRTUAL TABLE station_rtree USING rtree(id, minLat, maxLat, minLon, maxLon);
                    CREATE VIRTUAL TABLE coordinate_rtree USING rtree(id, minLat, maxLat, minLon, maxLon);
                    """
            )
        }
        migrator.registerMigration("v1: TrainTracker timetables") { db in
            try db.execute(
                sql: """
                    CREATE TABLE "trainType" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL);
                    CREATE TABLE "train" ("rowid" INTEGER PRIMARY KEY, "id" TEXT NOT NULL UNIQUE,
                      "railway" TEXT NOT NULL REFERENCES "railway"("id"), "number" TEXT, "trainType" TEXT, "direction" TEXT NOT NULL,
                      "service" TEXT NOT NULL, "name" TEXT, "previousTrains" TEXT NOT NULL, "nextTrains" TEXT NOT NULL);
                    CREATE TABLE "trainStop" ("train" INTEGER NOT NULL REFERENCES "train"("rowid"), "order" INTEGER NOT NULL,
                      "station" INTEGER NOT NULL, "arrival" INTEGER, "departure" INTEGER,
                      PRIMARY KEY ("train", "order")) WITHOUT ROWID;
                    CREATE TABLE "stationUnderground" ("id" TEXT PRIMARY KEY NOT NULL REFERENCES "station"("id")) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v2: timetable clock") { db in
            try db.execute(sql: #"CREATE TABLE "timetableInfo" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#)
        }
        migrator.registerMigration("v3: compiled timetable") { db in
            // The tracker's compiled timetable (TrackerModel.compiledTimetable()): part 0 the
            // header, part 1 + n line n's trips and patterns. Read in a fraction of the time the
            // train tables take; compiled afresh from them when of another version.
            try db.execute(sql: #"CREATE TABLE "trackerModel" ("part" INTEGER PRIMARY KEY, "data" BLOB NOT NULL)"#)
        }
        return migrator
    }

    /// Writes `dataset` to a new file at `path` in the Eki railway schema (readable by the
    /// Eki Live viewer) with the timetable in TrainTracker's own tables. The file appears
    /// only when complete: it is written beside `path` and moved into place (`StagedFile`).
    ///
    /// - Throws: `StorageError.fileExists` rather than overwrite a file (unless `replacing`),
    ///   `.isDirectory`, or a database error; nothing is left behind on error.
    public static func write(_ dataset: TransitDataset, to path: String, replacing: Bool = false) throws(StorageError) {
        try StagedFile.write(to: path, replacing: replacing) { temporary in
            do {
                // A fresh file that is deleted on any failure needs no journal and no syncs.
                var configuration = Configuration()
                configuration.prepareDatabase { db in
                    try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
                }
                let queue = try DatabaseQueue(path: temporary, configuration: configuration)
                try migrator.migrate(queue)
                try queue.inTransaction { db in
                    try writeNetwork(dataset.network, db)
                    try writeTimetable(dataset.timetable, network: dataset.network, path: path, db)
                    try writeCompiledTimetable(dataset, db)
                    return .commit
                }
                try queue.close()
            } catch {
                throw DatabaseFile.storageError(error, path: path)
            }
        }
    }

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A JSON array of strings, written directly: the timetable has two per train.
    private static func jsonList(_ strings: [String]) -> String {
        "[" + strings.map(\.jsonQuoted).joined(separator: ",") + "]"
    }

    private static func writeNetwork(_ network: RailwayNetwork, _ db: Database) throws {
        let railway = try db.makeStatement(
            sql: #"INSERT INTO railway (id, title, stations, color, ascending, descending) VALUES (?, ?, ?, ?, ?, ?)"#)
        let station = try db.makeStatement(
            sql: #"INSERT INTO station (id, railway, title, latitude, longitude, "order") VALUES (?, ?, ?, ?, ?, ?)"#)
        let stationTree = try db.makeStatement(sql: "INSERT INTO station_rtree VALUES (?, ?, ?, ?, ?)")
        let underground = try db.makeStatement(sql: #"INSERT INTO stationUnderground (id) VALUES (?)"#)
        let segment = try db.makeStatement(sql: #"INSERT INTO segment (railway, underground, "order") VALUES (?, ?, ?)"#)
        let coordinate = try db.makeStatement(sql: "INSERT INTO coordinate (latitude, longitude) VALUES (?, ?)")
        let coordinateTree = try db.makeStatement(sql: "INSERT INTO coordinate_rtree VALUES (?, ?, ?, ?, ?)")
        let vertex = try db.makeStatement(sql: #"INSERT INTO segmentCoordinate (segment, "order", coordinate) VALUES (?, ?, ?)"#)
        var coordinateIDs: [Coordinate: Int64] = [:]
        var writtenStations = Set<String>()
        for line in network.railways {
            let stationIDs = line.isLoop ? line.stationIDs + line.stationIDs.prefix(1) : line.stationIDs
            try railway.execute(arguments: [
                line.id, try json(line.names), try json(stationIDs), line.color, line.ascendingName, line.descendingName,
            ])
            for (order, stop) in network.stations(of: line).enumerated() where writtenStations.insert(stop.id).inserted {
                try station.execute(arguments: [
                    stop.id, stop.railwayID.isEmpty ? line.id : stop.railwayID, try json(stop.names),
                    stop.coordinate.latitude, stop.coordinate.longitude, order,
                ])
                let latitude = stop.coordinate.latitude
                let longitude = stop.coordinate.longitude
                try stationTree.execute(arguments: [db.lastInsertedRowID, latitude, latitude, longitude, longitude])
                if stop.isUnderground { try underground.execute(arguments: [stop.id]) }
            }
            // One segment per run of edges above or below ground; a segment never repeats a vertex.
            let vertices = line.track.polyline.coordinates
            var order = 0
            var current: (id: Int64, vertices: Set<Coordinate>, count: Int)?
            func startSegment(isUnderground: Bool) throws {
                try segment.execute(arguments: [line.id, isUnderground, order])
                order += 1
                current = (db.lastInsertedRowID, [], 0)
            }
            var previousUnderground: Bool?
            for (index, point) in vertices.enumerated() {
                // A vertex belongs with the edge that ends at it (the first vertex with the first edge).
                let edges = line.track.undergroundEdges
                let isUnderground = edges.isEmpty ? false : edges[min(max(0, index - 1), edges.count - 1)]
                if current == nil || previousUnderground != isUnderground || current?.vertices.contains(point) == true {
                    let carry = index > 0 ? vertices[index - 1] : nil
                    try startSegment(isUnderground: isUnderground)
                    if let carry, carry != point { try append(carry) }
                }
                previousUnderground = isUnderground
                try append(point)
            }
            func append(_ point: Coordinate) throws {
                guard var segmentState = current else { return }
                let id: Int64
                if let known = coordinateIDs[point] {
                    id = known
                } else {
                    try coordinate.execute(arguments: [point.latitude, point.longitude])
                    id = db.lastInsertedRowID
                    coordinateIDs[point] = id
                    try coordinateTree.execute(arguments: [id, point.latitude, point.latitude, point.longitude, point.longitude])
                }
                try vertex.execute(arguments: [segmentState.id, segmentState.count, id])
                segmentState.vertices.insert(point)
                segmentState.count += 1
                current = segmentState
            }
        }
    }

    /// The tracker's compiled timetable, when there is a timetable.
    private static func writeCompiledTimetable(_ dataset: TransitDataset, _ db: Database) throws {
        guard !dataset.timetable.trains.isEmpty else { return }
        let insert = try db.makeStatement(sql: #"INSERT INTO trackerModel (part, data) VALUES (?, ?)"#)
        for (part, bytes) in TrackerModel(dataset: dataset).compiledTimetable().enumerated() {
            try insert.execute(arguments: [part, Data(bytes)])
        }
    }

    /// A time of a call as the whole seconds stored.
    private static func clock(_ seconds: Seconds, _ train: String, path: String) throws -> Int {
        guard let whole = Int(wholeNumber: seconds.rounded()), clockSeconds.contains(whole) else {
            throw StorageError.invalidValue(
                path: path, table: "trainStop", row: train, column: "arrival", problem: "not a time of day (\(seconds) s)")
        }
        return whole
    }

    private static func writeTimetable(_ timetable: Timetable, network: RailwayNetwork, path: String, _ db: Database) throws {
        // The offset of the zone's first rule, for readers of older versions; the zone's rules in full.
        let offset = Int(flooring: timetable.zone.initialOffset, within: -64_800...64_800)
        try db.execute(sql: "INSERT INTO timetableInfo (key, value) VALUES ('utcOffset', ?)", arguments: ["\(offset)"])
        let calendarEncoder = JSONEncoder()
        calendarEncoder.outputFormatting = .sortedKeys
        let zone = String(decoding: try calendarEncoder.encode(timetable.zone), as: UTF8.self)
        try db.execute(sql: "INSERT INTO timetableInfo (key, value) VALUES ('timeZone', ?)", arguments: [zone])
        let calendar = String(decoding: try calendarEncoder.encode(timetable.calendar), as: UTF8.self)
        try db.execute(sql: "INSERT INTO timetableInfo (key, value) VALUES ('calendar', ?)", arguments: [calendar])
        let type = try db.makeStatement(sql: "INSERT INTO trainType (id, title) VALUES (?, ?)")
        for trainType in timetable.trainTypes {
            try type.execute(arguments: [trainType.id, try json(trainType.names)])
        }
        var stationRowIDs: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT rowid, id FROM station") {
            stationRowIDs[row[1]] = row[0]
        }
        let train = try db.makeStatement(
            sql: """
                INSERT INTO train (id, railway, number, trainType, direction, service, name, previousTrains, nextTrains)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let stop = try db.makeStatement(
            sql: #"INSERT INTO trainStop (train, "order", station, arrival, departure) VALUES (?, ?, ?, ?, ?)"#)
        for run in timetable.trains {
            try train.execute(arguments: [
                run.id, run.railwayID, run.number, run.trainTypeID, run.directionName, run.service, run.name,
                jsonList(run.previousTrainIDs), jsonList(run.nextTrainIDs),
            ])
            let trainRowID = db.lastInsertedRowID
            for (order, call) in run.stops.enumerated() {
                guard let station = stationRowIDs[call.stationID] else {
                    throw StorageError.invalidValue(
                        path: path, table: "trainStop", row: run.id, column: "station",
                        problem: "unknown station '\(call.stationID)'")
                }
                // The hot loop of an import (1.2 million calls for Tokyo): no argument checks per row.
                stop.setUncheckedArguments([
                    trainRowID, order, station, try call.arrival.map { try clock($0, run.id, path: path) },
                    try call.departure.map { try clock($0, run.id, path: path) },
                ])
                try stop.execute()
            }
        }
    }
}
