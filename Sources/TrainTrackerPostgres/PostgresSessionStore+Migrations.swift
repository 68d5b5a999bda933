import Logging
import PostgresNIO
import TrainTrackerStorage

extension PostgresSessionStore {
    /// The schema, as named migrations applied in order, each once, in a transaction. Never
    /// edit one that has shipped: add the next.
    static let migrations: [(name: String, statements: [PostgresQuery])] = [
        (
            "v1: sessions, fixes, motion activities, owners and tokens",
            [
                """
                CREATE TABLE sessions (id text PRIMARY KEY, start_date text NOT NULL, end_date text, notes text,
                  is_from_cold_launch boolean NOT NULL DEFAULT false, is_on_train boolean NOT NULL DEFAULT false)
                """,
                """
                CREATE TABLE locations (seq bigserial PRIMARY KEY, session_id text NOT NULL, id text NOT NULL,
                  latitude double precision NOT NULL, longitude double precision NOT NULL, altitude double precision,
                  timestamp text NOT NULL, horizontal_accuracy double precision, course double precision,
                  speed double precision, UNIQUE (session_id, id))
                """,
                "CREATE INDEX locations_on_session_timestamp ON locations (session_id, timestamp)",
                """
                CREATE TABLE motion_activities (seq bigserial PRIMARY KEY, session_id text NOT NULL, id text NOT NULL,
                  start_date text NOT NULL, confidence text NOT NULL, stationary boolean NOT NULL, walking boolean NOT NULL,
                  running boolean NOT NULL, automotive boolean NOT NULL, cycling boolean NOT NULL, unknown boolean NOT NULL,
                  UNIQUE (session_id, id))
                """,
                """
                CREATE TABLE session_owners (session_id text PRIMARY KEY, device text NOT NULL, created_at text NOT NULL,
                  last_activity text NOT NULL)
                """,
                "CREATE INDEX session_owners_on_device_created ON session_owners (device, created_at)",
                """
                CREATE TABLE access_tokens (hash text PRIMARY KEY, role text NOT NULL, name text NOT NULL,
                  created_at text NOT NULL, expires_at text, revoked_at text)
                """,
            ]
        ),
        (
            "v2: each session's fix count, so an instance knows when another stored fixes",
            [
                "ALTER TABLE session_owners ADD COLUMN fix_count bigint NOT NULL DEFAULT 0",
                """
                UPDATE session_owners o SET fix_count = (SELECT COUNT(*) FROM locations l WHERE l.session_id = o.session_id)
                """,
            ]
        ),
    ]

    /// Applies the migrations the database lacks. Instances starting together take turns: the
    /// first applies them under an advisory lock, the others find them applied.
    func migrate() async throws(StorageError) {
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7314201)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS traintracker_migrations (name text PRIMARY KEY,
                  applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM traintracker_migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            for migration in Self.migrations where !applied.contains(migration.name) {
                for statement in migration.statements { try await connection.query(statement, logger: logger) }
                try await connection.query(
                    "INSERT INTO traintracker_migrations (name) VALUES (\(migration.name))", logger: logger)
            }
        }
    }
}

extension PostgresSessionStore {
    /// Creates database `name` (letters, digits and underscores) in the cluster of `url`, for
    /// tests and first set-ups; the user needs the right to create databases.
    ///
    /// - Throws: `StorageError` when the name is not plain or the database cannot be created.
    package static func createDatabase(named name: String, at url: String) async throws(StorageError) {
        guard !name.isEmpty, name.utf8.count <= 63, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw .database(path: url, message: "a database name is 1 to 63 letters, digits and underscores") }
        let address = try PostgresAddress(url)
        let client = PostgresClient(
            configuration: address.configuration, backgroundLogger: Logger(label: "traintracker.postgres"))
        let running = Task { await client.run() }
        defer { running.cancel() }
        do {
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        } catch {
            throw .database(path: address.description, message: (error as? PSQLError)?.serverInfo?[.message] ?? "\(error)")
        }
    }

    /// How many connections to the database are open under application name `name`, other
    /// than the one asking: what `pg_stat_activity` shows an operator.
    package func connections(named name: String) async throws(StorageError) -> Int {
        let rows = try await rows(
            "SELECT count(*)::bigint FROM pg_stat_activity WHERE application_name = \(name) AND pid <> pg_backend_pid()",
            as: Int64.self)
        return Int(rows.first ?? 0)
    }
}
