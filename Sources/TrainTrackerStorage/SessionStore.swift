import TrainTrackerCore

/// What the live server keeps: sessions, their fixes and motion activities, the devices that
/// own them, and access tokens. Two stores keep it: `SessionDatabase` (an SQLite file, the
/// embedded default, in the Eki session schema) and `PostgresSessionStore` (a PostgreSQL
/// database several server instances share). Both pass the same test suite.
///
/// Every write is one transaction: all of it or none, and an upload is acknowledged only
/// once its transaction has committed.
public protocol SessionStore: Sendable {
    /// Where the store is, for messages: a file path, or a database address without its password.
    var location: String { get }

    /// Creates `session` owned by device `owner` at `time` (the server's clock), within `limit`;
    /// a retried creation of the same session by the same device changes nothing.
    func createSession(
        _ session: Session, owner: String, at time: Timestamp, limit: SessionDatabase.OpenSessionLimit
    ) async throws(StorageError) -> SessionDatabase.SessionCreation

    /// The device that created session `id` on the server; nil for an unknown session.
    func owner(ofSession id: String) async throws(StorageError) -> String?

    /// Whether session `id` is stored.
    func sessionExists(_ id: String) async throws(StorageError) -> Bool

    /// Whether session `id` has an end date.
    func hasEnded(_ id: String) async throws(StorageError) -> Bool

    /// Marks session `id` as ended at its last fix (its start when it has none).
    func endSession(_ id: String) async throws(StorageError)

    /// Writes several sessions' batches in one transaction (a group commit); each fix is
    /// stored under its session, a stored id is left alone (a retried batch stores nothing
    /// twice), and a batch of a session that is not there writes nothing (`sessionMissing`).
    /// A session starts at its first fix: one whose start is later than a batch's earliest
    /// fix (created at the server's clock, for a ride recorded earlier) starts at that fix.
    func appending(_ batches: [SessionDatabase.FixBatch], at time: Timestamp) async throws(StorageError) -> [BatchOutcome]

    /// Appends motion activities in one transaction, as fixes are.
    func appending(motionActivities: [MotionActivity]) async throws(StorageError) -> BatchOutcome

    /// The checked fixes of session `sessionID` in timestamp order, with what was skipped.
    func fixes(sessionID: String) async throws(StorageError) -> (fixes: [RecordedFix], report: FixSanitizerReport)

    /// The motion activities of session `sessionID`, in start order.
    func motionActivities(sessionID: String) async throws(StorageError) -> [MotionActivity]

    /// Every session with its device and last activity, newest start first.
    func listedSessions() async throws(StorageError) -> [ListedSession]

    /// Deletes session `id` with its fixes, motion activities and owner; whether it was there.
    func deleteSession(_ id: String) async throws(StorageError) -> Bool

    /// Stores a token by its hash; it stops working at `expiresAt` when given.
    func storeToken(hash: String, grant: AccessGrant, at time: Timestamp, expiresAt: Timestamp?) async throws(StorageError)

    /// The grant of the token with this hash, if it works at `time` (not revoked, not expired).
    func grant(tokenHash: String, at time: Timestamp) async throws(StorageError) -> AccessGrant?

    /// Every stored token, oldest first.
    func tokens() async throws(StorageError) -> [StoredToken]

    /// Revokes the tokens whose id starts with `idPrefix` (at least 6 hex digits) or, with
    /// `device`, every token of that device; returns the tokens revoked now.
    func revokeTokens(idPrefix: String?, device: String?, at time: Timestamp) async throws(StorageError) -> [StoredToken]

    /// Lets go of the store's connections once nothing more will be asked of it (the server
    /// calls it last when it stops); returns when they are closed.
    func shutdown() async

    /// How many transactions writing fixes may be open at once (batches of one session are
    /// never in two of them).
    var concurrentWriters: Int { get }

    /// How many fixes each of sessions `ids` holds and whether it has ended, for a store
    /// several instances share: an instance whose live streams follow a session another
    /// instance takes the uploads of learns from it that there is more to stream. A session
    /// not there (deleted) is left out. Nil for a store only this instance writes.
    func progress(ofSessions ids: [String]) async throws(StorageError) -> [String: SessionProgress]?
}

/// How far a session has come in the store: its fixes, and whether it has ended.
public struct SessionProgress: Hashable, Sendable {
    /// Fixes stored.
    public var storedFixes: Int
    /// Whether the session has an end date.
    public var ended: Bool

    /// A session's progress.
    public init(storedFixes: Int, ended: Bool) {
        self.storedFixes = storedFixes
        self.ended = ended
    }
}

extension SessionStore {
    /// Nothing to let go of: each write is committed when it returns.
    public func shutdown() async {}

    /// One: the store has one writer.
    public var concurrentWriters: Int { 1 }

    /// Nil: only this instance writes the store, so it knows everything it holds.
    public func progress(ofSessions ids: [String]) async throws(StorageError) -> [String: SessionProgress]? { nil }
}

extension SessionDatabase: SessionStore {
    /// The file's path.
    public var location: String { path }
}
