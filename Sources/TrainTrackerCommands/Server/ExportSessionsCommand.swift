import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerStorage

/// `traintracker export-sessions`: the server's sessions (from PostgreSQL or an SQLite store)
/// as an Eki session file that every other tool reads.
struct ExportSessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-sessions",
        abstract: "Write the live server's sessions as an Eki session SQLite file (for replay, evaluate and the viewer files).",
        discussion: """
            Reads the sessions of a server's store (--db: a postgres:// address or the server's SQLite file), \
            with their fixes (checked as every reader checks them) and motion activities, and writes them \
            into a new file in the Eki session schema, complete or not at all.
            """
    )

    @Option(help: ArgumentHelp("The server's session store: a postgres:// address or an SQLite file.", valueName: "path-or-url"))
    var db: String

    @Option(help: ArgumentHelp("The session file to write.", valueName: "path"))
    var out: String

    @Option(help: ArgumentHelp("Only sessions that started on or after this day (YYYY-MM-DD, UTC).", valueName: "date"))
    var since: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    func validate() throws {
        if let since, since.utf8.count != 10 || Timestamp(parsing: since + "T00:00:00Z") == nil {
            throw ValidationError("--since must be a date YYYY-MM-DD, got '\(since)'")
        }
    }

    func run() async throws {
        // Refused before the store is read: an output that exists (without --force), or a folder.
        do throws(StorageError) {
            _ = try StagedFile(destination: out, replacing: force)
        } catch .fileExists(let path) {
            throw CommandFailure("\(path): file exists; not overwriting it (use --force)")
        } catch {
            throw CommandFailure(error)
        }
        let store = try await SessionStores.open(db, mustExist: true)
        let from = since.flatMap { Timestamp(parsing: $0 + "T00:00:00Z") }
        let exported = try await SessionStores.with(store) { store throws(StorageError) in
            var sessions: [(session: Session, fixes: [RecordedFix])] = []
            var activities: [MotionActivity] = []
            let listed = try await store.listedSessions().filter { item in
                guard let from else { return true }
                return item.summary.session.startDate >= from
            }
            var progress = ProgressBar(label: "exporting", total: listed.count)
            defer { progress.finish() }
            for (index, item) in listed.reversed().enumerated() {
                let id = item.summary.session.id
                sessions.append((item.summary.session, try await store.fixes(sessionID: id).fixes))
                activities += try await store.motionActivities(sessionID: id)
                progress.update(index + 1)
            }
            try SessionDatabase.create(path: out, replacing: force, sessions: sessions, motionActivities: activities)
            return (sessions.count, sessions.reduce(0) { $0 + $1.fixes.count }, activities.count)
        }
        StandardError.line("exported \(exported.0) sessions, \(exported.1) fixes, \(exported.2) motion activities to \(out)")
    }
}
