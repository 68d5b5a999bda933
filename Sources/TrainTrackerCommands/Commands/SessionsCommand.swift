import ArgumentParser
import TrainTrackerCore
import TrainTrackerStorage

/// `traintracker sessions`: lists the sessions of a session file.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the sessions of an Eki session file: id, start, duration, number of locations."
    )

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String

    func run() throws {
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        let summaries = try CommandFailure.wrapping { () throws(StorageError) in try database.sessions() }
        let output = OutputSink.standardOutput()
        output.line(Self.table(summaries))
        output.flush()
    }

    /// The listing: one row per session, columns aligned.
    static func table(_ summaries: [SessionSummary]) -> String {
        var rows = [["id", "start (UTC)", "duration", "locations"]]
        for summary in summaries {
            rows.append([
                summary.session.id,
                summary.session.startDate.ekiText,
                summary.duration.map(formatDuration) ?? "-",
                "\(summary.locationCount)",
            ])
        }
        return alignedTable(rows) + "\n\(summaries.count) session\(summaries.count == 1 ? "" : "s")"
    }
}

/// `1h 02m 05s`, `12m 40s` or `35s`.
func formatDuration(_ seconds: Seconds) -> String {
    let total = Int(displaying: seconds)
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    if hours > 0 { return "\(hours)h \(two(minutes))m \(two(rest))s" }
    if minutes > 0 { return "\(minutes)m \(two(rest))s" }
    return "\(rest)s"
}

/// Rows of cells joined with two spaces, each column padded to its widest cell.
func alignedTable(_ rows: [[String]]) -> String {
    let widths = rows.reduce(into: [Int]()) { widths, row in
        for (column, cell) in row.enumerated() {
            if column == widths.count { widths.append(0) }
            widths[column] = max(widths[column], cell.count)
        }
    }
    return rows.map { row in
        row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
        }.joined(separator: "  ")
    }.joined(separator: "\n")
}
