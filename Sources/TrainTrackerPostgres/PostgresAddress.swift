import Foundation
import PostgresNIO
import TrainTrackerStorage

/// A `postgres://` address, read and checked: `postgres://user[:password]@host[:port]/database`,
/// with `?host=/socket/directory` for a Unix socket and `?sslmode=disable|prefer|require`.
struct PostgresAddress: CustomStringConvertible {
    let configuration: PostgresClient.Configuration
    /// The address without its password, for messages and logs.
    let description: String

    init(_ url: String) throws(StorageError) {
        func bad(_ problem: String) -> StorageError {
            .database(path: Self.withoutPassword(url), message: problem)
        }
        guard PostgresSessionStore.isAddress(url), let components = URLComponents(string: url) else {
            throw bad("not a postgres:// address")
        }
        guard let user = components.user, !user.isEmpty else { throw bad("the address names no user (postgres://USER@host/db)") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw bad("the address names no database (postgres://user@host/DB)") }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let password = components.password
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let socket {
            configuration = .init(
                unixSocketPath: socket + "/.s.PGSQL.\(components.port ?? 5432)", username: user, password: password,
                database: database)
        } else {
            guard let host = components.host, !host.isEmpty else { throw bad("the address names no host") }
            let port = components.port ?? 5432
            guard (1...65_535).contains(port) else { throw bad("the port must be 1 to 65535") }
            let tls: PostgresClient.Configuration.TLS
            switch query["sslmode"] ?? "prefer" {
            case "disable": tls = .disable
            case "prefer": tls = .prefer(.makeClientConfiguration())
            case "require": tls = .require(.makeClientConfiguration())
            default: throw bad("sslmode must be disable, prefer or require")
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        description = Self.withoutPassword(url)
    }

    /// `url` with any password replaced by `***`.
    static func withoutPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }
}
