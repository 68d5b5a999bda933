import Foundation
import GRDB
import TrainTrackerCore

/// Reads railway networks stored in the Eki Live railway schema (`railway`, `station`,
/// `segment`, `coordinate`, `segmentCoordinate`; see `shared/docs/FORMATS.md`).
public enum RailwayDatabase {
    /// The tables and columns a railway file must have.
    static let schema: [String: [String]] = [
        "railway": ["id", "title", "stations", "color", "ascending", "descending"],
        "station": ["id", "railway", "title", "latitude", "longitude", "order"],
        "segment": ["id", "railway", "underground", "order"],
        "coordinate": ["id", "latitude", "longitude"],
        "segmentCoordinate": ["segment", "order", "coordinate"],
    ]

    /// Loads the whole network at `path` into memory.
    ///
    ///     let network = try RailwayDatabase.load(path: "../shared/data/tokyo/railway.sqlite")
    ///
    /// - Throws: `StorageError` when the file is missing, is not SQLite, lacks a table or
    ///   column, holds an unreadable value, or does not form a valid network.
    /// - Complexity: O(V log V) for V track vertices.
    public static func load(path: String) throws(StorageError) -> RailwayNetwork {
        try read(path: path, timetable: false).network
    }

    /// Loads the network at `path` with the timetable TrainTracker stored beside it (empty
    /// for plain Eki files).
    ///
    /// - Throws: as `load(path:)`, and for an unreadable timetable row.
    public static func loadDataset(path: String) throws(StorageError) -> TransitDataset {
        try read(path: path, timetable: true)
    }

    private static func read(path: String, timetable: Bool) throws(StorageError) -> TransitDataset {
        let queue = try DatabaseFile.openReadOnly(path: path, schema: schema)
        do {
            return try queue.read { db in
                TransitDataset(
                    network: try readNetwork(db, path: path), timetable: timetable ? try readTimetable(db, path: path) : .empty)
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// The network alone, as read.
    static func readNetwork(_ db: Database, path: String) throws -> RailwayNetwork {
        let tracks = try readTracks(db, path: path)
        let stations = try readStations(db, path: path)
        let railways = try readRailways(db, path: path, tracks: tracks)
        do {
            return try RailwayNetwork(railways: railways, stations: stations)
        } catch {
            throw StorageError.invalidNetwork(path: path, problem: error)
        }
    }

    /// Times of day a timetable holds, in seconds after midnight: up to 48 h, as
    /// `TimetableStop.seconds(fromClock:)` reads them.
    static let clockSeconds = 0..<172_800

    /// TrainTracker's timetable tables, when the file has them.
    static func readTimetable(_ db: Database, path: String) throws -> Timetable {
        guard try db.tableExists("train"), try db.tableExists("trainStop") else { return .empty }
        var stationIDs: [DatabaseValue: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT rowid, id FROM station") {
            stationIDs[row[0]] = (row[1] as DatabaseValue).text
        }
        let decoder = JSONDecoder()
        func list(_ value: DatabaseValue) -> [String] {
            value.text.flatMap { try? decoder.decode([String].self, from: Data($0.utf8)) } ?? []
        }
        var trainTypes: [TrainType] = []
        if try db.tableExists("trainType") {
            for row in try Row.fetchAll(db, sql: "SELECT id, title FROM trainType") {
                let id = (row[0] as DatabaseValue).text ?? "\(row[0] as DatabaseValue)"
                guard !trainTypes.contains(where: { $0.id == id }) else {
                    throw StorageError.invalidValue(
                        path: path, table: "trainType", row: id, column: "id", problem: "listed twice")
                }
                let names = try titles((row[1] as DatabaseValue).text, path: path, table: "trainType", row: id)
                trainTypes.append(TrainType(id: id, name: names["en"] ?? names.values.first ?? id, names: names))
            }
        }
        var stops: [DatabaseValue: [TimetableStop]] = [:]
        let stopRows = try Row.fetchCursor(
            db, sql: #"SELECT train, station, arrival, departure, "order" FROM trainStop ORDER BY train, "order""#)
        while let row = try stopRows.next() {
            let values: [DatabaseValue] = (0..<5).map { row[$0] }
            let place = "train \(values[0]), order \(values[4])"
            guard let stationID = stationIDs[values[1]] else {
                throw StorageError.invalidValue(
                    path: path, table: "trainStop", row: place, column: "station", problem: "unknown station \(values[1])")
            }
            func time(_ value: DatabaseValue, _ column: String) throws -> Seconds? {
                guard !value.isNull else { return nil }
                guard let seconds = value.number, Int(wholeNumber: seconds).map(Self.clockSeconds.contains) == true else {
                    throw StorageError.invalidValue(
                        path: path, table: "trainStop", row: place, column: column,
                        problem: "not a time of day in whole seconds, 0 to 172799 (\(value.shown))")
                }
                return seconds
            }
            stops[values[0], default: []].append(
                TimetableStop(
                    stationID: stationID, arrival: try time(values[2], "arrival"), departure: try time(values[3], "departure")))
        }
        var trains: [TimetabledTrain] = []
        var trainIDs = Set<String>()
        let trainRows = try Row.fetchCursor(
            db,
            sql: """
                SELECT rowid, id, railway, number, trainType, direction, service, name, previousTrains, nextTrains
                FROM train ORDER BY rowid
                """)
        while let row = try trainRows.next() {
            let values: [DatabaseValue] = (0..<10).map { row[$0] }
            let rowID = values[0]
            // A train id twice (a file another tool wrote) would be refused only when written out.
            guard trainIDs.insert(values[1].text ?? "").inserted else {
                throw StorageError.invalidValue(
                    path: path, table: "train", row: values[1].text ?? values[1].shown, column: "id", problem: "listed twice")
            }
            trains.append(
                TimetabledTrain(
                    id: values[1].text ?? "", railwayID: values[2].text ?? "", number: values[3].text,
                    trainTypeID: values[4].text, directionName: values[5].text ?? "", service: values[6].text ?? "",
                    name: values[7].text, stops: stops[rowID] ?? [], previousTrainIDs: list(values[8]),
                    nextTrainIDs: list(values[9])
                )
            )
        }
        let (zone, calendar) = try readTimetableInfo(db, path: path, services: trains.map(\.service))
        return Timetable(trainTypes: trainTypes, trains: trains, zone: zone, calendar: calendar)
    }

    /// The timetable's clock and calendar: the zone's rules when stored (`timeZone`), else
    /// the one offset older files carry (`utcOffset`); for older files without a calendar, the
    /// weekly rules `services`' names stand for.
    static func readTimetableInfo(_ db: Database, path: String, services: [String]) throws -> (
        zone: TimeZoneRules, calendar: ServiceCalendar
    ) {
        var utcOffset: Seconds = 0
        if try db.tableExists("timetableInfo"),
            let text = try String.fetchOne(db, sql: "SELECT value FROM timetableInfo WHERE key = 'utcOffset'")
        {
            guard let offset = Seconds(text)?.within(DomainRange.utcOffset) else {
                throw StorageError.invalidValue(
                    path: path, table: "timetableInfo", row: "utcOffset", column: "value",
                    problem: "not an offset from UTC in seconds, -64800 to 64800 ('\(text)')")
            }
            utcOffset = offset
        }
        let zone =
            try stored(TimeZoneRules.self, key: "timeZone", what: "a time zone's rules", db, path: path)
            ?? TimeZoneRules.fixed(utcOffset)
        // The calendar, when stored; older files: the weekly rules the services' names stand for.
        let calendar =
            try stored(ServiceCalendar.self, key: "calendar", what: "a service calendar", db, path: path)
            ?? ServiceCalendar.weekly(named: services)
        return (zone, calendar)
    }

    /// The JSON value `timetableInfo` stores under `key`, if any.
    ///
    /// - Throws: `StorageError.invalidValue` naming the row when it is not `what`.
    private static func stored<Value: Decodable>(_ type: Value.Type, key: String, what: String, _ db: Database, path: String)
        throws -> Value?
    {
        guard try db.tableExists("timetableInfo"),
            let text = try String.fetchOne(db, sql: "SELECT value FROM timetableInfo WHERE key = ?", arguments: [key])
        else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw StorageError.invalidValue(path: path, table: "timetableInfo", row: key, column: "value", problem: "not \(what)")
        }
    }

    /// One segment's vertices as read.
    private struct SegmentRows {
        var railway: String
        var isUnderground: Bool
        var coordinates: [Coordinate] = []
    }

    /// The vertices of every segment. A vertex whose coordinate is missing, not a number or
    /// not a position is an error naming the `coordinate` row (a track with a vertex left
    /// out would be drawn wrong without a word).
    static func readTracks(_ db: Database, path: String) throws -> [String: Track] {
        var segments: [SegmentRows] = []
        var currentSegment: DatabaseValue?
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT s.id, s.railway, s.underground, c.id, c.latitude, c.longitude, sc.coordinate
                FROM segment s
                JOIN segmentCoordinate sc ON sc.segment = s.id
                LEFT JOIN coordinate c ON c.id = sc.coordinate
                ORDER BY s.railway, s."order", sc."order"
                """
        )
        while let row = try rows.next() {
            let values: [DatabaseValue] = (0..<7).map { row[$0] }
            if values[0] != currentSegment || segments.isEmpty {
                currentSegment = values[0]
                segments.append(SegmentRows(railway: values[1].text ?? "", isUnderground: (values[2].number ?? 0) != 0))
            }
            guard !values[3].isNull else {
                throw StorageError.invalidValue(
                    path: path, table: "segmentCoordinate", row: "segment \(values[0])", column: "coordinate",
                    problem: "no coordinate with id \(values[6])")
            }
            let coordinate = try trackCoordinate(id: values[3], latitude: values[4], longitude: values[5], path: path)
            segments[segments.count - 1].coordinates.append(coordinate)
        }
        var tracks: [String: Track] = [:]
        var start = 0
        while start < segments.count {
            var end = start
            while end < segments.count, segments[end].railway == segments[start].railway { end += 1 }
            let pieces = segments[start..<end].map { (coordinates: $0.coordinates, isUnderground: $0.isUnderground) }
            if pieces.contains(where: { !$0.coordinates.isEmpty }) {
                tracks[segments[start].railway] = Track(pieces: pieces)
            }
            start = end
        }
        return tracks
    }

    /// A `coordinate` row as a position.
    private static func trackCoordinate(
        id: DatabaseValue, latitude: DatabaseValue, longitude: DatabaseValue, path: String
    ) throws -> Coordinate {
        for (name, value) in [("latitude", latitude), ("longitude", longitude)] where value.number?.isFinite != true {
            throw StorageError.invalidValue(
                path: path, table: "coordinate", row: "\(id)", column: name,
                problem: value.isNull ? "missing" : "not a number (\(value.shown))")
        }
        let coordinate = Coordinate(latitude: latitude.number ?? .nan, longitude: longitude.number ?? .nan)
        guard coordinate.isValid else {
            throw StorageError.invalidValue(
                path: path, table: "coordinate", row: "\(id)", column: "latitude",
                problem: "not a position (\(coordinate.latitude), \(coordinate.longitude))")
        }
        return coordinate
    }

    static func readStations(_ db: Database, path: String) throws -> [Station] {
        var underground = Set<String>()
        if try db.tableExists("stationUnderground") {
            underground = Set(try String.fetchAll(db, sql: "SELECT id FROM stationUnderground"))
        }
        let rows = try Row.fetchAll(
            db, sql: #"SELECT id, railway, title, latitude, longitude FROM station ORDER BY railway, "order""#)
        return try rows.map { row in
            let id: String = (row[0] as DatabaseValue).text ?? "\(row[0] as DatabaseValue)"
            guard let latitude = (row[3] as DatabaseValue).number, let longitude = (row[4] as DatabaseValue).number else {
                throw StorageError.invalidValue(
                    path: path, table: "station", row: id, column: "latitude", problem: "not a number")
            }
            guard Coordinate(latitude: latitude, longitude: longitude).isValid else {
                throw StorageError.invalidValue(
                    path: path, table: "station", row: id, column: "latitude",
                    problem: "not a position (\(latitude), \(longitude))")
            }
            let names = try titles((row[2] as DatabaseValue).text, path: path, table: "station", row: id)
            return Station(
                id: id, railwayID: (row[1] as DatabaseValue).text ?? "", name: names["en"] ?? names.values.first ?? id,
                names: names, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                isUnderground: underground.contains(id)
            )
        }
    }

    static func readRailways(_ db: Database, path: String, tracks: [String: Track]) throws -> [Railway] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, title, stations, color, ascending, descending FROM railway ORDER BY rowid")
        return try rows.map { row in
            let id: String = (row[0] as DatabaseValue).text ?? "\(row[0] as DatabaseValue)"
            let names = try titles((row[1] as DatabaseValue).text, path: path, table: "railway", row: id)
            guard let stationsText = (row[2] as DatabaseValue).text,
                let stationIDs = try? JSONDecoder().decode([String].self, from: Data(stationsText.utf8))
            else {
                throw StorageError.invalidValue(
                    path: path, table: "railway", row: id, column: "stations", problem: "not a JSON array of station ids")
            }
            guard let track = tracks[id] else {
                throw StorageError.invalidNetwork(path: path, problem: .emptyTrack(railway: id))
            }
            return Railway(
                id: id, name: names["en"] ?? names.values.first ?? id, names: names,
                color: (row[3] as DatabaseValue).text ?? "#888888", stationIDs: stationIDs,
                ascendingName: (row[4] as DatabaseValue).text ?? "Ascending",
                descendingName: (row[5] as DatabaseValue).text ?? "Descending", track: track
            )
        }
    }

    /// Reads a title column: a JSON object of names by language, or a plain name.
    private static func titles(_ text: String?, path: String, table: String, row: String) throws -> [String: String] {
        guard let text, !text.isEmpty else { return [:] }
        guard text.hasPrefix("{") else { return ["en": text] }
        guard let names = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else {
            throw StorageError.invalidValue(
                path: path, table: table, row: row, column: "title", problem: "not a JSON object of names")
        }
        return names
    }
}
