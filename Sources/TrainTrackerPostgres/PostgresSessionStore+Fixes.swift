import PostgresNIO
import TrainTrackerCore
import TrainTrackerStorage

extension PostgresSessionStore {
    /// A missing altitude or accuracy travels in the statement's arrays as NaN (no checked
    /// value is ever NaN) and is stored as NULL.
    static let missing = Double.nan

    public func appending(_ batches: [SessionDatabase.FixBatch], at time: Timestamp) async throws(StorageError) -> [BatchOutcome]
    {
        // Rows are locked in session order, so two transactions (of two instances, or two
        // writers of one) never wait on each other in a circle.
        let order = batches.indices.sorted { batches[$0].sessionID < batches[$1].sessionID }
        return try await transaction { connection in
            var outcomes = [BatchOutcome?](repeating: nil, count: batches.count)
            for index in order { outcomes[index] = try await write(batches[index], at: time, on: connection) }
            return outcomes.compactMap { $0 }
        }
    }

    /// How many transactions the server may have open at once: each waits a round trip for
    /// its commit, and the database runs them side by side.
    public var concurrentWriters: Int { Self.writers }

    /// Transactions open at once per instance: a quarter of the pool's connections.
    static let writers = 4

    /// Whether session `id` is there, its row held (shared) until the transaction ends, so it
    /// cannot be deleted under the transaction's writes.
    static func sessionHeld(_ id: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await count(
            "SELECT COUNT(*) FROM (SELECT 1 FROM sessions WHERE id = \(id) FOR SHARE) AS held", on: connection, logger: logger)
            > 0
    }

    /// Writes a batch in one statement (one round trip): the session's row held (shared)
    /// until the transaction ends, so a delete cannot pass under it, and one being deleted is
    /// waited for; its fixes inserted, a stored id (or one twice in the batch, after its first)
    /// left alone; its owner's last activity and fix count updated, and its start moved back
    /// to its first fix when that is earlier. A session that is not
    /// there takes nothing (`sessionMissing`).
    private func write(_ batch: SessionDatabase.FixBatch, at time: Timestamp, on connection: PostgresConnection) async throws
        -> BatchOutcome
    {
        let fixes = batch.fixes
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
        // A session starts at its first fix (Eki text sorts as time does); no fix changes nothing.
        let first = times.min() ?? "9999"
        var (held, written, stored) = (false, Set<String>(), Int?.none)
        for try await (kind, id, count) in try await connection.query(
            """
            WITH held AS (SELECT id FROM sessions WHERE id = \(batch.sessionID) FOR SHARE),
            written AS (
              INSERT INTO locations (session_id, id, latitude, longitude, altitude, timestamp, horizontal_accuracy, course, speed)
              SELECT \(batch.sessionID), u.id, u.latitude, u.longitude, NULLIF(u.altitude, 'NaN'), u.time,
                NULLIF(u.accuracy, 'NaN'), u.course, u.speed
              FROM UNNEST(\(ids)::text[], \(latitudes)::float8[], \(longitudes)::float8[], \(altitudes)::float8[],
                \(times)::text[], \(accuracies)::float8[], \(courses)::float8[], \(speeds)::float8[])
                WITH ORDINALITY AS u(id, latitude, longitude, altitude, time, accuracy, course, speed, position)
              WHERE EXISTS (SELECT 1 FROM held)
              ORDER BY u.position
              ON CONFLICT (session_id, id) DO NOTHING
              RETURNING id),
            counted AS (
              UPDATE session_owners SET last_activity = \(time.ekiText), fix_count = fix_count + (SELECT COUNT(*) FROM written)
              WHERE session_id = \(batch.sessionID) AND EXISTS (SELECT 1 FROM held)
              RETURNING fix_count),
            started AS (
              UPDATE sessions SET start_date = \(first)
              WHERE id = \(batch.sessionID) AND start_date > \(first) AND EXISTS (SELECT 1 FROM held))
            SELECT 'held', NULL::text, NULL::bigint FROM held
            UNION ALL SELECT 'fix', id, NULL::bigint FROM written
            UNION ALL SELECT 'count', NULL::text, fix_count FROM counted
            """, logger: logger
        ).decode((String, String?, Int64?).self) {
            switch kind {
            case "held": held = true
            case "fix": if let id { written.insert(id) }
            default: stored = count.map { Int(clamping: $0) }
            }
        }
        guard held else { return BatchOutcome(inserted: 0, duplicates: 0, sessionMissing: true) }
        // The first position of each id written.
        var positions: [Int] = []
        var seen = Set<String>()
        for (index, id) in ids.enumerated() where written.contains(id) && seen.insert(id).inserted {
            positions.append(index)
        }
        return BatchOutcome(
            inserted: positions.count, duplicates: fixes.count - positions.count, insertedPositions: positions,
            storedFixes: stored)
    }

    public func appending(motionActivities: [MotionActivity]) async throws(StorageError) -> BatchOutcome {
        try await transaction { connection in
            for id in Set(motionActivities.compactMap(\.sessionID)).sorted() {
                guard try await Self.sessionHeld(id, on: connection, logger: logger) else {
                    return BatchOutcome(inserted: 0, duplicates: 0, sessionMissing: true)
                }
            }
            // One statement for the whole batch, in its order.
            let inserted = try await Self.count(
                """
                WITH written AS (
                  INSERT INTO motion_activities (session_id, id, start_date, confidence, stationary, walking, running,
                    automotive, cycling, unknown)
                  SELECT u.session_id, u.id, u.start_date, u.confidence, u.stationary, u.walking, u.running, u.automotive,
                    u.cycling, u.unknown
                  FROM UNNEST(\(motionActivities.map { $0.sessionID ?? "" })::text[], \(motionActivities.map(\.id))::text[],
                    \(motionActivities.map(\.startDate.ekiText))::text[], \(motionActivities.map(\.confidence.rawValue))::text[],
                    \(motionActivities.map(\.stationary))::bool[], \(motionActivities.map(\.walking))::bool[],
                    \(motionActivities.map(\.running))::bool[], \(motionActivities.map(\.automotive))::bool[],
                    \(motionActivities.map(\.cycling))::bool[], \(motionActivities.map(\.unknown))::bool[])
                    WITH ORDINALITY AS u(session_id, id, start_date, confidence, stationary, walking, running, automotive,
                      cycling, unknown, position)
                  ORDER BY u.position
                  ON CONFLICT (session_id, id) DO NOTHING RETURNING 1)
                SELECT COUNT(*) FROM written
                """, on: connection, logger: logger)
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
