import Foundation
import TrainTrackerPostgres
import TrainTrackerStorage

/// The server's session store named by `--db`: a `postgres://` address (PostgreSQL, shared by
/// several instances) or a file path (SQLite, created when missing).
enum SessionStores {
    /// Opens (creating when missing) the store `db` names; with `mustExist`, a missing SQLite
    /// file is an error rather than created.
    static func open(_ db: String, mustExist: Bool = false) async throws(CommandFailure) -> any SessionStore {
        do throws(StorageError) {
            if PostgresSessionStore.isAddress(db) { return try await PostgresSessionStore.open(url: db) }
            if mustExist, !FileManager.default.fileExists(atPath: db) { throw StorageError.missingFile(path: db) }
            return try SessionDatabase.openStore(path: db)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Runs `body` on the store, turning storage errors into command failures.
    static func with<T>(_ store: any SessionStore, _ body: (any SessionStore) async throws(StorageError) -> T)
        async throws(CommandFailure) -> T
    {
        do throws(StorageError) {
            return try await body(store)
        } catch {
            throw CommandFailure(error)
        }
    }
}
