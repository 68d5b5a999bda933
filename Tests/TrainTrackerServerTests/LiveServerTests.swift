import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// The server as a person uses it: started from the command line, tokens from `token create`,
/// a simulated phone uploading a ride over loopback, an operator following it live and
/// looking at it in a browser, and a crash in the middle of uploads.
@Suite(.serialized, .tags(.sharedData, .slow), .timeLimit(.minutes(10))) struct LiveServerTests {
    static let network = Result { try RailwayDatabase.load(path: SharedPaths.tokyoRailways) }

    /// A Toyoko ride, Hiyoshi → Kikuna, as upload bodies of `batch` fixes with ids `prefix-N`.
    static func rideBatches(prefix: String, batch: Int = 30) throws -> [String] {
        let fixes = try JourneySimulator(network: try network.get()).journey(
            on: "Tokyu.Toyoko", from: "Tokyu.Toyoko.Hiyoshi", to: "Tokyu.Toyoko.Kikuna",
            start: Timestamp(secondsSince1970: 1_758_355_200))
        let items = fixes.enumerated().map { index, fix in
            locationJSON(
                id: "\(prefix)-\(String(index).leftPadded(5))", latitude: fix.coordinate.latitude,
                longitude: fix.coordinate.longitude, timestamp: fix.timestamp.iso8601, accuracy: fix.horizontalAccuracy,
                speed: fix.speed, course: fix.course)
        }
        return stride(from: 0, to: items.count, by: batch).map { start in
            "{\"locations\":[" + items[start..<min(items.count, start + batch)].joined(separator: ",") + "]}"
        }
    }

    /// A token made with the command-line tool.
    static func token(_ arguments: [String], db: String) throws -> String {
        let outcome = try ToolRunner.run(["token", "create", "--db", db] + arguments)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theLiveStreamMatchesReplayAndADeviceCannotReadIt() async throws {
        let live = try LiveFixture()
        let (db, admin, server) = (live.db, live.admin, live.server)
        defer { server.stop() }
        let phone = APIClient(server: server, token: live.phone)
        let operator_ = APIClient(server: server, token: admin)
        #expect(
            try await phone.request(.POST, "/v1/sessions", body: #"{"id":"LIVE-1","startDate":"2025-09-20T08:00:00Z"}"#).status
                == .created)
        // The device may write but not watch.
        #expect(try await phone.request(.GET, "/v1/sessions/LIVE-1/live").status == .forbidden)
        // Upload only once the stream is open: the server greets a listener first.
        let (opened, open) = AsyncStream<Void>.makeStream()
        let listening = Task { try await operator_.events("/v1/sessions/LIVE-1/live") { open.yield() } }
        for await _ in opened { break }
        var uploaded = 0
        for body in try Self.rideBatches(prefix: "LIVE-1") {
            let reply = try await phone.request(.POST, "/v1/sessions/LIVE-1/locations", body: body)
            #expect(reply.status == .ok)
            uploaded += reply.json?["accepted"] as? Int ?? 0
            #expect((reply.json?["result"] as? [String: Any])?["sessionID"] as? String == "LIVE-1")
        }
        #expect(try await phone.request(.POST, "/v1/sessions/LIVE-1/end").status == .ok)
        let (status, streamed, _) = try await listening.value
        #expect(status == .ok)
        // The same answers, byte for byte, as replaying the stored session.
        let replay = await try ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", db, "--session", "LIVE-1",
        ])
        #expect(replay.status == 0)
        let replayed = replay.standardOutput.split(separator: "\n").map(String.init)
        #expect(replayed.count == uploaded && uploaded > 300)
        #expect(streamed == replayed)
        #expect(streamed.last?.contains("\"railway\":\"Tokyu.Toyoko\"") == true)
    }

    @Test func theServerAnswersSightQueriesLikeTheCommand() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("sessions.sqlite")
        let phone = try Self.token(["--device", "phone-1"], db: db)
        let dem = SharedPaths.data.appendingPathComponent("dem").path
        let server = try ServerProcess(
            railways: SharedPaths.tokyoRailways, db: db, extra: ["--dem", dem, "--peaks", dem + "/andorra-peaks.geojson"])
        defer { server.stop() }
        let client = APIClient(server: server, token: phone)
        let reply = try await client.request(.GET, "/v1/sight?lat=42.54&lon=1.49&heading=35&pitch=2")
        #expect(reply.status == .ok)
        let command = await try ToolRunner.run([
            "sight", "--lat", "42.54", "--lon", "1.49", "--heading", "35", "--pitch", "2", "--dem", dem, "--peaks",
            dem + "/andorra-peaks.geojson", "--format", "json",
        ])
        #expect(reply.body == command.standardOutput.trimmingCharacters(in: .newlines))
        let bad = try await client.request(.GET, "/v1/sight?lat=42.54&lon=1.49&heading=35&pitch=120")
        #expect(bad.status == .badRequest && bad.body.contains("pitch must be"))
        let missing = try await client.request(.GET, "/v1/sight?lat=42.54&lon=1.49&heading=35")
        #expect(missing.status == .badRequest && missing.body.contains("missing pitch"))
    }

    @Test func killingTheServerMidUploadLosesNoAcknowledgedFix() async throws {
        let live = try LiveFixture()
        let (db, admin, phoneToken, server) = (live.db, live.admin, live.phone, live.server)
        let phone = APIClient(server: server, token: phoneToken)
        // Four phones upload at once, batch after batch; each remembers what was acknowledged.
        let sessions = (1...4).map { "CRASH-\($0)" }
        for id in sessions { _ = try await phone.request(.POST, "/v1/sessions", body: "{\"id\":\"\(id)\"}") }
        let acknowledged = AcknowledgedFixes(uploaders: sessions.count)
        let uploads = sessions.map { id in
            Task {
                // However it ends, the wait below hears of it: a failed upload cannot hang the test.
                for body in (try? Self.rideBatches(prefix: id, batch: 10)) ?? [] {
                    guard let reply = try? await phone.request(.POST, "/v1/sessions/\(id)/locations", body: body),
                        reply.status == .ok
                    else { break }
                    await acknowledged.add(body: body)
                }
                await acknowledged.uploaderFinished()
            }
        }
        // Kill it once a good number of batches are in, while the others are in flight.
        await acknowledged.wait(until: 400)
        server.kill()
        for upload in uploads { _ = await upload.result }
        let acknowledgedIDs = await acknowledged.ids
        #expect(acknowledgedIDs.count >= 400)
        // Every acknowledged fix is in the file.
        let store = try SessionDatabase.open(path: db)
        let stored = Set(try sessions.flatMap { try store.rawFixes(sessionID: $0).map(\.id) })
        #expect(acknowledgedIDs.isSubset(of: stored), "\(acknowledgedIDs.subtracting(stored).count) acknowledged fixes lost")
        // A restarted server rebuilds the trackers from the file and carries on.
        let restarted = try ServerProcess(railways: SharedPaths.tokyoRailways, db: db)
        defer { restarted.stop() }
        let again = APIClient(server: restarted, token: phoneToken)
        let batches = try Self.rideBatches(prefix: "CRASH-1", batch: 10)
        let reply = try await again.request(.POST, "/v1/sessions/CRASH-1/locations", body: batches[batches.count - 1])
        #expect(reply.status == .ok)
        #expect((reply.json?["result"] as? [String: Any])?["railway"] as? String == "Tokyu.Toyoko")
        let listing = try await APIClient(server: restarted, token: admin).request(.GET, "/v1/sessions")
        #expect((listing.json?["sessions"] as? [Any])?.count == 4)
    }

    /// A one-time link that logs a browser into the viewer and opens `session`: the admin token
    /// itself never goes into a URL.
    static func loginLink(server: ServerProcess, admin: String, session: String) async throws -> String {
        let reply = try await APIClient(server: server, token: admin).request(.POST, "/v1/login-tickets")
        let ticket = try #require(reply.json?["ticket"] as? String, "\(reply.status) \(reply.body)")
        return server.url("/login?ticket=\(ticket)&session=\(session)")
    }
}

/// A fresh session file with an admin and a phone token made by `token create`, and the
/// server started on it.
struct LiveFixture {
    let directory: TemporaryDirectory
    let db: String
    let admin: String
    let phone: String
    let server: ServerProcess

    init(railways: String = SharedPaths.tokyoRailways, extra: [String] = []) throws {
        directory = try TemporaryDirectory()
        db = directory.path("sessions.sqlite")
        admin = try LiveServerTests.token(["--admin"], db: db)
        phone = try LiveServerTests.token(["--device", "phone-1"], db: db)
        server = try ServerProcess(railways: railways, db: db, extra: extra)
    }
}

/// The ids of the fixes the server acknowledged.
actor AcknowledgedFixes {
    private(set) var ids = Set<String>()
    /// Uploaders still sending.
    private var uploaders: Int
    private var waiting: (count: Int, continuation: CheckedContinuation<Void, Never>)?

    /// For `uploaders` phones uploading at once.
    init(uploaders: Int) { self.uploaders = uploaders }

    func add(body: String) {
        for match in body.matches(of: /"id":"([^"]+)"/) { ids.insert(String(match.output.1)) }
        resumeIfDone()
    }

    /// An uploader stopped (all sent, or a request failed): a wait for more than will come ends.
    func uploaderFinished() {
        uploaders -= 1
        resumeIfDone()
    }

    /// Returns once at least `count` fixes are acknowledged, or every uploader has stopped.
    func wait(until count: Int) async {
        guard ids.count < count, uploaders > 0 else { return }
        await withCheckedContinuation { waiting = (count, $0) }
    }

    private func resumeIfDone() {
        if let waiting, ids.count >= waiting.count || uploaders <= 0 {
            self.waiting = nil
            waiting.continuation.resume()
        }
    }
}
