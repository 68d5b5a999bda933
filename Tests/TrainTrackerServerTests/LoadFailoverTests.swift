import Foundation
import Testing
import TrainTrackerTestSupport

/// `traintracker load` against two instances on one PostgreSQL, the first SIGKILLed while the
/// phones stream: its sessions carry on on the other, no acknowledged fix is lost, and every
/// answer a phone got, before and after the switch, is the replay's.
@Suite(
    .serialized, .enabled(if: TestPostgres.isAvailable, "no PostgreSQL could be started here"),
    .tags(.sharedData, .postgres, .slow), .timeLimit(.minutes(10)))
struct LoadFailoverTests {
    @Test(arguments: ["affinity", "round-robin"])
    func killingAnInstanceMidRunLosesNothingAndChangesNoAnswer(split: String) async throws {
        let db = try await PostgresServerTests.freshDatabase()
        let admin = try LiveServerTests.token(["--admin"], db: db)
        let phone = try LiveServerTests.token(["--device", "load-phones"], db: db)
        let (first, second) = (
            try ServerProcess(railways: SharedPaths.tokyoRailways, db: db),
            try ServerProcess(railways: SharedPaths.tokyoRailways, db: db)
        )
        defer { second.stop() }
        // The stream lasts long enough that the kill lands within it even on a busy machine
        // (at 16 s, a CI run with every suite at once once killed it after the stream had ended).
        let (phones, seconds) = (12, 40)
        let load = Process()
        load.executableURL = ToolRunner.executable
        load.arguments = [
            "load", "--railways", SharedPaths.tokyoRailways, "--server", first.url(""), "--server", second.url(""), "--split",
            split,
            "--device-token", phone, "--admin-token", admin, "--phones", "\(phones)", "--seconds", "\(seconds)",
            "--upload-every", "2", "--verify",
        ]
        let (output, errors) = (Pipe(), Pipe())
        (load.standardOutput, load.standardError, load.standardInput) = (output, errors, FileHandle.nullDevice)
        let (outputReader, errorReader) = (PipeReader(output), PipeReader(errors))
        let exited = AsyncStream.makeStream(of: Int32.self)
        load.terminationHandler = { process in exited.continuation.yield(process.terminationStatus) }
        try load.run()
        // Killed once it has stored some of the stream, well before the stream ends.
        let watcher = APIClient(server: first, token: admin)
        let deadline = ContinuousClock.now + .seconds(120)
        while try await Self.fixesAccepted(watcher) < phones, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let killedWhileStreaming = load.isRunning
        first.kill()
        var statuses = exited.stream.makeAsyncIterator()
        let status = await statuses.next()
        let report = String(decoding: outputReader.wait(), as: UTF8.self)
        #expect(status == 0, "\(String(decoding: errorReader.wait(), as: UTF8.self))")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any], "\(report)")
        #expect(killedWhileStreaming, "the kill came after the load had ended")
        #expect(json["serversDown"] as? [Int] == [0], "the first instance was taken for down")
        #expect(json["failedUploads"] as? Int == 0, "every upload was answered by one instance or the other")
        #expect(json["fixesAcknowledged"] as? Int == phones * seconds)
        let verification = try #require(json["verification"] as? [String: Any])
        #expect(verification["acknowledgedFixesMissing"] as? Int == 0)
        #expect(verification["answersDiffering"] as? Int == 0, "\(verification["firstDifference"] ?? "")")
        #expect((verification["answersAfterAMoveCompared"] as? Int ?? 0) > 0, "sessions moved to the other instance")
        #expect(verification["passed"] as? Bool == true)
    }

    /// What the server's `/metrics` counts as fixes stored.
    static func fixesAccepted(_ client: APIClient) async throws -> Int {
        let metrics = try await client.request(.GET, "/metrics").body
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("traintracker_fixes_accepted_total ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.flatMap { Int(exactly: $0) } ?? 0
    }
}
