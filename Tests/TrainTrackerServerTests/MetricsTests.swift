import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerServer
import TrainTrackerTestSupport

/// `GET /metrics`: what an operator's Prometheus scrapes, counted as the uploads happen.
@Suite(.tags(.slow), .timeLimit(.minutes(10))) struct MetricsTests {
    @Test func uploadsAndTheirFixesAreCountedForAdminsOnly() async throws {
        let fixture = try ServerRoutesTests.Fixture()
        let ride = Array(try ServerRoutesTests.ride().prefix(40))
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: ServerRoutesTests.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"M1"}"#))
            for _ in 0..<2 {
                _ = try await client.execute(
                    uri: "/v1/sessions/M1/locations", method: .post, headers: ServerRoutesTests.headers(fixture.phone),
                    body: ServerRoutesTests.body(ride))
            }
            // One malformed fix: skipped and counted.
            _ = try await client.execute(
                uri: "/v1/sessions/M1/locations", method: .post, headers: ServerRoutesTests.headers(fixture.phone),
                body: ByteBuffer(
                    string: #"{"locations":[{"id":"bad","latitude":91,"longitude":0,"timestamp":"2025-09-20T08:00:00Z"}]}"#))
            try await client.execute(uri: "/metrics", method: .get, headers: ServerRoutesTests.headers(fixture.phone)) {
                response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: ServerRoutesTests.headers(fixture.admin)) {
                response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                for line in [
                    "traintracker_uploads_total 3", "traintracker_fixes_accepted_total 40",
                    "traintracker_fixes_duplicate_total 40",
                    "traintracker_fixes_skipped_total 1", "traintracker_commit_seconds_count 3",
                    "traintracker_trackers_in_memory 1",
                    "traintracker_live_streams 0", "traintracker_store_errors_total 0",
                ] {
                    #expect(text.contains(line + "\n"), "\(line) in:\n\(text)")
                }
                #expect(!text.contains(fixture.phone) && !text.contains(fixture.admin), "no token in the metrics")
            }
        }
    }
}

/// The server's log: each session change with the request id, the session and the device,
/// never a token.
@Suite(.tags(.slow), .timeLimit(.minutes(10))) struct ServerLogTests {
    @Test func sessionsAreLoggedWithRequestSessionAndDeviceButNeverAToken() async throws {
        let live = try LiveFixture(extra: ["--log-level", "debug"])
        let phone = APIClient(server: live.server, token: live.phone)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"LOG-1"}"#)
        _ = try await phone.request(
            .POST, "/v1/sessions/LOG-1/locations", body: try LiveServerTests.rideBatches(prefix: "LOG-1")[0])
        _ = try await phone.request(.POST, "/v1/sessions/LOG-1/end")
        let log = live.server.stopAndReadLog()
        let created = try #require(log.split(separator: "\n").first { $0.contains("session created") })
        #expect(
            created.contains("session=LOG-1") && created.contains("device=phone-1") && created.contains("hb.request.id="),
            "\(created)")
        #expect(log.contains("fixes uploaded") && log.contains("accepted=30"), "\(log)")
        #expect(log.contains("session ended"))
        #expect(!log.contains(live.phone) && !log.contains(live.admin) && !log.contains("tt_"), "no token in the log")
    }
}
