import Foundation
import GRDB
import TrainTrackerCore

/// Who may do what on the live server.
public enum AccessRole: String, Hashable, Sendable, CaseIterable {
    /// A phone: creates sessions and writes to its own, reads nothing.
    case device
    /// An operator: reads every session.
    case admin
}

/// A token's stored record: its hash (never the token), what it may do, and for a device its name.
public struct AccessGrant: Hashable, Sendable {
    /// The role the token carries.
    public var role: AccessRole
    /// The device's name (for an admin, the name given or "admin").
    public var name: String

    /// A grant of `role` to `name`.
    public init(role: AccessRole, name: String) {
        self.role = role
        self.name = name
    }
}

/// What a batch of fixes did to the store.
public struct BatchOutcome: Hashable, Sendable {
    /// Rows written now.
    public var inserted: Int
    /// Rows whose id was already stored (a retried batch): nothing written for them.
    public var duplicates: Int
}

extension SessionDatabase {
    /// The live server's migrations: the Eki session tables when missing (a file recorded on a
    /// phone already has them), then the server's own tables beside them. The Eki tables are
    /// never altered, so the file stays readable by the recorder's tools.
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

    /// Stores a token by its hash.
    ///
    /// - Throws: `StorageError` for a database error.
    public func storeToken(hash: String, grant: AccessGrant, at time: Timestamp) throws(StorageError) {
        do {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO serverAccessToken (hash, role, name, createdAt) VALUES (?, ?, ?, ?)",
                    arguments: [hash, grant.role.rawValue, grant.name, time.ekiText])
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// The grant of the token with this hash, if any.
    ///
    /// - Throws: `StorageError` for a database error.
    public func grant(tokenHash: String) throws(StorageError) -> AccessGrant? {
        do {
            return try queue.read { db in
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT role, name FROM serverAccessToken WHERE hash = ?", arguments: [tokenHash]),
                    let role = AccessRole(rawValue: row[0])
                else { return nil }
                return AccessGrant(role: role, name: row[1])
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Every stored grant, for listing.
    public func grants() throws(StorageError) -> [AccessGrant] {
        do {
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT role, name FROM serverAccessToken ORDER BY createdAt, name").compactMap { row in
                    AccessRole(rawValue: row[0]).map { AccessGrant(role: $0, name: row[1]) }
                }
            }
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
    }

    /// Creates session `session` owned by device `device`; a retried creation of the same
    /// session by the same device changes nothing.
    ///
    /// - Throws: `StorageError` for a database error.
    public func createSession(_ session: Session, owner device: String) throws(StorageError) -> SessionCreation {
        do {
            return try queue.write { db in
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM sessions WHERE id = ?", arguments: [session.id]) != nil {
                    let owner = try String.fetchOne(
                        db, sql: "SELECT device FROM serverSessionOwner WHERE sessionID = ?", arguments: [session.id])
                    return owner == device ? .alreadyYours : .taken
                }
                try Self.write(session, db)
                try db.execute(
                    sql: "INSERT INTO serverSessionOwner (sessionID, device) VALUES (?, ?)", arguments: [session.id, device])
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

    /// Marks session `id` as ended at `time`.
    public func endSession(_ id: String, at time: Timestamp) throws(StorageError) {
        do {
            try queue.write { db in
                try db.execute(sql: "UPDATE sessions SET endDate = ? WHERE id = ?", arguments: [time.ekiText, id])
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

    /// Writes several sessions' batches in one transaction (a group commit): all or none.
    ///
    /// - Returns: what each batch did, in order.
    /// - Throws: `StorageError` for a database error; nothing is written then.
    public func appending(_ batches: [FixBatch]) async throws(StorageError) -> [BatchOutcome] {
        do {
            return try await queue.write { db in
                try batches.map { try Self.append(fixes: $0.fixes, toSession: $0.sessionID, db) }
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Appends motion activities in one transaction, leaving stored ids alone (a retried
    /// batch stores nothing twice), without blocking a thread while the writer is busy.
    ///
    /// - Throws: `StorageError` for a database error; nothing of the batch is written then.
    public func appending(motionActivities: [MotionActivity]) async throws(StorageError) -> BatchOutcome {
        do {
            return try await queue.write { db in try Self.append(motionActivities: motionActivities, db) }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Appends fixes to session `sessionID`; a fix whose id is stored already is left alone,
    /// so a retried batch stores nothing twice.
    private static func append(fixes: [RecordedFix], toSession sessionID: String, _ db: Database) throws -> BatchOutcome {
        let inserted = try write(fixes: fixes, sessionID: sessionID, .ignore, db)
        return BatchOutcome(inserted: inserted, duplicates: fixes.count - inserted)
    }

    private static func append(motionActivities: [MotionActivity], _ db: Database) throws -> BatchOutcome {
        let inserted = try write(motionActivities: motionActivities, .ignore, db)
        return BatchOutcome(inserted: inserted, duplicates: motionActivities.count - inserted)
    }
}
