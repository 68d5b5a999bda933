import Foundation
import GRDB
import TrainTrackerCore

/// What a batch of fixes did to the store.
public struct BatchOutcome: Hashable, Sendable {
    /// Rows written now.
    public var inserted: Int
    /// Rows whose id was already stored (a retried batch): nothing written for them.
    public var duplicates: Int
    /// The positions in the batch of the rows written now.
    public var insertedPositions: [Int] = []
    /// The session was not there when the batch was written (deleted meanwhile): nothing
    /// was written.
    public var sessionMissing = false
    /// How many fixes the session holds after the batch, where the store keeps count (a
    /// store several instances share): an instance whose tracker has seen fewer knows that
    /// another instance stored some, and rebuilds it.
    public var storedFixes: Int?

    /// An outcome: `inserted` rows written (at `insertedPositions`), `duplicates` left alone.
    public init(
        inserted: Int, duplicates: Int, insertedPositions: [Int] = [], sessionMissing: Bool = false, storedFixes: Int? = nil
    ) {
        self.inserted = inserted
        self.duplicates = duplicates
        self.insertedPositions = insertedPositions
        self.sessionMissing = sessionMissing
        self.storedFixes = storedFixes
    }
}

extension SessionDatabase {
    /// The live server's migrations: the Eki session tables when missing (a file recorded on a
    /// phone already has them), then the server's own tables beside them. The Eki tables are
    /// never altered (the server stores a fix's id as `SESSION/FIX`, text as any id), so the file
    /// stays readable by the recorder's tools.
    static var serverMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("server v1: Eki session tables if missing") { db in
            guard try !db.tableExists("sessions") else {
                if try !db.tableExists("motionActivities") {
                    try db.execute(
                        sql: """
                            CREATE TABLE motionActivities (id TEXT PRIMARY KEY NOT NULL, startDate TEXT NOT NULL,
                              confidence TEXT NOT NULL, stationary INTEGER NOT NULL, walking INTEGER NOT NULL,
                              running INTEGER NOT NULL, automotive INTEGER NOT NULL, cycling INTEGER NOT NULL,
                              unknown INTEGER NOT NULL, sessionID TEXT,
                              FOREIGN KEY(sessionID) REFERENCES sessions(id) ON DELETE CASCADE) STRICT
                            """)
                }
                return
            }
            try db.execute(sql: ekiTables)
        }
        migrator.registerMigration("server v2: access tokens and session owners") { db in
            try db.execute(
                sql: """
                    CREATE TABLE serverAccessToken (hash TEXT PRIMARY KEY NOT NULL, role TEXT NOT NULL, name TEXT NOT NULL,
                      createdAt TEXT NOT NULL) STRICT;
                    CREATE TABLE serverSessionOwner (sessionID TEXT PRIMARY KEY NOT NULL, device TEXT NOT NULL) STRICT;
                    """)
        }
        migrator.registerMigration("server v3: token expiry and revocation, session activity, fix ids per session") { db in
            try db.execute(
                sql: """
                    ALTER TABLE serverAccessToken ADD COLUMN expiresAt TEXT;
                    ALTER TABLE serverAccessToken ADD COLUMN revokedAt TEXT;
                    ALTER TABLE serverSessionOwner ADD COLUMN lastActivity TEXT;
                    CREATE INDEX serverSessionOwner_on_device ON serverSessionOwner(device);
                    UPDATE OR IGNORE locations SET id = sessionID || '/' || id
                      WHERE sessionID IN (SELECT sessionID FROM serverSessionOwner)
                        AND substr(id, 1, length(sessionID) + 1) != sessionID || '/';
                    UPDATE OR IGNORE motionActivities SET id = sessionID || '/' || id
                      WHERE sessionID IN (SELECT sessionID FROM serverSessionOwner)
                        AND substr(id, 1, length(sessionID) + 1) != sessionID || '/';
                    """)
        }
        migrator.registerMigration("server v4: when each session was created") { db in
            try db.execute(
                sql: """
                    ALTER TABLE serverSessionOwner ADD COLUMN createdAt TEXT;
                    CREATE INDEX serverSessionOwner_on_device_createdAt ON serverSessionOwner(device, createdAt);
                    """)
        }
        migrator.registerMigration("server v5: motion activities by session, for deleting a session") { db in
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS motionActivities_on_sessionID ON motionActivities(sessionID)")
        }
        return migrator
    }

    /// Opens (creating when missing) the live server's session file: WAL mode, so readers never
    /// wait for the writer and a committed batch survives the process being killed.
    ///
    /// - Throws: `StorageError` when the file is not SQLite or holds a table of the Eki schema
    ///   without its columns.
    public static func openStore(path: String) throws(StorageError) -> SessionDatabase {
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false  // recorder files may hold fixes of deleted sessions
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let pool = try DatabasePool(path: path, configuration: configuration)
            try serverMigrator.migrate(pool)
            try pool.read { db in try DatabaseFile.check(db, path: path, schema: schema, optionalTables: []) }
            return SessionDatabase(path: path, queue: pool)
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// What creating a session did.
    public enum SessionCreation: Hashable, Sendable {
        /// The session is new.
        case created
        /// The device had created it already (a retried request): nothing changed.
        case alreadyYours
        /// Another device's session, or one recorded elsewhere, has that id.
        case taken
        /// The device has this many open sessions already, the most it may have.
        case tooManyOpen(Int)
        /// The device created this many sessions in the last 24 hours, the most it may.
        case tooManyToday(Int)
    }

    /// How many sessions a device may have open, and how long one stays open without an upload.
    public struct OpenSessionLimit: Hashable, Sendable {
        /// The most sessions a device may have open at once.
        public var maximum: Int
        /// A session not ended whose last upload is older than this counts as abandoned, not open.
        public var idleSeconds: Seconds
        /// The most sessions a device may create in 24 hours, ended or not.
        public var perDay: Int

        /// The limit: `maximum` open sessions, idle after `idleSeconds`, `perDay` a day.
        public init(maximum: Int, idleSeconds: Seconds, perDay: Int) {
            self.maximum = maximum
            self.idleSeconds = idleSeconds
            self.perDay = perDay
        }
    }

    /// Creates session `session` owned by device `device`, at `time` by the server's clock; a
    /// retried creation of the same session by the same device changes nothing. A device that
    /// has `limit.maximum` sessions open (not ended, an upload within `limit.idleSeconds`)
    /// gets `.tooManyOpen`, one that created `limit.perDay` in the last 24 hours `.tooManyToday`.
    /// Waits for the writer without blocking a thread.
    ///
    /// - Throws: `StorageError` for a database error.
    public func createSession(_ session: Session, owner device: String, at time: Timestamp, limit: OpenSessionLimit)
        async throws(StorageError) -> SessionCreation
    {
        do {
            return try await queue.write { db in
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM sessions WHERE id = ?", arguments: [session.id]) != nil {
                    let owner = try String.fetchOne(
                        db, sql: "SELECT device FROM serverSessionOwner WHERE sessionID = ?", arguments: [session.id])
                    return owner == device ? .alreadyYours : .taken
                }
                let open =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM serverSessionOwner o JOIN sessions s ON s.id = o.sessionID
                            WHERE o.device = ? AND s.endDate IS NULL AND o.lastActivity >= ?
                            """,
                        arguments: [device, time.adding(-limit.idleSeconds).ekiText]) ?? 0
                guard open < limit.maximum else { return .tooManyOpen(open) }
                let today =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM serverSessionOwner WHERE device = ? AND createdAt >= ?",
                        arguments: [device, time.adding(-86_400).ekiText]) ?? 0
                guard today < limit.perDay else { return .tooManyToday(today) }
                try Self.write(session, db)
                try db.execute(
                    sql: "INSERT INTO serverSessionOwner (sessionID, device, lastActivity, createdAt) VALUES (?, ?, ?, ?)",
                    arguments: [session.id, device, time.ekiText, time.ekiText])
                return .created
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// The device that created session `id` on the server; nil for an unknown session or one
    /// recorded elsewhere (see `sessionExists`).
    public func owner(ofSession id: String) throws(StorageError) -> String? {
        do {
            return try queue.read { db in
                try String.fetchOne(db, sql: "SELECT device FROM serverSessionOwner WHERE sessionID = ?", arguments: [id])
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Whether session `id` is stored.
    public func sessionExists(_ id: String) throws(StorageError) -> Bool {
        do {
            return try queue.read { db in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM sessions WHERE id = ?", arguments: [id]) != nil
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Whether session `id` has an end date.
    public func hasEnded(_ id: String) throws(StorageError) -> Bool {
        do {
            return try queue.read { db in
                try Bool.fetchOne(db, sql: "SELECT endDate IS NOT NULL FROM sessions WHERE id = ?", arguments: [id]) ?? false
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Marks session `id` as ended at its last fix (its start when it has none): the phone's
    /// clock, as every other time of the session, never the server's. Waits for the writer
    /// without blocking a thread.
    public func endSession(_ id: String) async throws(StorageError) {
        do {
            try await queue.write { db in
                try db.execute(
                    sql: """
                        UPDATE sessions SET endDate = COALESCE(
                          (SELECT MAX(timestamp) FROM locations WHERE sessionID = sessions.id), startDate)
                        WHERE id = ?
                        """, arguments: [id])
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Fixes for one session, one of several written in one transaction.
    public struct FixBatch: Sendable {
        /// The session.
        public var sessionID: String
        /// Its fixes.
        public var fixes: [RecordedFix]

        /// A batch of `fixes` for session `sessionID`.
        public init(sessionID: String, fixes: [RecordedFix]) {
            self.sessionID = sessionID
            self.fixes = fixes
        }
    }

    /// Writes several sessions' batches in one transaction (a group commit): all or none. Each
    /// fix is stored under its session (`locations.id` is `SESSION/FIX`), so the same fix id
    /// in two sessions is two fixes, and a retried batch stores nothing twice. `time`, by the
    /// server's clock, is each session's last activity; a session whose start is later than
    /// a batch's first fix starts at that fix.
    ///
    /// - Returns: what each batch did, in order.
    /// - Throws: `StorageError` for a database error; nothing is written then.
    public func appending(_ batches: [FixBatch], at time: Timestamp) async throws(StorageError) -> [BatchOutcome] {
        do {
            return try await queue.write { db in
                try batches.map { batch in
                    // A session deleted after its upload was let in takes nothing.
                    guard try Self.sessionExists(batch.sessionID, db) else {
                        return BatchOutcome(inserted: 0, duplicates: 0, sessionMissing: true)
                    }
                    try db.execute(
                        sql: "UPDATE serverSessionOwner SET lastActivity = ? WHERE sessionID = ?",
                        arguments: [time.ekiText, batch.sessionID])
                    // A session starts at its first fix, by the phone's clock: an upload of an
                    // old ride does not start today.
                    if let first = batch.fixes.map(\.location.timestamp).min()?.ekiText {
                        try db.execute(
                            sql: "UPDATE sessions SET startDate = ? WHERE id = ? AND startDate > ?",
                            arguments: [first, batch.sessionID, first])
                    }
                    return try Self.append(fixes: batch.fixes, toSession: batch.sessionID, db)
                }
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Appends motion activities in one transaction, each stored under its session as fixes
    /// are, leaving stored ids alone (a retried batch stores nothing twice), without blocking
    /// a thread while the writer is busy. Activities of a session that is not there (deleted
    /// meanwhile) are not written, and the outcome says `sessionMissing`.
    ///
    /// - Throws: `StorageError` for a database error; nothing of the batch is written then.
    public func appending(motionActivities: [MotionActivity]) async throws(StorageError) -> BatchOutcome {
        do {
            return try await queue.write { db in
                let sessions = Set(motionActivities.compactMap(\.sessionID))
                for id in sessions where try !Self.sessionExists(id, db) {
                    return BatchOutcome(inserted: 0, duplicates: 0, sessionMissing: true)
                }
                return try Self.append(motionActivities: motionActivities, db)
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    private static func sessionExists(_ id: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM sessions WHERE id = ?", arguments: [id]) != nil
    }

    /// Appends fixes to session `sessionID`; a fix whose id is stored already is left alone,
    /// so a retried batch stores nothing twice.
    private static func append(fixes: [RecordedFix], toSession sessionID: String, _ db: Database) throws -> BatchOutcome {
        let inserted = try write(fixes: fixes, sessionID: sessionID, .ignore, scoped: true, db)
        return BatchOutcome(inserted: inserted.count, duplicates: fixes.count - inserted.count, insertedPositions: inserted)
    }

    private static func append(motionActivities: [MotionActivity], _ db: Database) throws -> BatchOutcome {
        let inserted = try write(motionActivities: motionActivities, .ignore, scoped: true, db)
        return BatchOutcome(inserted: inserted, duplicates: motionActivities.count - inserted)
    }
}
