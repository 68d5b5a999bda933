import Foundation
import Testing
import TrainTrackerTestSupport

/// The help text is part of the interface: each command's `--help` is kept as a snapshot
/// file. Run with `UPDATE_SNAPSHOTS=1` to rewrite them after an intended change.
@Suite struct HelpSnapshotTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    @Test(arguments: [
        "", "demo", "replay", "sessions", "network", "bench", "journey", "import", "import-sessions", "export", "simulate",
        "evaluate", "serve", "token", "token create", "token list", "token revoke", "export-sessions", "load", "speed", "modes",
        "diary", "budget", "sight", "recording-feed", "fit", "platforms",
    ])
    func helpMatchesItsSnapshot(command: String) throws {
        let arguments = command.split(separator: " ").map(String.init) + ["--help"]
        let outcome = try ToolRunner.run(arguments)
        #expect(outcome.status == 0)
        let name = command.isEmpty ? "traintracker" : command.replacingOccurrences(of: " ", with: "-")
        let file = Self.snapshots.appendingPathComponent("\(name)-help.txt")
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] != nil {
            try outcome.standardOutput.write(to: file, atomically: true, encoding: .utf8)
        }
        let snapshot = try String(contentsOf: file, encoding: .utf8)
        #expect(outcome.standardOutput == snapshot)
    }

    @Test func versionIsTheChangelogsNext() throws {
        let outcome = try ToolRunner.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "0.16.0-dev\n")
        let changelog = try String(
            contentsOf: Self.snapshots.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // Keep a Changelog: the version being built is the first, unreleased.
        let firstVersion = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(firstVersion == "## [0.16.0] - Unreleased")
    }
}
