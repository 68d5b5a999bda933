import PostgresNIO
import TrainTrackerCore
import TrainTrackerStorage

extension PostgresSessionStore {
    public func storeToken(hash: String, grant: AccessGrant, at time: Timestamp, expiresAt: Timestamp? = nil)
        async throws(StorageError)
    {
        try await execute(
            """
            INSERT INTO access_tokens (hash, role, name, created_at, expires_at)
            VALUES (\(hash), \(grant.role.rawValue), \(grant.name), \(time.ekiText), \(expiresAt?.ekiText))
            """)
    }

    public func grant(tokenHash: String, at time: Timestamp) async throws(StorageError) -> AccessGrant? {
        let found = try await storedTokens("SELECT \(unescaped: Self.tokenColumns) FROM access_tokens WHERE hash = \(tokenHash)")
        guard let token = found.first, token.isValid(at: time) else { return nil }
        return token.grant
    }

    public func tokens() async throws(StorageError) -> [StoredToken] {
        try await storedTokens("SELECT \(unescaped: Self.tokenColumns) FROM access_tokens ORDER BY created_at, name")
    }

    public func revokeTokens(idPrefix: String? = nil, device: String? = nil, at time: Timestamp) async throws(StorageError)
        -> [StoredToken]
    {
        let open = try await storedTokens("SELECT \(unescaped: Self.tokenColumns) FROM access_tokens WHERE revoked_at IS NULL")
        let matches = try StoredToken.revocable(open, idPrefix: idPrefix, device: device, location: location)
        for token in matches {
            try await execute(
                """
                UPDATE access_tokens SET revoked_at = \(time.ekiText)
                WHERE substr(hash, 1, \(Int32(StoredToken.idLength))) = \(token.id) AND revoked_at IS NULL
                """)
        }
        return matches.map { token in
            var revoked = token
            revoked.revokedAt = time
            return revoked
        }
    }

    private static let tokenColumns = "hash, role, name, created_at, expires_at, revoked_at"

    /// The tokens a query finds; a row that cannot be read is left out, and an expiry or
    /// revocation that cannot be read counts as in the past (fail closed).
    private func storedTokens(_ query: PostgresQuery) async throws(StorageError) -> [StoredToken] {
        try await rows(query, as: (String, String, String, String, String?, String?).self).compactMap {
            hash, role, name, created, expires, revoked in
            guard let role = AccessRole(rawValue: role), let created = Timestamp(parsing: created) else { return nil }
            return StoredToken(
                id: String(hash.prefix(StoredToken.idLength)), grant: AccessGrant(role: role, name: name), createdAt: created,
                expiresAt: expires.map { Timestamp(parsing: $0) ?? created },
                revokedAt: revoked.map { Timestamp(parsing: $0) ?? created })
        }
    }
}
