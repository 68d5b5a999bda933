import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage
import TrainTrackerTestSupport

#if canImport(Glibc)
    import Glibc
    @testable import TrainTrackerLab
#endif

/// The running server against hostile pages, streams and connections: the process as an
/// operator starts it, over loopback.
@Suite(.serialized, .tags(.sharedData, .slow), .timeLimit(.minutes(10))) struct HostileLiveServerTests {
    static let payload = #"<img src=x onerror="document.title='PWNED'">"#

    @Test func htmlFromAPhoneOrAFeedIsShownAsTextAndNeverRun() async throws {
        // A careless (or hostile) feed: every route's names carry a script.
        let feed = try TemporaryDirectory()
        let source = URL(fileURLWithPath: SharedPaths.caltrain)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(atPath: source.appendingPathComponent(name).path, toPath: feed.path(name))
        }
        let routes = try String(contentsOfFile: feed.path("routes.txt"), encoding: .utf8).components(separatedBy: "\n")
        let quoted = "\"" + Self.payload.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let edited =
            [routes[0]]
            + routes.dropFirst().map { line -> String in
                var fields = line.components(separatedBy: ",")
                guard fields.count > 3 else { return line }
                fields[1] = quoted
                fields[2] = quoted
                return fields.joined(separator: ",")
            }
        try edited.joined(separator: "\n").write(toFile: feed.path("routes.txt"), atomically: true, encoding: .utf8)
        let network = try GTFSImporter.load(path: feed.url.path).network
        let railway = try #require(network.railways.first)
        #expect(railway.name.contains("<img"), "the feed's name reaches the network as it is")

        let directory = try TemporaryDirectory()
        let db = directory.path("sessions.sqlite")
        let admin = try LiveServerTests.token(["--admin"], db: db)
        let phone = try LiveServerTests.token(["--device", "phone-1"], db: db)
        let server = try ServerProcess(railways: feed.url.path, db: db)
        defer { server.stop() }
        let client = APIClient(server: server, token: phone)
        #expect(try await client.request(.POST, "/v1/sessions", body: #"{"id":"XSS-1"}"#).status == .created)
        let fixes = try JourneySimulator(network: network).journey(
            on: railway.id, from: railway.stationIDs[0], to: railway.stationIDs[2],
            start: Timestamp(secondsSince1970: 1_500_000_000))
        // The last fix (selected when the page opens) has a script for an id.
        let items = fixes.enumerated().map { index, fix in
            locationJSON(
                id: index == fixes.count - 1 ? "FIXID" : "x-\(index)", latitude: fix.coordinate.latitude,
                longitude: fix.coordinate.longitude, timestamp: fix.timestamp.iso8601, accuracy: fix.horizontalAccuracy,
                speed: fix.speed, course: fix.course)
        }
        let payloadJSON = Self.payload.replacingOccurrences(of: "\"", with: "\\\"")
        let body = "{\"locations\":[" + items.joined(separator: ",").replacingOccurrences(of: "FIXID", with: payloadJSON) + "]}"
        let reply = try await client.request(.POST, "/v1/sessions/XSS-1/locations", body: body)
        #expect(reply.status == .ok && reply.json?["accepted"] as? Int == fixes.count, "\(reply.body)")

        let browser = try HeadlessBrowser()
        try browser.open(try await LiveServerTests.loginLink(server: server, admin: admin, session: "XSS-1"))
        try browser.wait(for: "document.querySelector('#rider .rider-name')")
        #expect(try browser.text("document.title") == "TrainTracker Session Viewer", "no script changed the title")
        #expect(
            try browser.number("document.querySelectorAll('img[src=\"x\"]').length") == 0, "no element was made from the data")
        // Shown, as text: the fix id in the inspector, the feed's name in the rider's view and the list.
        #expect(try browser.text("document.getElementById('answer').innerText").contains(Self.payload))
        #expect(try browser.text("document.getElementById('rider').innerText").contains(Self.payload))
        #expect(try browser.text("document.getElementById('sessions').innerText").contains(Self.payload))
    }

    @Test func aSessionIDWithALineBreakCannotForgeEvents() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("sessions.sqlite")
        // A file recorded elsewhere, whose session id carries a forged event.
        let evil = "EVIL\r\n\r\ndata: {\"forged\":true}"
        try SessionDatabase.create(path: db).insert(
            Session(id: evil, startDate: Timestamp(secondsSince1970: 1_758_355_200)), fixes: [])
        let admin = try LiveServerTests.token(["--admin"], db: db)
        let server = try ServerProcess(railways: SharedPaths.tokyoRailways, db: db)
        defer { server.stop() }
        let operator_ = APIClient(server: server, token: admin)
        let path = "/v1/sessions/" + (evil.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let listening = await operator_.listening(path + "/live")
        #expect(try await operator_.request(.POST, path + "/end").status == .ok)
        let text = try await listening.value
        #expect(!text.contains("data: {\"forged\":true}"), "\(text)")
        #expect(text.hasPrefix(": listening to \"EVIL\\r\\n\\r\\ndata: {\\\"forged\\\":true}\"\n\n"))
        #expect(text.hasSuffix("event: end\ndata: {\"reason\":\"session ended\"}\n\n"))
    }

    @Test func aStreamWhoseClientLeftIsReleasedAtOnceAndATokenHoldsFewStreams() async throws {
        let live = try LiveFixture(extra: ["--streams-per-token", "2"])
        defer { live.server.stop() }
        let phone = APIClient(server: live.server, token: live.phone)
        let operator_ = APIClient(server: live.server, token: live.admin)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"GONE"}"#)
        var listeners: [Task<String, any Error>] = []
        for _ in 0..<2 {
            listeners.append(await operator_.listening("/v1/sessions/GONE/live"))
        }
        #expect(try await Self.streams(operator_) == 2)
        let third = try await operator_.request(.GET, "/v1/sessions/GONE/live")
        #expect(third.status == .tooManyRequests && third.body.contains("2 live streams open"))
        // Both clients go away without a word: the server lets go long before a heartbeat (15 s).
        for listener in listeners { listener.cancel() }
        let start = Date()
        var left = try await Self.streams(operator_)
        while left > 0, Date().timeIntervalSince(start) < 5 {
            try await Task.sleep(for: .milliseconds(20))
            left = try await Self.streams(operator_)
        }
        #expect(left == 0, "streams still held \(Date().timeIntervalSince(start)) s after their clients left")
    }

    @Test func aStreamEndsWhenItsTokenIsRevoked() async throws {
        let live = try LiveFixture(extra: ["--heartbeat", "0.2"])
        defer { live.server.stop() }
        let phone = APIClient(server: live.server, token: live.phone)
        let operator_ = APIClient(server: live.server, token: live.admin)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"REVOKE"}"#)
        let listening = await operator_.listening("/v1/sessions/REVOKE/live")
        // The operator's token is revoked from the command line while the stream is open.
        let list = await try ToolRunner.run(["token", "list", "--db", live.db]).standardOutput
        let adminID = try #require(list.split(separator: "\n").first { $0.contains("\tadmin\t") }?.split(separator: "\t").first)
        let revoked = await try ToolRunner.run(["token", "revoke", "--db", live.db, String(adminID)])
        #expect(revoked.status == 0, "\(revoked.standardError)")
        let text = try await listening.value
        #expect(text.hasSuffix("event: end\ndata: {\"reason\":\"token revoked or expired\"}\n\n"))
    }

    @Test func sigtermStopsTheServerWithinTwoSecondsWithOpenStreams() async throws {
        let live = try LiveFixture()
        let phone = APIClient(server: live.server, token: live.phone)
        let operator_ = APIClient(server: live.server, token: live.admin)
        _ = try await phone.request(.POST, "/v1/sessions", body: #"{"id":"STOP"}"#)
        let listening = await operator_.listening("/v1/sessions/STOP/live")
        let seconds = live.server.terminate(within: 10)
        #expect(seconds != nil, "the server still ran 10 s after SIGTERM")
        #expect((seconds ?? 10) < 2, "stopped after \(seconds ?? 10) s")
        let text = try await listening.value
        #expect(text.hasSuffix("event: end\ndata: {\"reason\":\"server stopping\"}\n\n"))
    }

    @Test func aConnectionThatSaysNothingIsClosed() throws {
        let live = try LiveFixture(extra: ["--idle-timeout", "1"])
        defer { live.server.stop() }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(live.server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        // Wait at most 10 s for the server to hang up; recv() returns 0 when it does.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let start = Date()
        var byte: UInt8 = 0
        let received = recv(socket, &byte, 1, 0)
        #expect(received == 0, "the idle connection was not closed (recv \(received))")
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// Open live streams, from `GET /v1/stats`.
    static func streams(_ client: APIClient) async throws -> Int {
        try #require(try await client.request(.GET, "/v1/stats").json?["liveStreams"] as? Int)
    }
}
