import PostgresNIO
import TrainTrackerCore
import TrainTrackerStorage

extension PostgresSessionStore {
    /// A missing altitude or accuracy travels in the statement's arrays as NaN (no checked
    /// value is ever NaN) and is stored as NULL.
    static let missing = Double.nan

    public func appending(_ batches: [SessionDatabase.FixBatch], at time: Timestamp) async throws(StorageError) -> [BatchOutcome] {
        try await transaction { connection in
            var outcomes: [BatchOutcome] = []
            for batch in batches {
                // A session deleted after its upload was let in takes nothing; one being deleted
                // now is held until the delete commits (it locks the row first).
                guard try await Self.sessionHeld(batch.sessionID, on: connection, logger: logger) else {
                    outcomes.append(BatchOutcome(inserted: 0, duplicates: 0, sessionMissing: true))
                    continue
                }
                var outcome = try await insert(batch, on: connection)
                for try await count in try await connection.query(
                    """
                    UPDATE session_owners SET last_activity = \(time.ekiText), fix_count = fix_count + \(Int64(outcome.inserted))
                    WHERE session_id = \(batch.sessionID) RETURNING fix_count
                    """, logger: logger
                ).decode(Int64.self) {
                    outcome.storedFixes = Int(clamping: count)
                }
                outcomes.append(outcome)
            }
            return outcomes
        }
    }

    /// Whether session `id` is there, its row held (shared) until the transaction ends, so it
    /// cannot be deleted under the transaction's writes.
    static func sessionHeld(_ id: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await count("SELECT COUNT(*) FROM (SELECT 1 FROM sessions WHERE id = \(id) FOR SHARE) AS held", on: connection, logger: logger) > 0
    }

    /// Inserts a batch's fixes in one statement; a stored id (or one twice in the batch, after
    /// its first) is left alone. The positions written are those of the ids returned.
    private func insert(_ batch: SessionDatabase.FixBatch, on connection: PostgresConnection) async throws -> BatchOutcome {
        let fixes = batch.fixes
        guard !fixes.isEmpty else { return BatchOutcome(inserted: 0, duplicates: 0) }
        let locations = fixes.map(\.location)
        let ids = fixes.map(\.id)
        let latitudes = locations.map(\.coordinate.latitude)
        let longitudes = locations.map(\.coordinate.longitude)
        let altitudes = locations.map { $0.altitude ?? Self.missing }
        let times = locations.map(\.timestamp.ekiText)
        let accuracies = locations.map { $0.horizontalAccuracy ?? Self.missing }
        // Missing speed and course as -1, as the recorder (and the SQLite store) writes them.
        let courses = locations.map { $0.course ?? -1 }
        let speeds = locations.map { $0.speed ?? -1 }
        var written = Set<String>()
        for try await id in try await connection.query(
            """
            INSERT INTO locations (session_id, id, latitude, longitude, altitude, timestamp, horizontal_accuracy, course, speed)
            SELECT \(batch.sessionID), u.id, u.latitude, u.longitude, NULLIF(u.altitude, 'NaN'), u.time,
              NULLIF(u.accuracy, 'NaN'), u.course, u.speed
            FROM UNNEST(\(ids)::text[], \(latitudes)::float8[], \(longitudes)::float8[], \(altitudes)::float8[],
              \(times)::text[], \(accuracies)::float8[], \(courses)::float8[], \(speeds)::float8[])
              WITH ORDINALITY AS u(id, latitude, longitude, altitude, time, accuracy, course, speed, position)
            ORDER BY u.position
            ON CONFLICT (session_id, id) DO NOTHING
            RETURNING id
            """, logger: logger
        ).decode(String.self) {
            written.insert(id)
        }
        // The first position of each id written.
        var positions: [Int] = []
        var seen = Set<String>()
        for (index, id) in ids.enumerated() where written.contains(id) && seen.insert(id).inserted {
            positions.append(index)
        }
        return BatchOutcome(inserted: positions.count, duplicates: fixes.count - positions.count, insertedPositions: positions)
    }

    public func appending(motionActivities: [MotionActivity]) async throws(StorageError) -> BatchOutcome {
        try await transaction { connection in
            var inserted = 0
            for id in Set(motionActivities.compactMap(\.sessionID)) {
                guard try await Self.sessionHeld(id, on: connection, logger: logger) else {
                    return BatchOutcome(inserted: 0, duplicates: 0, sessionMissing: true)
                }
            }
            for activity in motionActivities {
                inserted += try await Self.count(
                    """
                    WITH written AS (
                      INSERT INTO motion_activities (session_id, id, start_date, confidence, stationary, walking, running,
                        automotive, cycling, unknown)
                      VALUES (\(activity.sessionID ?? ""), \(activity.id), \(activity.startDate.ekiText),
                        \(activity.confidence.rawValue), \(activity.stationary), \(activity.walking), \(activity.running),
                        \(activity.automotive), \(activity.cycling), \(activity.unknown))
                      ON CONFLICT (session_id, id) DO NOTHING RETURNING 1)
                    SELECT COUNT(*) FROM written
                    """, on: connection, logger: logger)
            }
            return BatchOutcome(inserted: inserted, duplicates: motionActivities.count - inserted)
        }
    }

    public func motionActivities(sessionID: String) async throws(StorageError) -> [MotionActivity] {
        let found = try await rows(
            """
            SELECT id, start_date, confidence, stationary, walking, running, automotive, cycling, unknown
            FROM motion_activities WHERE session_id = \(sessionID) ORDER BY start_date, seq
            """, as: (String, String, String, Bool, Bool, Bool, Bool, Bool, Bool).self)
        return found.compactMap { id, start, confidence, stationary, walking, running, automotive, cycling, unknown in
            guard let start = Timestamp(parsing: start) else { return nil }
            return MotionActivity(
                id: id, startDate: start, confidence: MotionConfidence(rawValue: confidence) ?? .low, stationary: stationary,
                walking: walking, running: running, automotive: automotive, cycling: cycling, unknown: unknown,
                sessionID: sessionID)
        }
    }

    public func fixes(sessionID: String) async throws(StorageError) -> (fixes: [RecordedFix], report: FixSanitizerReport) {
        let found = try await rows(
            """
            SELECT id, latitude, longitude, timestamp, horizontal_accuracy, speed, course, altitude
            FROM locations WHERE session_id = \(sessionID) ORDER BY seq
            """, as: (String, Double, Double, String, Double?, Double?, Double?, Double?).self)
        // The same checks as every other reader: a row the sanitizer refuses is skipped and counted.
        return FixSanitizer.clean(
            found.map { id, latitude, longitude, time, accuracy, speed, course, altitude in
                RawFix(
                    id: id, latitude: latitude, longitude: longitude, timestamp: time, horizontalAccuracy: accuracy,
                    speed: speed, course: course, altitude: altitude)
            })
    }
}
