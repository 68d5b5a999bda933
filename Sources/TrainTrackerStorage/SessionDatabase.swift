import Foundation
import GRDB
import TrainTrackerCore

/// An Eki session file (`sessions`, `locations`, `motionActivities`; see
/// `shared/docs/FORMATS.md`), read leniently and written exactly as the iOS recorder does.
public struct SessionDatabase: Sendable {
    /// The file's path, for messages.
    public let path: String
    let queue: any DatabaseWriter

    static let schema: [String: [String]] = [
        "sessions": ["id", "startDate", "endDate", "notes", "isFromColdLaunch", "isOnTrain"],
        "locations": [
            "id", "latitude", "longitude", "altitude", "timestamp", "horizontalAccuracy", "course", "speed", "sessionID",
        ],
        "motionActivities": [
            "id", "startDate", "confidence", "stationary", "walking", "running", "automotive", "cycling", "unknown", "sessionID",
        ],
    ]

    /// The Eki session tables, as the iOS recorder creates them.
    static let ekiTables = """
        CREATE TABLE sessions (id TEXT PRIMARY KEY NOT NULL, startDate TEXT NOT NULL, endDate TEXT,
          notes TEXT, isFromColdLaunch INTEGER NOT NULL DEFAULT 0, isOnTrain INTEGER NOT NULL DEFAULT 0) STRICT;
        CREATE TABLE locations (id TEXT PRIMARY KEY NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
          altitude REAL, timestamp TEXT NOT NULL, horizontalAccuracy REAL, verticalAccuracy REAL,
          course REAL, speed REAL, sessionID TEXT NOT NULL,
          FOREIGN KEY(sessionID) REFERENCES sessions(id) ON DELETE CASCADE) STRICT;
        CREATE INDEX locations_on_sessionID_timestamp ON locations(sessionID, timestamp);
        CREATE TABLE motionActivities (id TEXT PRIMARY KEY NOT NULL, startDate TEXT NOT NULL,
          confidence TEXT NOT NULL, stationary INTEGER NOT NULL, walking INTEGER NOT NULL,
          running INTEGER NOT NULL, automotive INTEGER NOT NULL, cycling INTEGER NOT NULL, unknown INTEGER NOT NULL,
          sessionID TEXT, FOREIGN KEY(sessionID) REFERENCES sessions(id) ON DELETE CASCADE) STRICT;
        """

    /// The schema's migrations. Named migrations are never edited; new ones are appended.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: Eki session schema") { db in try db.execute(sql: ekiTables) }
        return migrator
    }

    /// Opens an existing session file for reading. `motionActivities` may be missing (older files).
    ///
    /// - Throws: `StorageError` when the file is missing, is not SQLite, or lacks the
    ///   `sessions` or `locations` table or one of their columns.
    public static func open(path: String) throws(StorageError) -> SessionDatabase {
        let queue = try DatabaseFile.openReadOnly(path: path, schema: schema, optionalTables: ["motionActivities"])
        return SessionDatabase(path: path, queue: queue)
    }

    /// Creates a new, empty session file at `path`. The file appears with its whole schema
    /// or not at all (`StagedFile`).
    ///
    /// - Throws: `StorageError.fileExists` rather than overwrite a file, `.isDirectory`, or a
    ///   database error.
    public static func create(path: String) throws(StorageError) -> SessionDatabase {
        try create(path: path, sessions: [])
        do {
            return SessionDatabase(path: path, queue: try DatabaseQueue(path: path))
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Creates a new session file at `path` holding `sessions` with their fixes and
    /// `motionActivities`, all or nothing: written beside `path` and moved into place once
    /// complete (`StagedFile`), so a failure or a crash never leaves a file at `path`.
    ///
    /// - Throws: `StorageError.fileExists` rather than overwrite a file (unless `replacing`),
    ///   `.isDirectory`, or a database error (for example a duplicate id).
    public static func create(
        path: String, replacing: Bool = false, sessions: [(session: Session, fixes: [RecordedFix])],
        motionActivities: [MotionActivity] = []
    ) throws(StorageError) {
        try StagedFile.write(to: path, replacing: replacing) { temporary in
            let queue: DatabaseQueue
            do {
                queue = try DatabaseQueue(path: temporary)
                try migrator.migrate(queue)
            } catch {
                throw DatabaseFile.storageError(error, path: path)
            }
            try SessionDatabase(path: path, queue: queue).insert(sessions, motionActivities: motionActivities)
            do {
                try queue.close()
            } catch {
                throw DatabaseFile.storageError(error, path: path)
            }
        }
    }

    /// Every session with its fix count, in start order.
    ///
    /// - Throws: `StorageError` for an unreadable start date or a database error.
    public func sessions() throws(StorageError) -> [SessionSummary] {
        do {
            return try queue.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT s.id, s.startDate, s.endDate, s.notes, s.isFromColdLaunch, s.isOnTrain,
                               (SELECT COUNT(*) FROM locations l WHERE l.sessionID = s.id),
                               (SELECT MAX(timestamp) FROM locations l WHERE l.sessionID = s.id),
                               (SELECT MIN(timestamp) FROM locations l WHERE l.sessionID = s.id)
                        FROM sessions s
                        """
                )
                return try rows.map { row in
                    let session = try session(from: row)
                    let last = (row[7] as DatabaseValue).text.flatMap { Timestamp(parsing: $0) }
                    let first = (row[8] as DatabaseValue).text.flatMap { Timestamp(parsing: $0) }
                    return SessionSummary(session: session, locationCount: row[6], first: first, last: last)
                }
                .sorted { ($0.session.startDate, $0.session.id) < ($1.session.startDate, $1.session.id) }
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    private func session(from row: Row) throws -> Session {
        let id = (row[0] as DatabaseValue).text ?? "\(row[0] as DatabaseValue)"
        guard let start = (row[1] as DatabaseValue).text.flatMap({ Timestamp(parsing: $0) }) else {
            throw StorageError.invalidValue(path: path, table: "sessions", row: id, column: "startDate", problem: "not a date")
        }
        return Session(
            id: id, startDate: start, endDate: (row[2] as DatabaseValue).text.flatMap { Timestamp(parsing: $0) },
            notes: (row[3] as DatabaseValue).text, isFromColdLaunch: ((row[4] as DatabaseValue).number ?? 0) != 0,
            isOnTrain: ((row[5] as DatabaseValue).number ?? 0) != 0
        )
    }

    /// The fixes of session `sessionID` as stored, unchecked, in storage order.
    ///
    /// - Throws: `StorageError` for a database error.
    public func rawFixes(sessionID: String) throws(StorageError) -> [RawFix] {
        do {
            return try queue.read { db in
                let statement = try db.makeStatement(
                    sql: """
                        SELECT id, latitude, longitude, timestamp, horizontalAccuracy, speed, course, altitude
                        FROM locations WHERE sessionID = ? ORDER BY rowid
                        """)
                statement.arguments = [sessionID]
                let rows = try Row.fetchCursor(statement)
                // Each column straight from the statement's current row: a value of any type
                // (text where a number belongs) is read as it is and judged by the sanitizer.
                let sqlite = statement.sqliteStatement
                func value(_ column: CInt) -> DatabaseValue { DatabaseValue(sqliteStatement: sqlite, index: column) }
                var fixes: [RawFix] = []
                while try rows.next() != nil {
                    let id = value(0)
                    fixes.append(
                        RawFix(
                            id: Self.recordID(id.text ?? "\(id)", sessionID: sessionID),
                            latitude: value(1).number, longitude: value(2).number,
                            timestamp: value(3).text ?? "", horizontalAccuracy: value(4).number,
                            speed: value(5).number, course: value(6).number, altitude: value(7).number
                        )
                    )
                }
                return fixes
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// The checked fixes of session `sessionID` in timestamp order, with what was skipped.
    public func fixes(sessionID: String) throws(StorageError) -> (fixes: [RecordedFix], report: FixSanitizerReport) {
        FixSanitizer.clean(try rawFixes(sessionID: sessionID))
    }

    /// The motion activities of session `sessionID`, in start order; empty for files without the table.
    public func motionActivities(sessionID: String) throws(StorageError) -> [MotionActivity] {
        do {
            return try queue.read { db in
                guard try db.tableExists("motionActivities") else { return [] }
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, startDate, confidence, stationary, walking, running, automotive, cycling, unknown, sessionID
                        FROM motionActivities WHERE sessionID = ? ORDER BY startDate
                        """,
                    arguments: [sessionID]
                )
                return rows.compactMap { row -> MotionActivity? in
                    guard let start = (row[1] as DatabaseValue).text.flatMap({ Timestamp(parsing: $0) }) else { return nil }
                    func flag(_ index: Int) -> Bool { ((row[index] as DatabaseValue).number ?? 0) != 0 }
                    return MotionActivity(
                        id: Self.recordID((row[0] as DatabaseValue).text ?? "", sessionID: sessionID), startDate: start,
                        confidence: (row[2] as DatabaseValue).text.flatMap(MotionConfidence.init(rawValue:)) ?? .low,
                        stationary: flag(3), walking: flag(4), running: flag(5), automotive: flag(6), cycling: flag(7),
                        unknown: flag(8), sessionID: (row[9] as DatabaseValue).text
                    )
                }
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Writes a session with its fixes and motion activities in one transaction.
    ///
    /// - Throws: `StorageError` for a database error (for example a duplicate id); nothing is written then.
    public func insert(_ session: Session, fixes: [RecordedFix], motionActivities: [MotionActivity] = []) throws(StorageError) {
        try insert([(session, fixes)], motionActivities: motionActivities)
    }

    /// Writes several sessions with their fixes in one transaction: all of them or none.
    ///
    /// - Throws: `StorageError` for a database error (for example a duplicate id); nothing is written then.
    public func insert(_ sessions: [(session: Session, fixes: [RecordedFix])], motionActivities: [MotionActivity] = [])
        throws(StorageError)
    {
        do {
            try queue.write { db in
                for (session, fixes) in sessions {
                    try Self.write(session, db)
                    _ = try Self.write(fixes: fixes, sessionID: session.id, .fail, db)
                }
                _ = try Self.write(motionActivities: motionActivities, .fail, db)
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }
}

extension SessionDatabase {
    /// Opens an existing session file for adding sessions.
    ///
    /// - Throws: `StorageError` when the file is missing, is not SQLite or lacks the schema.
    public static func openForWriting(path: String) throws(StorageError) -> SessionDatabase {
        _ = try open(path: path)
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.read { db in try DatabaseFile.check(db, path: path, schema: schema, optionalTables: []) }
            return SessionDatabase(path: path, queue: queue)
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }
}

extension SessionDatabase {
    /// What writing a row whose id is stored already does.
    enum Conflict: String {
        /// The statement fails, and with it the transaction.
        case fail = "INSERT"
        /// The row is left alone (a retried upload).
        case ignore = "INSERT OR IGNORE"
    }

    /// Writes a `sessions` row.
    static func write(_ session: Session, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO sessions (id, startDate, endDate, notes, isFromColdLaunch, isOnTrain) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                session.id, session.startDate.ekiText, session.endDate?.ekiText, session.notes, session.isFromColdLaunch,
                session.isOnTrain,
            ])
    }

    /// The id a row of session `sessionID` is stored under: the record's own, or `SESSION/ID`
    /// when `scoped` (the live server's, where ids come from many devices).
    package static func storedID(_ id: String, sessionID: String?, scoped: Bool) -> String {
        guard scoped, let sessionID else { return id }
        return sessionID + "/" + id
    }

    /// The record's own id of a stored row of session `sessionID`: without the `SESSION/`
    /// prefix the live server stores.
    package static func recordID(_ stored: String, sessionID: String) -> String {
        let prefix = sessionID + "/"
        return stored.hasPrefix(prefix) ? String(stored.dropFirst(prefix.count)) : stored
    }

    /// Writes `locations` rows of session `sessionID` (missing speed and course as -1, as the
    /// recorder does), under `SESSION/ID` when `scoped`; returns the positions in `fixes` of
    /// the rows written (with `.ignore`, a stored id writes nothing).
    static func write(fixes: [RecordedFix], sessionID: String, _ conflict: Conflict, scoped: Bool = false, _ db: Database)
        throws -> [Int]
    {
        // Cached: a group commit writes many sessions' batches in one transaction.
        let statement = try db.cachedStatement(
            sql: """
                \(conflict.rawValue) INTO locations (id, latitude, longitude, altitude, timestamp, horizontalAccuracy, course,
                  speed, sessionID) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        var written: [Int] = []
        for (index, fix) in fixes.enumerated() {
            let location = fix.location
            try statement.execute(arguments: [
                storedID(fix.id, sessionID: sessionID, scoped: scoped), location.coordinate.latitude,
                location.coordinate.longitude, location.altitude,
                location.timestamp.ekiText, location.horizontalAccuracy, location.course ?? -1, location.speed ?? -1, sessionID,
            ])
            if db.changesCount > 0 { written.append(index) }
        }
        return written
    }

    /// Writes `motionActivities` rows, under `SESSION/ID` when `scoped`; returns how many rows
    /// were written.
    static func write(motionActivities: [MotionActivity], _ conflict: Conflict, scoped: Bool = false, _ db: Database)
        throws -> Int
    {
        var written = 0
        for activity in motionActivities {
            try db.execute(
                sql: """
                    \(conflict.rawValue) INTO motionActivities (id, startDate, confidence, stationary, walking, running,
                      automotive, cycling, unknown, sessionID) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    storedID(activity.id, sessionID: activity.sessionID, scoped: scoped), activity.startDate.ekiText,
                    activity.confidence.rawValue, activity.stationary,
                    activity.walking, activity.running, activity.automotive, activity.cycling, activity.unknown,
                    activity.sessionID,
                ])
            written += db.changesCount
        }
        return written
    }
}
