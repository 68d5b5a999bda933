import GRDB
import TrainTrackerCore

/// A session as the server's operators see it: what `sessions()` gives, with the device that
/// created it and its last upload by the server's clock.
public struct ListedSession: Hashable, Sendable {
    /// The session and its fix count, duration and fix span.
    public var summary: SessionSummary
    /// The device that created it on the server; nil for a session recorded elsewhere.
    public var device: String?
    /// When its last batch was stored, by the server's clock; nil when never uploaded to.
    public var lastActivity: Timestamp?

    /// A listed session.
    public init(summary: SessionSummary, device: String?, lastActivity: Timestamp?) {
        self.summary = summary
        self.device = device
        self.lastActivity = lastActivity
    }

    /// Whether the session is being recorded now: not ended, with an upload within `idleSeconds`
    /// of `time` (both by the server's clock).
    public func isLive(at time: Timestamp, idleSeconds: Seconds) -> Bool {
        guard summary.session.endDate == nil, let lastActivity else { return false }
        return time.seconds(since: lastActivity) <= idleSeconds
    }
}

extension SessionDatabase {
    /// Every session of the server's store with its device and last activity, newest start first.
    ///
    /// - Complexity: one query; O(s log s) for the s sessions.
    /// - Throws: `StorageError` for an unreadable date or a database error.
    public func listedSessions() throws(StorageError) -> [ListedSession] {
        let summaries = try sessions()
        let owners: [String: (device: String, lastActivity: Timestamp?)]
        do {
            owners = try queue.read { db in
                var owners: [String: (device: String, lastActivity: Timestamp?)] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT sessionID, device, lastActivity FROM serverSessionOwner")
                while let row = try rows.next() {
                    guard let id = (row[0] as DatabaseValue).text, let device = (row[1] as DatabaseValue).text else { continue }
                    owners[id] = (device, (row[2] as DatabaseValue).text.flatMap { Timestamp(parsing: $0) })
                }
                return owners
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
        return summaries.reversed().map { summary in
            let owner = owners[summary.session.id]
            return ListedSession(summary: summary, device: owner?.device, lastActivity: owner?.lastActivity)
        }
    }

    /// Deletes session `id` with its fixes, motion activities and owner, in one transaction.
    /// Waits for the writer without blocking a thread.
    ///
    /// - Returns: whether there was such a session.
    /// - Throws: `StorageError` for a database error; nothing is deleted then.
    public func deleteSession(_ id: String) async throws(StorageError) -> Bool {
        do {
            return try await queue.write { db in
                try db.execute(sql: "DELETE FROM locations WHERE sessionID = ?", arguments: [id])
                if try db.tableExists("motionActivities") {
                    try db.execute(sql: "DELETE FROM motionActivities WHERE sessionID = ?", arguments: [id])
                }
                try db.execute(sql: "DELETE FROM serverSessionOwner WHERE sessionID = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM sessions WHERE id = ?", arguments: [id])
                return db.changesCount > 0
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }
}
