import Foundation
import Logging
import PostgresNIO
import TrainTrackerCore
import TrainTrackerStorage

/// The live server's sessions in a PostgreSQL database, which several server instances share:
/// the concepts of the SQLite store (sessions, fixes, motion activities, owners, tokens) in
/// tables of their own, created and upgraded by named migrations at start (never edited; one
/// instance applies them while the others wait on an advisory lock). Times are kept as the
/// Eki session schema keeps them (text, `2025-09-20 08:00:00.000` UTC), so a session reads
/// back exactly as from the SQLite store, and `export-sessions` writes them as they are.
///
///     let store = try await PostgresSessionStore.open(url: "postgres://tracker@127.0.0.1/traintracker")
///     defer { store.close() }
public final class PostgresSessionStore: SessionStore {
    public let location: String
    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>

    private init(address: PostgresAddress, logger: Logger) {
        location = address.description
        self.logger = logger
        let client = PostgresClient(configuration: address.configuration, backgroundLogger: logger)
        self.client = client
        running = Task { await client.run() }
    }

    deinit { running.cancel() }

    /// The connection timeouts `open` takes, in milliseconds (1 ms to an hour).
    static let connectTimeouts = 1...3_600_000

    /// Connects to the database at `url` (`postgres://user[:password]@host[:port]/database`,
    /// with `?host=/socket/directory` for a Unix socket, `?sslmode=disable|prefer|require` and
    /// `?application_name=`) and applies the migrations it lacks.
    ///
    /// - Throws: `StorageError` naming the address (never its password) when it is malformed,
    ///   the database cannot be reached or a migration fails.
    public static func open(
        url: String, connectTimeout: Seconds = 15, logger: Logger = Logger(label: "traintracker.postgres")
    ) async throws(StorageError) -> PostgresSessionStore {
        let timeout = Duration.milliseconds(Int64(Int(flooring: connectTimeout * 1_000, within: Self.connectTimeouts)))
        var address = try PostgresAddress(url)
        address.connectTimeout = timeout
        try await reach(address, logger: logger)
        let store = PostgresSessionStore(address: address, logger: logger)
        do {
            // Reached: the migrations may wait as long as another instance applies them.
            try await store.migrate()
        } catch {
            store.close()
            throw error
        }
        return store
    }

    /// Makes one connection of its own and closes it, so `open` fails with the server's own
    /// refusal (no such user, wrong password, connection refused) at once, where the pool would
    /// retry for ever. PostgresNIO keeps the connection's deadline (connecting, TLS and login)
    /// on its event loop, not in a sleeping task: a process whose tasks wait their turn (a busy
    /// server starting, a test run on two cores) cannot mistake a slow turn for an absent server.
    static func reach(_ address: PostgresAddress, logger: Logger) async throws(StorageError) {
        do {
            let connection = try await PostgresConnection.connect(configuration: address.probe, id: 0, logger: logger)
            try await connection.close()
        } catch let error as PSQLError where error.underlying.map(Self.isTimeout) == true {
            throw .database(
                path: address.description,
                message:
                    "no working connection within \(address.connectTimeoutSeconds) s: is the server up, and are the user and password right?"
            )
        } catch {
            throw .database(path: address.description, message: Self.reason(error))
        }
    }

    /// Whether `error` is a connection's deadline passing.
    private static func isTimeout(_ error: any Error) -> Bool {
        if case .connectTimeout = error as? ChannelError { return true }
        return false
    }

    /// What went wrong, in the server's words when it sent some (PostgresNIO hides them from
    /// `description`).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// Whether `path` names a PostgreSQL database rather than a file.
    public static func isAddress(_ path: String) -> Bool {
        path.hasPrefix("postgres://") || path.hasPrefix("postgresql://")
    }

    /// Closes the connection pool without waiting for it.
    public func close() { running.cancel() }

    /// Closes the connection pool and returns once its connections are closed (each told
    /// the server it leaves).
    public func shutdown() async {
        running.cancel()
        await running.value
    }

    // MARK: Running statements

    /// Runs `body` in one transaction; a failure rolls it all back.
    func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws(StorageError) -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as StorageError {
            throw error
        } catch {
            throw failure(error)
        }
    }

    /// Runs one statement outside a transaction and decodes its rows.
    func rows<each Column: PostgresDecodable & Sendable>(_ query: PostgresQuery, as types: (repeat each Column).Type)
        async throws(StorageError) -> [(repeat each Column)]
    {
        do {
            var decoded: [(repeat each Column)] = []
            for try await row in try await client.query(query, logger: logger).decode(types) { decoded.append(row) }
            return decoded
        } catch {
            throw failure(error)
        }
    }

    /// Runs one statement that returns no rows.
    func execute(_ query: PostgresQuery) async throws(StorageError) {
        do {
            try await client.query(query, logger: logger)
        } catch {
            throw failure(error)
        }
    }

    /// A database error as a `StorageError` naming the store: the server's own message when
    /// it sent one (PostgresNIO hides it from `description`).
    func failure(_ error: any Error) -> StorageError {
        .database(path: location, message: Self.reason(error))
    }
}
