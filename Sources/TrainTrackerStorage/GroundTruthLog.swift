import Foundation
import GRDB
import TrainTrackerCore

/// The SQLite log of the GroundTruthLogger app, in which the Eki Live author noted his
/// rides: `events (id TEXT, timestamp TEXT, category TEXT, notes TEXT)`, the timestamp a local
/// time `yyyy-MM-dd HH:mm:ss.SSS`, the category `trainDeparture`, `trainArrival`,
/// `walkingMotionActivity`, `automotiveMotionActivity` or `significantLocation`, and the
/// notes naming the station or line.
public enum GroundTruthLog {
    static let schema: [String: [String]] = ["events": ["id", "timestamp", "category", "notes"]]

    /// The table as the app creates it.
    static let table =
        "CREATE TABLE events (id TEXT PRIMARY KEY NOT NULL, timestamp TEXT NOT NULL, category TEXT NOT NULL, notes TEXT)"

    /// The most events a log may hold: a rider logs a few hundred a week.
    public static let maximumEvents = 1_000_000

    /// The events of the log at `path`, in time order; times without a zone are local,
    /// `utcOffset` seconds ahead of UTC. Each event's `source` is `row '<id>'`.
    ///
    /// - Throws: `StorageError` naming the file: missing, not SQLite, no `events` table or one
    ///   of its columns, more than `maximumEvents` rows, or naming the row and column of a
    ///   time that is not one or a category the app does not write.
    public static func read(path: String, utcOffset: Seconds) throws(StorageError) -> [RiderLogEvent] {
        let queue = try DatabaseFile.openReadOnly(path: path, schema: schema)
        do {
            return try queue.read { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0
                guard count <= maximumEvents else {
                    throw StorageError.database(path: path, message: "more than \(maximumEvents) events; not read")
                }
                let rows = try Row.fetchCursor(db, sql: "SELECT id, timestamp, category, notes, rowid FROM events ORDER BY rowid")
                var events: [RiderLogEvent] = []
                while let row = try rows.next() {
                    let values: [DatabaseValue] = (0..<5).map { row[$0] }
                    let id = values[0].text ?? (values[0].isNull ? "rowid \(values[4])" : "\(values[0])")
                    func invalid(_ column: String, _ problem: String) -> StorageError {
                        .invalidValue(path: path, table: "events", row: id, column: column, problem: problem)
                    }
                    guard let text = values[1].text else { throw invalid("timestamp", "not a time: \(values[1].shown)") }
                    guard let time = Timestamp(parsing: text.trimmingCharacters(in: .whitespaces), utcOffset: utcOffset) else {
                        throw invalid("timestamp", "not a time '\(text)' (yyyy-MM-dd HH:mm:ss.SSS)")
                    }
                    guard let category = values[2].text, let kind = RiderLogEvent.Kind(logName: category) else {
                        throw invalid(
                            "category",
                            "unknown category \(values[2].shown) (trainDeparture, trainArrival, walkingMotionActivity, "
                                + "automotiveMotionActivity or significantLocation)")
                    }
                    let notes = values[3].text?.trimmingCharacters(in: .whitespacesAndNewlines)
                    events.append(
                        RiderLogEvent(time: time, kind: kind, notes: notes?.isEmpty == false ? notes : nil, source: "row '\(id)'")
                    )
                }
                return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Writes `events` as a new GroundTruthLogger file at `path`, times as local text
    /// `utcOffset` seconds ahead of UTC and notes as `station, railway, direction` (for tests
    /// and for turning a CSV log into the app's form).
    ///
    /// - Throws: `StorageError.fileExists` rather than overwrite a file, or a database error.
    public static func write(_ events: [RiderLogEvent], utcOffset: Seconds, to path: String) throws(StorageError) {
        try StagedFile.write(to: path, replacing: false) { temporary in
            do {
                let queue = try DatabaseQueue(path: temporary)
                try queue.write { db in
                    try db.execute(sql: table)
                    for (index, event) in events.enumerated() {
                        let category =
                            switch event.kind {
                            case .departure: "trainDeparture"
                            case .arrival: "trainArrival"
                            case .walking: "walkingMotionActivity"
                            case .automotive: "automotiveMotionActivity"
                            case .significantLocation: "significantLocation"
                            }
                        let notes =
                            event.notes
                            ?? [event.station, event.railway, event.direction].compactMap { $0 }.joined(separator: ", ")
                        try db.execute(
                            sql: "INSERT INTO events (id, timestamp, category, notes) VALUES (?, ?, ?, ?)",
                            arguments: ["E\(index + 1)", event.time.adding(utcOffset).ekiText, category, notes])
                    }
                }
                try queue.close()
            } catch {
                throw DatabaseFile.storageError(error, path: path)
            }
        }
    }
}
