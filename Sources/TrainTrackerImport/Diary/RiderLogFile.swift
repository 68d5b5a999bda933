import Foundation
import TrainTrackerCore
import TrainTrackerStorage

/// Reads a rider's log of a ride: the GroundTruthLogger app's SQLite file, or a CSV with a
/// header `time,event,station,railway,direction` (and optionally `notes`) kept in any notes app.
public enum RiderLogFile {
    /// Accepted names of each CSV column, normalised (lower case, letters and digits only).
    static let aliases: [(field: String, names: [String])] = [
        ("time", ["time", "timestamp", "datetime", "date", "when"]),
        ("event", ["event", "kind", "category", "type", "what"]),
        ("station", ["station", "stop", "place", "where"]),
        ("railway", ["railway", "line", "route"]),
        ("direction", ["direction", "towards", "toward", "bound", "for", "heading"]),
        ("notes", ["notes", "note", "comment", "comments"]),
    ]

    /// The events of the log at `path`, in time order: a GroundTruthLogger file when it is
    /// SQLite, else CSV. Times without a zone are local, `utcOffset` seconds ahead of UTC.
    ///
    /// - Throws: `ImportError` naming the file and, for a bad row, its line (CSV) or id
    ///   (SQLite) and field: a missing file or column or table, a time that is not one, an
    ///   event kind or category the log does not know, a file cut short, a log without rows.
    public static func read(path: String, utcOffset: Seconds) throws(ImportError) -> [RiderLogEvent] {
        let data = try InputFile.read(path)
        let events: [RiderLogEvent]
        if data.starts(with: Array("SQLite format 3\u{0}".utf8)) {
            do {
                events = try GroundTruthLog.read(path: path, utcOffset: utcOffset)
            } catch {
                let text = error.description
                throw ImportError(
                    file: path, problem: text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text)
            }
        } else {
            events = try csv(data: data, path: path, utcOffset: utcOffset)
        }
        guard !events.isEmpty else { throw ImportError(file: path, problem: "no events") }
        return events
    }

    /// The events of a CSV log, in time order (rows of the same time in file order).
    ///
    /// - Throws: `ImportError` naming the file, line and field.
    static func csv(data: Data, path: String, utcOffset: Seconds) throws(ImportError) -> [RiderLogEvent] {
        let table = try CSVTable(data: data, path: path)
        let normalised = table.header.map(CSVJourneyReader.normalise)
        var columns: [String: Int] = [:]
        for (field, names) in aliases {
            if let index = names.lazy.compactMap({ normalised.firstIndex(of: $0) }).first { columns[field] = index }
        }
        func required(_ field: String) throws(ImportError) -> Int {
            guard let index = columns[field] else {
                let names = aliases.first { $0.field == field }?.names.joined(separator: ", ") ?? field
                throw ImportError(
                    file: path, field: field, problem: "missing column (looked for \(names); the header is \(RiderLogCSV.header))"
                )
            }
            return index
        }
        let timeColumn = try required("time")
        let eventColumn = try required("event")
        var events: [RiderLogEvent] = []
        for row in table.rows.indices {
            let timeText = try table.requiredText(row, timeColumn)
            guard let time = JourneyFile.timestamp(timeText, utcOffset: utcOffset) else {
                throw ImportError(
                    file: path, location: table.line(row), field: table.header[timeColumn],
                    problem:
                        "not a time '\(timeText)' (ISO 8601 such as 2025-09-22T08:01:05+09:00, or 2025-09-22 08:01:05 local time)"
                )
            }
            let kindText = try table.requiredText(row, eventColumn)
            guard let kind = RiderLogEvent.Kind(logName: kindText) else {
                throw ImportError(
                    file: path, location: table.line(row), field: table.header[eventColumn],
                    problem: "unknown event '\(kindText)' (departure, arrival, walking, automotive or significantLocation)")
            }
            events.append(
                RiderLogEvent(
                    time: time, kind: kind, station: table.text(row, columns["station"]),
                    railway: table.text(row, columns["railway"]), direction: table.text(row, columns["direction"]),
                    notes: table.text(row, columns["notes"]), source: table.line(row)))
        }
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
