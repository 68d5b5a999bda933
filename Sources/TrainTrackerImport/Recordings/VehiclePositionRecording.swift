import Foundation
import GRDB
import TrainTrackerCore

/// A recording of vehicle positions as read: the positions, in the file's order, and the rows
/// skipped, counted by reason.
public struct VehiclePositionRecording: Sendable {
    /// The positions read.
    public var positions: [VehiclePosition]
    /// Rows that were not positions (a missing trip, a latitude out of range, a time that
    /// names no moment...), by reason.
    public var skipped: [String: Int]

    /// Reads a recording of vehicle positions: an SQLite file with a table `train_locations`
    /// (`trip_id`, `vehicle_lat`, `vehicle_lon`, `timestamp`), as the caltrain-tracker project
    /// archives a GTFS-realtime feed, or a CSV with a header `trip_id, latitude, longitude,
    /// timestamp[, zone]` (`lat`/`lon` also accepted).
    ///
    /// A time is ISO 8601 with `Z` or an offset, seconds since 1970, or a local time without an
    /// offset: read on the row's `zone` (an IANA name) or else on `zone`, the feed's clock.
    ///
    /// - Throws: `ImportError` naming the file: missing, not SQLite nor CSV, without the
    ///   table or a required column. A malformed row is skipped and counted, never an error.
    /// - Complexity: O(n) in the rows.
    public static func read(path: String, zone: TimeZoneRules) throws(ImportError) -> VehiclePositionRecording {
        let data = try InputFile.read(path)
        var recording = VehiclePositionRecording(positions: [], skipped: [:])
        var reader = RowReader(zone: zone)
        if data.starts(with: Array("SQLite format 3\0".utf8)) {
            try readSQLite(path: path) { reader.add($0, to: &recording) }
        } else {
            let table = try CSVTable(data: data, path: path)
            let trip = try table.requiredColumn("trip_id")
            let latitude = try table.requiredColumn(anyOf: ["latitude", "lat", "vehicle_lat"])
            let longitude = try table.requiredColumn(anyOf: ["longitude", "lon", "lng", "vehicle_lon"])
            let time = try table.requiredColumn(anyOf: ["timestamp", "time"])
            let zoneColumn = table.column("zone")
            for row in table.rows.indices {
                reader.add(
                    RawRow(
                        tripID: table.text(row, trip), latitude: table.text(row, latitude), longitude: table.text(row, longitude),
                        time: table.text(row, time), zone: table.text(row, zoneColumn)), to: &recording)
            }
        }
        return recording
    }

    /// The rows of `train_locations`, in id order.
    private static func readSQLite(path: String, _ body: (RawRow) -> Void) throws(ImportError) {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in
                guard try db.tableExists("train_locations") else {
                    throw ImportError(
                        file: path, problem: "no table train_locations (trip_id, vehicle_lat, vehicle_lon, timestamp)")
                }
                let columns = Set(try db.columns(in: "train_locations").map(\.name))
                for column in ["trip_id", "vehicle_lat", "vehicle_lon", "timestamp"] where !columns.contains(column) {
                    throw ImportError(file: path, location: "table train_locations", field: column, problem: "missing column")
                }
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT trip_id, vehicle_lat, vehicle_lon, timestamp FROM train_locations ORDER BY rowid")
                while let row = try rows.next() {
                    // Any storage class: a text where a number belongs is a row to skip, not an error.
                    let text = { (index: Int) -> String? in
                        let value: DatabaseValue = row[index]
                        switch value.storage {
                        case .string(let string): return string
                        case .int64(let number): return String(number)
                        case .double(let number): return String(number)
                        default: return nil
                        }
                    }
                    body(RawRow(tripID: text(0), latitude: text(1), longitude: text(2), time: text(3), zone: nil))
                }
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError(file: path, problem: "not a readable SQLite file (\(error))")
        }
    }
}

/// One row as the file holds it.
private struct RawRow {
    var tripID: String?
    var latitude: String?
    var longitude: String?
    var time: String?
    var zone: String?
}

/// Turns raw rows into positions, counting the rows it skips; compiles each zone a row names once.
private struct RowReader {
    let zone: TimeZoneRules
    var zones: [String: TimeZoneRules?] = [:]

    init(zone: TimeZoneRules) { self.zone = zone }

    mutating func add(_ row: RawRow, to recording: inout VehiclePositionRecording) {
        func skip(_ reason: String) { recording.skipped[reason, default: 0] += 1 }
        guard let trip = row.tripID?.trimmingCharacters(in: .whitespaces), !trip.isEmpty, trip.count <= 200 else {
            return skip("no trip_id")
        }
        guard let latitude = row.latitude.flatMap(Double.init)?.within(DomainRange.latitude) else {
            return skip("latitude not a number from -90 to 90")
        }
        guard let longitude = row.longitude.flatMap(Double.init)?.within(DomainRange.longitude) else {
            return skip("longitude not a number from -180 to 180")
        }
        guard latitude != 0 || longitude != 0 else { return skip("position 0, 0 (no fix)") }
        guard let text = row.time?.trimmingCharacters(in: .whitespaces), let time = moment(text, zone: row.zone) else {
            return skip("time not ISO 8601 nor seconds since 1970")
        }
        recording.positions.append(
            VehiclePosition(tripID: trip, coordinate: Coordinate(latitude: latitude, longitude: longitude), time: time))
    }

    /// The moment `text` names: with its own offset, as seconds since 1970, or on the clock of
    /// `zoneName` (else the feed's zone).
    private mutating func moment(_ text: String, zone zoneName: String?) -> Timestamp? {
        if let seconds = Double(text) {
            guard let valid = seconds.within(DomainRange.secondsSince1970) else { return nil }
            return Timestamp(secondsSince1970: valid)
        }
        // Read as if UTC: the zone's offset, when it has none, comes next.
        guard let parsed = Timestamp(parsing: text) else { return nil }
        if Timestamp.hasZone(text) { return parsed }
        var rules = zone
        if let name = zoneName?.trimmingCharacters(in: .whitespaces), !name.isEmpty {
            if zones[name] == nil {
                let day = CivilDay(parsed, utcOffset: 0)
                zones[name] = TimeZoneCompiler.rules(for: name, from: day, through: day)
            }
            guard let named = zones[name] ?? nil else { return nil }
            rules = named
        }
        let moment = rules.moment(ofLocal: parsed.secondsSince1970)
        return moment.isInDomainRange ? moment : nil
    }
}

extension CSVTable {
    /// The first of `names` the header has.
    ///
    /// - Throws: `ImportError` naming the first name when none is there.
    func requiredColumn(anyOf names: [String]) throws(ImportError) -> Int {
        for name in names { if let index = column(name) { return index } }
        throw ImportError(file: path, field: names[0], problem: "missing column")
    }
}
