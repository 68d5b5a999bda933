import Foundation
import GRDB
import TrainTrackerCore

/// Who may do what on the live server.
public enum AccessRole: String, Hashable, Sendable, CaseIterable {
    /// A phone: creates sessions and writes to its own, reads nothing.
    case device
    /// An operator: reads every session.
    case admin
    /// A consumer of the published GTFS-realtime feed (`/v1/realtime/...`): reads that, nothing else.
    case reader
}

/// A token's stored record: its hash (never the token), what it may do, and for a device its name.
public struct AccessGrant: Hashable, Sendable {
    /// The role the token carries.
    public var role: AccessRole
    /// The device's name (for an admin or a reader, the name given, else "admin" or "reader").
    public var name: String

    /// A grant of `role` to `name`.
    public init(role: AccessRole, name: String) {
        self.role = role
        self.name = name
    }
}

/// A stored token as `traintracker token list` shows it: never the token, only its id (the
/// first 12 hex digits of its hash), what it grants, and its dates.
public struct StoredToken: Hashable, Sendable {
    /// The first 12 hex digits of the token's SHA-256: enough to name it, useless to use it.
    public var id: String
    /// What the token may do.
    public var grant: AccessGrant
    /// When it was made.
    public var createdAt: Timestamp
    /// When it stops working, if it expires.
    public var expiresAt: Timestamp?
    /// When it was revoked, if it was.
    public var revokedAt: Timestamp?

    /// A stored token's record.
    public init(id: String, grant: AccessGrant, createdAt: Timestamp, expiresAt: Timestamp?, revokedAt: Timestamp?) {
        self.id = id
        self.grant = grant
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// Whether the token works at `time`: not revoked and not expired.
    public func isValid(at time: Timestamp) -> Bool {
        revokedAt == nil && expiresAt.map { time < $0 } ?? true
    }

    /// How many characters of the hash name a token.
    public static let idLength = 12

    /// The tokens of `tokens` that `idPrefix` (at least 6 hex digits, naming one token) or
    /// `device` names.
    ///
    /// - Throws: `StorageError.invalidValue` naming `location` for a short or ambiguous prefix.
    package static func revocable(_ tokens: [StoredToken], idPrefix: String?, device: String?, location: String)
        throws(StorageError)
        -> [StoredToken]
    {
        var matches = tokens
        if let idPrefix {
            guard idPrefix.count >= 6, idPrefix.allSatisfy(\.isHexDigit) else {
                throw StorageError.invalidValue(
                    path: location, table: "serverAccessToken", row: idPrefix, column: "hash",
                    problem: "a token id is at least 6 hex digits (see token list)")
            }
            matches = matches.filter { $0.id.hasPrefix(idPrefix.lowercased()) }
            guard matches.count <= 1 else {
                throw StorageError.invalidValue(
                    path: location, table: "serverAccessToken", row: idPrefix, column: "hash",
                    problem: "names \(matches.count) tokens; give more digits")
            }
        }
        if let device { matches = matches.filter { $0.grant == AccessGrant(role: .device, name: device) } }
        return matches
    }
}

extension SessionDatabase {
    /// Stores a token by its hash; it stops working at `expiresAt` when given.
    ///
    /// - Throws: `StorageError` for a database error.
    public func storeToken(hash: String, grant: AccessGrant, at time: Timestamp, expiresAt: Timestamp? = nil)
        throws(StorageError)
    {
        do {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO serverAccessToken (hash, role, name, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
                    arguments: [hash, grant.role.rawValue, grant.name, time.ekiText, expiresAt?.ekiText])
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// The grant of the token with this hash, if it exists and works at `time` (not revoked,
    /// not expired). Read from the file on every call, so a revocation by another process
    /// takes effect on the next request.
    ///
    /// - Throws: `StorageError` for a database error.
    public func grant(tokenHash: String, at time: Timestamp) throws(StorageError) -> AccessGrant? {
        do {
            return try queue.read { db in
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT \(Self.tokenColumns) FROM serverAccessToken WHERE hash = ?", arguments: [tokenHash]),
                    let token = Self.token(row), token.isValid(at: time)
                else { return nil }
                return token.grant
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Every stored token, oldest first.
    ///
    /// - Throws: `StorageError` for a database error.
    public func tokens() throws(StorageError) -> [StoredToken] {
        do {
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT \(Self.tokenColumns) FROM serverAccessToken ORDER BY createdAt, name")
                    .compactMap(Self.token)
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// Revokes the tokens whose id starts with `idPrefix` (at least 6 characters) or, with
    /// `device`, every token of that device; returns the tokens revoked now.
    ///
    /// - Throws: `StorageError.invalidValue` when `idPrefix` names more than one token or is
    ///   shorter than 6 characters, or a database error.
    public func revokeTokens(idPrefix: String? = nil, device: String? = nil, at time: Timestamp) throws(StorageError)
        -> [StoredToken]
    {
        do {
            return try queue.write { db in
                let matches = try StoredToken.revocable(
                    Row.fetchAll(db, sql: "SELECT \(Self.tokenColumns) FROM serverAccessToken WHERE revokedAt IS NULL")
                        .compactMap(Self.token), idPrefix: idPrefix, device: device, location: path)
                for token in matches {
                    try db.execute(
                        sql: "UPDATE serverAccessToken SET revokedAt = ? WHERE substr(hash, 1, ?) = ? AND revokedAt IS NULL",
                        arguments: [time.ekiText, StoredToken.idLength, token.id])
                }
                return matches.map { token in
                    var revoked = token
                    revoked.revokedAt = time
                    return revoked
                }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    private static let tokenColumns = "hash, role, name, createdAt, expiresAt, revokedAt"

    static func token(_ row: Row) -> StoredToken? {
        guard let hash = (row[0] as DatabaseValue).text, let role = (row[1] as DatabaseValue).text.flatMap(AccessRole.init),
            let name = (row[2] as DatabaseValue).text,
            let created = (row[3] as DatabaseValue).text.flatMap({ Timestamp(parsing: $0) })
        else { return nil }
        // Fail closed: an expiry or revocation that cannot be read counts as in the past.
        let expires =
            (row[4] as DatabaseValue).isNull ? nil : (row[4] as DatabaseValue).text.flatMap { Timestamp(parsing: $0) } ?? created
        let revoked =
            (row[5] as DatabaseValue).isNull ? nil : (row[5] as DatabaseValue).text.flatMap { Timestamp(parsing: $0) } ?? created
        return StoredToken(
            id: String(hash.prefix(StoredToken.idLength)), grant: AccessGrant(role: role, name: name), createdAt: created,
            expiresAt: expires, revokedAt: revoked)
    }
}
