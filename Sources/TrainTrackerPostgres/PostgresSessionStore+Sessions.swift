import PostgresNIO
import TrainTrackerCore
import TrainTrackerStorage

extension PostgresSessionStore {
    public func createSession(
        _ session: Session, owner device: String, at time: Timestamp, limit: SessionDatabase.OpenSessionLimit
    ) async throws(StorageError) -> SessionDatabase.SessionCreation {
        let (now, idle, day) = (time.ekiText, time.adding(-limit.idleSeconds).ekiText, time.adding(-86_400).ekiText)
        return try await transaction { connection in
            // One device's creations one at a time, so its limits hold across instances.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(device)))", logger: logger)
            for try await owner in try await connection.query(
                "SELECT o.device FROM sessions s LEFT JOIN session_owners o ON o.session_id = s.id WHERE s.id = \(session.id)",
                logger: logger
            ).decode(String?.self) {
                return owner == device ? .alreadyYours : .taken
            }
            let open = try await Self.count(
                """
                SELECT COUNT(*) FROM session_owners o JOIN sessions s ON s.id = o.session_id
                WHERE o.device = \(device) AND s.end_date IS NULL AND o.last_activity >= \(idle)
                """, on: connection, logger: logger)
            guard open < limit.maximum else { return .tooManyOpen(open) }
            let today = try await Self.count(
                "SELECT COUNT(*) FROM session_owners WHERE device = \(device) AND created_at >= \(day)", on: connection,
                logger: logger)
            guard today < limit.perDay else { return .tooManyToday(today) }
            try await connection.query(
                """
                INSERT INTO sessions (id, start_date, end_date, notes, is_from_cold_launch, is_on_train)
                VALUES (\(session.id), \(session.startDate.ekiText), \(session.endDate?.ekiText), \(session.notes),
                  \(session.isFromColdLaunch), \(session.isOnTrain))
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO session_owners (session_id, device, created_at, last_activity)
                VALUES (\(session.id), \(device), \(now), \(now))
                """, logger: logger)
            return .created
        }
    }

    static func count(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        for try await count in try await connection.query(query, logger: logger).decode(Int64.self) {
            return Int(clamping: count)
        }
        return 0
    }

    public func owner(ofSession id: String) async throws(StorageError) -> String? {
        try await rows("SELECT device FROM session_owners WHERE session_id = \(id)", as: String.self).first
    }

    public func sessionExists(_ id: String) async throws(StorageError) -> Bool {
        try await !rows("SELECT 1 FROM sessions WHERE id = \(id)", as: Int32.self).isEmpty
    }

    public func progress(ofSessions ids: [String]) async throws(StorageError) -> [String: SessionProgress]? {
        guard !ids.isEmpty else { return [:] }
        let found = try await rows(
            """
            SELECT o.session_id, o.fix_count, s.end_date IS NOT NULL FROM session_owners o JOIN sessions s ON s.id = o.session_id
            WHERE o.session_id = ANY(\(ids)::text[])
            """, as: (String, Int64, Bool).self)
        return Dictionary(
            found.map { ($0.0, SessionProgress(storedFixes: Int(clamping: $0.1), ended: $0.2)) },
            uniquingKeysWith: { first, _ in first })
    }

    public func hasEnded(_ id: String) async throws(StorageError) -> Bool {
        try await rows("SELECT end_date IS NOT NULL FROM sessions WHERE id = \(id)", as: Bool.self).first ?? false
    }

    public func endSession(_ id: String) async throws(StorageError) {
        try await execute(
            """
            UPDATE sessions SET end_date = COALESCE((SELECT MAX(timestamp) FROM locations WHERE session_id = \(id)), start_date)
            WHERE id = \(id)
            """)
    }

    public func listedSessions() async throws(StorageError) -> [ListedSession] {
        let found = try await rows(
            """
            SELECT s.id, s.start_date, s.end_date, s.notes, s.is_from_cold_launch, s.is_on_train, o.device, o.last_activity,
              (SELECT COUNT(*) FROM locations l WHERE l.session_id = s.id),
              (SELECT MIN(timestamp) FROM locations l WHERE l.session_id = s.id),
              (SELECT MAX(timestamp) FROM locations l WHERE l.session_id = s.id)
            FROM sessions s LEFT JOIN session_owners o ON o.session_id = s.id
            """,
            as: (String, String, String?, String?, Bool, Bool, String?, String?, Int64, String?, String?).self)
        var listed: [ListedSession] = []
        for (id, start, end, notes, coldLaunch, onTrain, device, activity, count, first, last) in found {
            guard let startDate = Timestamp(parsing: start) else {
                throw StorageError.invalidValue(
                    path: location, table: "sessions", row: id, column: "start_date", problem: "not a date")
            }
            let session = Session(
                id: id, startDate: startDate, endDate: end.flatMap { Timestamp(parsing: $0) }, notes: notes,
                isFromColdLaunch: coldLaunch, isOnTrain: onTrain)
            let summary = SessionSummary(
                session: session, locationCount: Int(clamping: count), first: first.flatMap { Timestamp(parsing: $0) },
                last: last.flatMap { Timestamp(parsing: $0) })
            listed.append(
                ListedSession(summary: summary, device: device, lastActivity: activity.flatMap { Timestamp(parsing: $0) }))
        }
        return listed.sorted {
            ($0.summary.session.startDate, $0.summary.session.id) > ($1.summary.session.startDate, $1.summary.session.id)
        }
    }

    public func deleteSession(_ id: String) async throws(StorageError) -> Bool {
        try await transaction { connection in
            // The row first: an upload of this session waits for the delete, then finds nothing.
            try await connection.query("SELECT 1 FROM sessions WHERE id = \(id) FOR UPDATE", logger: logger)
            try await connection.query("DELETE FROM locations WHERE session_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM motion_activities WHERE session_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM session_owners WHERE session_id = \(id)", logger: logger)
            return try await Self.count(
                "WITH gone AS (DELETE FROM sessions WHERE id = \(id) RETURNING 1) SELECT COUNT(*) FROM gone", on: connection,
                logger: logger) > 0
        }
    }
}
