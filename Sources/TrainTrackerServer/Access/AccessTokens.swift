import Crypto
import TrainTrackerCore
import TrainTrackerStorage

/// Bearer tokens: random, shown once, stored only as their SHA-256.
public enum AccessTokens {
    /// A new token: `tt_` and 64 hex digits of randomness.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "tt_" + hex(bytes)
    }

    /// The hash stored for `token`.
    public static func hash(_ token: String) -> String {
        hex(Array(SHA256.hash(data: Array(token.utf8))))
    }

    /// Whether `token` has the form `generate()` gives: `tt_` and 64 lower-case hex digits.
    public static func isWellFormed(_ token: some StringProtocol) -> Bool {
        let bytes = Array(token.utf8)
        return bytes.count == 67 && token.hasPrefix("tt_")
            && bytes.dropFirst(3).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Creates a token for `grant` in `store` and returns it (the only time it is seen); it
    /// stops working at `expiresAt` when given.
    ///
    /// - Throws: `StorageError` when the store cannot be written.
    public static func create(
        _ grant: AccessGrant, in store: SessionDatabase, at time: Timestamp, expiresAt: Timestamp? = nil
    ) throws(StorageError) -> String {
        let token = generate()
        try store.storeToken(hash: hash(token), grant: grant, at: time, expiresAt: expiresAt)
        return token
    }

    /// Creates a token for `grant` in `store` (SQLite or PostgreSQL) and returns it (the only
    /// time it is seen); it stops working at `expiresAt` when given.
    ///
    /// - Throws: `StorageError` when the store cannot be written.
    public static func create(
        _ grant: AccessGrant, inStore store: any SessionStore, at time: Timestamp, expiresAt: Timestamp? = nil
    ) async throws(StorageError) -> String {
        let token = generate()
        try await store.storeToken(hash: hash(token), grant: grant, at: time, expiresAt: expiresAt)
        return token
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return text
    }
}
