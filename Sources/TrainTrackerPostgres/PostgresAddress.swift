import Foundation
import PostgresNIO
import TrainTrackerStorage

/// A `postgres://` address, read and checked: `postgres://user[:password]@host[:port]/database`,
/// with `?host=/socket/directory` for a Unix socket, `?sslmode=disable|prefer|require` and
/// `?application_name=` (what `pg_stat_activity` shows for the instance's connections;
/// `traintracker` unless given).
struct PostgresAddress: CustomStringConvertible {
    private(set) var configuration: PostgresClient.Configuration
    /// The same server for one connection of its own, which `open` makes first to learn at once
    /// whether the server is there and lets the user in (the pool retries for ever).
    private(set) var probe: PostgresConnection.Configuration
    /// The address without its password, for messages and logs.
    let description: String

    /// How long a connection may take to be made and let in: the pool's and the probe's.
    var connectTimeout: Duration {
        get { configuration.options.connectTimeout }
        set {
            configuration.options.connectTimeout = newValue
            probe.options.connectTimeout = TimeAmount(newValue)
        }
    }

    /// The same in seconds, for messages.
    var connectTimeoutSeconds: Double {
        let parts = connectTimeout.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// What `pg_stat_activity` shows for the connections unless the address says otherwise.
    static let defaultApplicationName = "traintracker"
    /// PostgreSQL keeps at most this many bytes of an application name.
    static let longestApplicationName = 63

    init(_ url: String) throws(StorageError) {
        func bad(_ problem: String) -> StorageError {
            .database(path: Self.withoutPassword(url), message: problem)
        }
        guard PostgresSessionStore.isAddress(url), let components = URLComponents(string: url) else {
            throw bad("not a postgres:// address")
        }
        guard let user = components.user, !user.isEmpty else { throw bad("the address names no user (postgres://USER@host/db)") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw bad("the address names no database (postgres://user@host/DB)")
        }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let password = components.password
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let socket {
            let path = socket + "/.s.PGSQL.\(components.port ?? 5432)"
            configuration = .init(unixSocketPath: path, username: user, password: password, database: database)
            probe = .init(unixSocketPath: path, username: user, password: password, database: database)
        } else {
            guard let host = components.host, !host.isEmpty else { throw bad("the address names no host") }
            let port = components.port ?? 5432
            guard (1...65_535).contains(port) else { throw bad("the port must be 1 to 65535") }
            let tls: PostgresClient.Configuration.TLS
            let probeTLS: PostgresConnection.Configuration.TLS
            do {
                switch query["sslmode"] ?? "prefer" {
                case "disable": (tls, probeTLS) = (.disable, .disable)
                case "prefer":
                    tls = .prefer(.makeClientConfiguration())
                    probeTLS = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case "require":
                    tls = .require(.makeClientConfiguration())
                    probeTLS = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                default: throw bad("sslmode must be disable, prefer or require")
                }
            } catch let error as StorageError {
                throw error
            } catch {
                throw bad("no TLS context: \(error)")
            }
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
            probe = .init(host: host, port: port, username: user, password: password, database: database, tls: probeTLS)
        }
        let application = query["application_name"] ?? Self.defaultApplicationName
        guard (1...Self.longestApplicationName).contains(application.utf8.count),
            application.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { throw bad("application_name must be 1 to 63 printable ASCII characters") }
        configuration.options.additionalStartupParameters = [("application_name", application)]
        probe.options.additionalStartupParameters = [("application_name", application)]
        description = Self.withoutPassword(url)
    }

    /// `url` with any password replaced by `***`.
    static func withoutPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url) else {
            // Not a URL (a password with a space, say): hide everything before the last `@`.
            guard let scheme = url.range(of: "://"), let at = url.lastIndex(of: "@"), scheme.upperBound <= at else {
                return url
            }
            return String(url[..<scheme.upperBound]) + "***" + String(url[at...])
        }
        guard components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }
}
