import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerStorage

/// `traintracker token`: access tokens of the live server.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke the live server's access tokens.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    /// `traintracker token create`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print it (it is stored hashed, so this is the only time it is shown).",
            discussion: """
                A device token creates sessions and writes to its own; it cannot read anything. An admin \
                token reads every session and follows them live. A token stops working when it expires \
                (--expires-in) or is revoked (token revoke), on its next request.
                """
        )

        @Option(
            help: ArgumentHelp(
                "The server's session store: an SQLite file (created when missing) or a postgres:// address.",
                valueName: "path-or-url"))
        var db: String

        @Option(help: ArgumentHelp("A token for the device with this name.", valueName: "name"))
        var device: String?

        @Flag(help: "An admin token.")
        var admin = false

        @Flag(help: "A reader token: reads the published GTFS-realtime feed (/v1/realtime/...) and nothing else.")
        var reader = false

        @Option(help: ArgumentHelp("An admin's or reader's name, for the record (default: admin or reader).", valueName: "name"))
        var name: String?

        @Option(
            help: ArgumentHelp(
                "How long the token works: a number and s, m, h or d (90d); it never expires without this.",
                valueName: "duration"))
        var expiresIn: String?

        func validate() throws {
            guard [device != nil, admin, reader].filter({ $0 }).count == 1 else {
                throw ValidationError("give exactly one of --device NAME, --admin and --reader")
            }
            if let device {
                guard !device.isEmpty, device.utf8.count <= 64, !device.hasPrefix("admin:"),
                    device.allSatisfy({ !$0.isNewline && $0 != "\t" })
                else {
                    throw ValidationError("--device needs a name of 1 to 64 bytes on one line, not starting with 'admin:'")
                }
            }
            if let name, name.utf8.count > 64 || name.contains(where: \.isNewline) {
                throw ValidationError("--name must be at most 64 bytes on one line")
            }
            if let expiresIn, Self.seconds(expiresIn) == nil {
                throw ValidationError("--expires-in must be a whole number from 1 up, then s, m, h or d, at most 10 years")
            }
        }

        func run() async throws {
            let grant =
                device.map { AccessGrant(role: .device, name: $0) }
                ?? AccessGrant(role: reader ? .reader : .admin, name: name ?? (reader ? "reader" : "admin"))
            let now = Timestamp.now
            let expiry = expiresIn.flatMap(Self.seconds).map { now.adding($0) }
            let store = try await SessionStores.open(db)
            let token = try await SessionStores.with(store) { store throws(StorageError) in
                try await AccessTokens.create(grant, inStore: store, at: now, expiresAt: expiry)
            }
            OutputSink.standardOutput().line(token)
        }

        /// Seconds in `90d`, `12h`, `30m` or `45s`; nil for anything else or beyond ten years.
        static func seconds(_ text: String) -> Seconds? {
            let units: [Character: Seconds] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
            guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count >= 1 else {
                return nil
            }
            let seconds = Double(count) * unit
            return seconds <= 10 * 366 * 86_400 ? seconds : nil
        }
    }

    /// `traintracker token list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the tokens (never the tokens themselves): id, role, name, created, expires, state.",
            discussion: "The id is the start of the token's hash: give it to `token revoke`."
        )

        @Option(
            help: ArgumentHelp("The server's session store: an SQLite file or a postgres:// address.", valueName: "path-or-url"))
        var db: String

        func run() async throws {
            let store = try await SessionStores.open(db, mustExist: true)
            let tokens = try await SessionStores.with(store) { store throws(StorageError) in try await store.tokens() }
            let now = Timestamp.now
            let output = OutputSink.standardOutput()
            output.line("id\trole\tname\tcreated (UTC)\texpires (UTC)\tstate")
            for token in tokens {
                let state =
                    token.revokedAt != nil ? "revoked" : token.isValid(at: now) ? "valid" : "expired"
                output.line(
                    [
                        token.id, token.grant.role.rawValue, token.grant.name, Self.minute(token.createdAt),
                        token.expiresAt.map(Self.minute) ?? "never", state,
                    ].joined(separator: "\t"))
            }
        }

        private static func minute(_ time: Timestamp) -> String {
            String(time.iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ")
        }
    }

    /// `traintracker token revoke`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a token (by the id `token list` shows) or every token of a device.",
            discussion: """
                A running server refuses a revoked token from its next request on, and ends the viewer \
                logins made with it.
                """
        )

        @Option(
            help: ArgumentHelp("The server's session store: an SQLite file or a postgres:// address.", valueName: "path-or-url"))
        var db: String

        @Argument(help: ArgumentHelp("The token's id from `token list` (at least 6 hex digits).", valueName: "id"))
        var id: String?

        @Option(help: ArgumentHelp("Revoke every token of this device.", valueName: "name"))
        var device: String?

        func validate() throws {
            guard (id != nil) != (device != nil) else { throw ValidationError("give exactly one of ID and --device NAME") }
        }

        func run() async throws {
            let store = try await SessionStores.open(db, mustExist: true)
            let revoked = try await SessionStores.with(store) { store throws(StorageError) in
                try await store.revokeTokens(idPrefix: id, device: device, at: .now)
            }
            guard !revoked.isEmpty else {
                throw CommandFailure("\(db): no valid token matches \(id.map { "id \($0)" } ?? "device \(device ?? "")")")
            }
            let output = OutputSink.standardOutput()
            for token in revoked { output.line("revoked \(token.id) \(token.grant.role.rawValue) \(token.grant.name)") }
        }
    }
}
