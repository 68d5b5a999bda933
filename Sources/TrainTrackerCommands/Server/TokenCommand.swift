import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerStorage

/// `traintracker token`: access tokens of the live server.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create and list the live server's access tokens.",
        subcommands: [Create.self, List.self]
    )

    /// `traintracker token create`.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print it (it is stored hashed, so this is the only time it is shown).",
            discussion: """
                A device token creates sessions and writes to its own; it cannot read anything. An admin \
                token reads every session and follows them live.
                """
        )

        @Option(help: ArgumentHelp("The session SQLite file the server uses (created when missing).", valueName: "path"))
        var db: String

        @Option(help: ArgumentHelp("A token for the device with this name.", valueName: "name"))
        var device: String?

        @Flag(help: "An admin token.")
        var admin = false

        @Option(help: ArgumentHelp("The admin's name, for the record.", valueName: "name"))
        var name = "admin"

        func validate() throws {
            guard (device != nil) != admin else { throw ValidationError("give exactly one of --device NAME and --admin") }
            if let device, device.isEmpty || device.hasPrefix("admin:") {
                throw ValidationError("--device needs a name that does not start with 'admin:'")
            }
        }

        func run() throws {
            let grant = device.map { AccessGrant(role: .device, name: $0) } ?? AccessGrant(role: .admin, name: name)
            let token = try CommandFailure.wrapping { () throws(StorageError) in
                let store = try SessionDatabase.openStore(path: db)
                return try AccessTokens.create(
                    grant, in: store, at: Timestamp(secondsSince1970: Date().timeIntervalSince1970))
            }
            OutputSink.standardOutput().line(token)
        }
    }

    /// `traintracker token list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens' roles and names (never the tokens).")

        @Option(help: ArgumentHelp("The session SQLite file the server uses.", valueName: "path"))
        var db: String

        func run() throws {
            let grants = try CommandFailure.wrapping { () throws(StorageError) in
                guard FileManager.default.fileExists(atPath: db) else { throw StorageError.missingFile(path: db) }
                return try SessionDatabase.openStore(path: db).grants()
            }
            let output = OutputSink.standardOutput()
            for grant in grants { output.line("\(grant.role.rawValue)\t\(grant.name)") }
        }
    }
}
