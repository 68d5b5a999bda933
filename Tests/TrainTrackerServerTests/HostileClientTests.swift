import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerStorage
import TrainTrackerTestSupport

/// What an attacker with a device token, or a careless phone, sends: the server answers each
/// with a reason and keeps serving everyone else.
@Suite struct HostileClientTests {
    typealias Fixture = ServerRoutesTests.Fixture
    static let headers = ServerRoutesTests.headers
    static let object = ServerRoutesTests.object

    static func create(_ client: some TestClientProtocol, _ token: String, id: String) async throws {
        try await client.execute(
            uri: "/v1/sessions", method: .post, headers: headers(token), body: ByteBuffer(string: "{\"id\":\"\(id)\"}")
        ) { response in #expect(response.status == .created, "\(String(buffer: response.body))") }
    }

    static func upload(_ client: some TestClientProtocol, _ token: String, session: String, _ items: [String]) async throws
        -> [String: Any]
    {
        try await client.execute(
            uri: "/v1/sessions/\(session)/locations", method: .post, headers: headers(token),
            body: ByteBuffer(string: "{\"locations\":[" + items.joined(separator: ",") + "]}")
        ) { response in
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            return try object(response.body)
        }
    }

    /// The demonstration ride's fixes as upload items, ids `prefix-N`.
    static func items(_ locations: [Location], prefix: String) -> [String] {
        locations.enumerated().map { index, location in
            "{\"id\":\"\(prefix)-\(index)\",\"latitude\":\(location.coordinate.latitude),"
                + "\"longitude\":\(location.coordinate.longitude),\"timestamp\":\"\(location.timestamp.iso8601)\","
                + "\"horizontalAccuracy\":10,\"speed\":\(location.speed ?? -1),\"course\":\(location.course ?? -1)}"
        }
    }

    @Test func aFixWithAnAbsurdSpeedIsSkippedAndTheSessionStillOpensAfterARestart() async throws {
        let fixture = try Fixture()
        let ride = Array(try ServerRoutesTests.ride().prefix(60))
        var fast = Self.items(ride, prefix: "fix")
        fast[30] = fast[30].replacingOccurrences(of: "\"speed\":", with: "\"speed\":1e20,\"ignored\":")
        let items = fast
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "FAST")
            let outcome = try await Self.upload(client, fixture.phone, session: "FAST", items)
            #expect(outcome["accepted"] as? Int == 59)
            let skipped = try #require(outcome["skippedFixes"] as? [[String: Any]])
            #expect(skipped.count == 1)
            #expect(skipped.first?["id"] as? String == "fix-30" && skipped.first?["index"] as? Int == 30)
            #expect(skipped.first?["reason"] as? String == "speed out of range")
        }
        // A store that holds such a fix anyway (written before this check, or by another tool)
        // opens after a restart: the tracker is rebuilt from it and the session reads back.
        try fixture.store.insert(
            Session(id: "OLD", startDate: ride[0].timestamp),
            fixes: ride.enumerated().map { index, location in
                var fast = location
                fast.speed = index == 30 ? 1e20 : location.speed
                return RecordedFix(id: "old-\(index)", location: fast)
            })
        try await buildApplication(fixture.settings).test(.router) { client in
            for session in ["FAST", "OLD"] {
                try await client.execute(
                    uri: "/v1/sessions/\(session)/results", method: .get, headers: Self.headers(fixture.admin)
                ) { response in
                    #expect(response.status == .ok)
                    let results = try Self.object(response.body)
                    #expect((results["fixes"] as? [Any])?.count == 59)
                }
            }
        }
    }

    @Test func theSameFixIDInTwoDevicesSessionsIsTwoFixes() async throws {
        let fixture = try Fixture()
        let ride = Array(try ServerRoutesTests.ride().prefix(10))
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "A")
            try await Self.create(client, fixture.otherPhone, id: "B")
            // Device B uploads A's fix ids first: A's fixes are still A's, and B learns nothing.
            let taken = try await Self.upload(client, fixture.otherPhone, session: "B", Self.items(ride, prefix: "uuid"))
            #expect(taken["accepted"] as? Int == 10)
            let outcome = try await Self.upload(client, fixture.phone, session: "A", Self.items(ride, prefix: "uuid"))
            #expect(outcome["accepted"] as? Int == 10 && outcome["duplicates"] as? Int == 0)
            // A retry of A's own batch is a duplicate, as before.
            let retried = try await Self.upload(client, fixture.phone, session: "A", Self.items(ride, prefix: "uuid"))
            #expect(retried["accepted"] as? Int == 0 && retried["duplicates"] as? Int == 10)
        }
        for session in ["A", "B"] {
            #expect(try fixture.store.rawFixes(sessionID: session).map(\.id) == (0..<10).map { "uuid-\($0)" })
        }
        // The file keeps the Eki schema: the tools that read recorder files read it.
        let reopened = try SessionDatabase.open(path: fixture.directory.path("sessions.sqlite"))
        #expect(try reopened.sessions().map(\.locationCount) == [10, 10])
    }

    @Test func sessionIDsThatCouldBreakAHeaderOrAStreamAreRefused() async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            for id in ["A\\r\\ndata: {\\\"forged\\\":true}", "a b", "a/b", String(repeating: "x", count: 129), ""] {
                try await client.execute(
                    uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                    body: ByteBuffer(string: "{\"id\":\"\(id)\"}")
                ) { response in
                    #expect(response.status == .badRequest, "\(id)")
                    #expect(String(buffer: response.body).contains("session id must be 1 to 128"))
                }
            }
        }
        #expect(try fixture.store.sessions().isEmpty)
    }

    @Test func overlongFixIDsAreSkippedWithTheReason() async throws {
        let fixture = try Fixture()
        let ride = Array(try ServerRoutesTests.ride().prefix(3))
        var long = Self.items(ride, prefix: "f")
        long[1] = long[1].replacingOccurrences(of: "\"f-1\"", with: "\"" + String(repeating: "y", count: 100_000) + "\"")
        let items = long
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "LONG")
            let outcome = try await Self.upload(client, fixture.phone, session: "LONG", items)
            #expect(outcome["accepted"] as? Int == 2)
            let skipped = try #require((outcome["skippedFixes"] as? [[String: Any]])?.first)
            #expect(skipped["reason"] as? String == "id too long" && skipped["index"] as? Int == 1)
            #expect(skipped["id"] is NSNull, "an overlong id is not echoed back")
        }
    }

    @Test func timesComeAsISO8601TheEkiFormOrEpochSecondsAndMillisecondsAndEachSkipSaysWhy() async throws {
        let fixture = try Fixture()
        let base = Timestamp(parsing: "2025-09-22T05:00:00Z") ?? Timestamp(secondsSince1970: 0)
        let times = [
            "\"2025-09-22T14:00:00+09:00\"", "\"2025-09-22 05:00:01.000\"", "\(base.secondsSince1970 + 2)",
            "\(Int((base.secondsSince1970 + 3) * 1000))", "\"2025-09-22T05:00:04+99:99\"", "1e20", "true", "\"soon\"",
        ]
        let items = times.enumerated().map { index, time in
            "{\"id\":\"t\(index)\",\"latitude\":35.6,\"longitude\":139.6,\"timestamp\":\(time)}"
        }
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "TIMES")
            let outcome = try await Self.upload(client, fixture.phone, session: "TIMES", items)
            #expect(outcome["accepted"] as? Int == 4)
            let reasons = (outcome["skippedFixes"] as? [[String: Any]] ?? []).map { "\($0["id"] ?? "") \($0["reason"] ?? "")" }
            #expect(
                reasons == [
                    "t4 unreadable timestamp", "t5 timestamp out of range", "t6 unreadable timestamp", "t7 unreadable timestamp",
                ])
        }
        let stored = try fixture.store.fixes(sessionID: "TIMES").fixes.map(\.location.timestamp)
        #expect(stored == (0..<4).map { base.adding(Double($0)) })
    }

    @Test func durationsComeFromTheFixesNotTheServerClock() async throws {
        let fixture = try Fixture()
        // Created without a start date (the server's clock: today), fixes from 2025.
        let ride = Array(try ServerRoutesTests.ride().prefix(120))
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "CLOCKS")
            _ = try await Self.upload(client, fixture.phone, session: "CLOCKS", Self.items(ride, prefix: "c"))
            try await client.execute(uri: "/v1/sessions/CLOCKS/end", method: .post, headers: Self.headers(fixture.phone)) {
                response in #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/sessions", method: .get, headers: Self.headers(fixture.admin)) { response in
                let session = try #require((try Self.object(response.body)["sessions"] as? [[String: Any]])?.first)
                let duration = try #require(session["duration"] as? Double)
                #expect(abs(duration - ride[ride.count - 1].timestamp.seconds(since: ride[0].timestamp)) < 0.01)
                #expect(session["endDate"] as? String == ride[ride.count - 1].timestamp.iso8601)
                // It starts at its first fix, not when the server heard of it.
                #expect(session["startDate"] as? String == ride[0].timestamp.iso8601)
            }
        }
    }

    @Test func aFieldOfTheWrongTypeOrANumberNoDoubleHoldsIsSkippedNamingIt() async throws {
        let fixture = try Fixture()
        let good = "\"latitude\":35.6,\"longitude\":139.6,\"timestamp\":\"2025-09-22T05:00:0"
        let items = [
            "{\"id\":\"w0\",\(good)0Z\",\"speed\":1e400}", "{\"id\":\"w1\",\(good)1Z\",\"speed\":\"12\"}",
            "{\"id\":5,\(good)2Z\"}",
            "{\"id\":\"w3\",\"latitude\":\"35.6\",\"longitude\":139.6,\"timestamp\":\"2025-09-22T05:00:03Z\"}",
            "{\"id\":\"w4\",\(good)4Z\",\"course\":-1e999}", "{\"id\":\"w5\",\(good)5Z\",\"speed\":null}",
        ]
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "TYPES")
            let outcome = try await Self.upload(client, fixture.phone, session: "TYPES", items)
            // Only the fix whose speed is null (no speed) is taken.
            #expect(outcome["accepted"] as? Int == 1)
            let skipped = (outcome["skippedFixes"] as? [[String: Any]] ?? []).map {
                "\($0["index"] ?? "") \($0["field"] ?? "") \($0["reason"] ?? "")"
            }
            #expect(
                skipped == [
                    "0 speed speed out of range", "1 speed wrong type", "2 id wrong type", "3 latitude wrong type",
                    "4 course course out of range",
                ], "\(skipped)")
        }
    }

    @Test func refusedRequestsAreLoggedAndCountedByStatusNeverWithTheToken() async throws {
        var logged = try Fixture()
        let lines = LogLines()
        logged.settings.logHandler = { _ in lines }
        let fixture = logged
        let settings = fixture.settings
        let wrongToken = "tt_" + String(repeating: "f", count: 40)
        try await buildApplication(settings).test(.router) { client in
            try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(wrongToken), body: ByteBuffer(string: "{}")
            ) {
                response in #expect(response.status == .unauthorized)
            }
            for _ in 0..<2 {
                try await client.execute(
                    uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                    body: ByteBuffer(string: "{\"id\":5}")
                ) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains("wrong type at 'id'"))
                }
            }
            try await client.execute(uri: "/metrics", method: .get, headers: Self.headers(fixture.admin)) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("traintracker_rejected_requests_total{status=\"401\"} 1"), "\(text)")
                #expect(text.contains("traintracker_rejected_requests_total{status=\"400\"} 2"))
            }
        }
        let refused = lines.all.filter { $0.contains("request refused") }
        #expect(refused.count == 3, "\(lines.all)")
        #expect(refused.allSatisfy { $0.contains("hb.request.id=") && $0.contains("path=/v1/sessions") })
        #expect(refused.filter { $0.contains("status=400") && $0.contains("wrong type at 'id'") }.count == 2)
        #expect(refused.contains { $0.contains("status=401") })
        #expect(!lines.all.contains { $0.contains(wrongToken) || $0.contains(fixture.phone) })
    }

    @Test func aDeviceMayHoldOnlySoManyOpenSessions() async throws {
        var limited = try Fixture()
        limited.settings.limits.openSessionsPerDevice = 3
        let fixture = limited
        try await buildApplication(fixture.settings).test(.router) { client in
            for index in 0..<3 { try await Self.create(client, fixture.phone, id: "OPEN-\(index)") }
            try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone), body: ByteBuffer(string: "{}")
            ) { response in
                #expect(response.status == .tooManyRequests)
                #expect(String(buffer: response.body).contains("this device has 3 open sessions"))
            }
            // Another device is not held back, and ending a session makes room.
            try await Self.create(client, fixture.otherPhone, id: "OTHER")
            _ = try await client.execute(uri: "/v1/sessions/OPEN-0/end", method: .post, headers: Self.headers(fixture.phone))
            try await Self.create(client, fixture.phone, id: "OPEN-3")
        }
    }

    @Test func aBearerTokenIsTakenInAnyCaseAndAMalformedOneIsNamed() async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            for scheme in ["Bearer", "bearer", "BEARER"] {
                try await client.execute(
                    uri: "/v1/config", method: .get, headers: [.authorization: "\(scheme) \(fixture.phone)"]
                ) { response in #expect(response.status == .ok, "\(scheme)") }
            }
            for header in ["Basic abc", "Bearer", "Bearer tt_" + String(repeating: "g", count: 64), "Bearer \(fixture.phone)x"] {
                try await client.execute(uri: "/v1/config", method: .get, headers: [.authorization: header]) { response in
                    #expect(response.status == .unauthorized, "\(header)")
                }
            }
        }
    }

    @Test func everyAnswerCarriesTheSecurityHeadersErrorsToo() async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            for (path, token, status) in [
                ("/", nil, HTTPResponse.Status.ok), ("/v1/sessions", nil, .unauthorized),
                ("/v1/sessions", fixture.phone, .forbidden), ("/v1/sessions/NONE/results", fixture.admin, .notFound),
                ("/nowhere", fixture.admin, .notFound),
            ] {
                try await client.execute(uri: path, method: .get, headers: token.map(Self.headers) ?? [:]) { response in
                    #expect(response.status == status, "\(path)")
                    let policy = response.headers[.contentSecurityPolicy] ?? ""
                    #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(path)")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                    #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(path)")
                    #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(path)")
                }
            }
        }
    }

    @Test func anEndedSessionTakesNoMoreFixesAndADeviceCreatesOnlySoManyADay() async throws {
        var limited = try Fixture()
        limited.settings.limits.sessionsPerDevicePerDay = 2
        let fixture = limited
        let ride = Array(try ServerRoutesTests.ride().prefix(5))
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "DAY-1")
            _ = try await client.execute(uri: "/v1/sessions/DAY-1/end", method: .post, headers: Self.headers(fixture.phone))
            try await client.execute(
                uri: "/v1/sessions/DAY-1/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ServerRoutesTests.body(ride)
            ) { response in
                #expect(response.status == .conflict)
                #expect(String(buffer: response.body).contains("session DAY-1 has ended"))
            }
            // Creating and ending in a loop does not get round the open-session cap.
            try await Self.create(client, fixture.phone, id: "DAY-2")
            _ = try await client.execute(uri: "/v1/sessions/DAY-2/end", method: .post, headers: Self.headers(fixture.phone))
            try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone), body: ByteBuffer(string: "{}")
            ) { response in
                #expect(response.status == .tooManyRequests)
                #expect(String(buffer: response.body).contains("created 2 sessions in the last 24 hours"))
            }
        }
    }

    @Test func aSessionHoldsOnlySoManyFixesAndAHugeBatchIsCountedNotDecoded() async throws {
        var limited = try Fixture()
        limited.settings.limits.fixesPerSession = 50
        let fixture = limited
        let ride = Array(try ServerRoutesTests.ride().prefix(80))
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "FULL")
            _ = try await Self.upload(client, fixture.phone, session: "FULL", Self.items(Array(ride.prefix(40)), prefix: "a"))
            try await client.execute(
                uri: "/v1/sessions/FULL/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(
                    string: "{\"locations\":[" + Self.items(Array(ride.suffix(40)), prefix: "b").joined(separator: ",") + "]}")
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("session FULL holds 40 fixes; a session holds at most 50"))
            }
            // 300,000 empty items in one megabyte: refused with the count, each item costing nothing.
            let body = "{\"locations\":[" + Array(repeating: "{}", count: 300_000).joined(separator: ",") + "]}"
            try await client.execute(
                uri: "/v1/sessions/FULL/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("batch of 300000 locations exceeds the limit of 1000"))
            }
        }
        #expect(try fixture.store.rawFixes(sessionID: "FULL").count == 40)
    }

    @Test func theViewerCookieOpensReadsOnly() async throws {
        let fixture = try Fixture()
        try await buildApplication(fixture.settings).test(.router) { client in
            try await Self.create(client, fixture.phone, id: "KEEP")
            let cookie = try await client.execute(uri: "/v1/login", method: .post, headers: Self.headers(fixture.admin)) {
                response in String(response.headers[.setCookie]?.split(separator: ";").first ?? "")
            }
            try await client.execute(uri: "/v1/sessions", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok)
            }
            // A page on the same site posting with the cookie changes nothing.
            try await client.execute(uri: "/v1/sessions/KEEP/end", method: .post, headers: [.cookie: cookie]) { response in
                #expect(response.status == .unauthorized)
            }
            #expect(try fixture.store.hasEnded("KEEP") == false)
        }
    }
}

/// A log handler that keeps every line (level, message and metadata as `key=value`), for a
/// test to read what the server logged.
final class LogLines: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    /// Every line so far.
    var all: [String] { lock.withLock { lines } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let text = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        lock.withLock { lines.append("\(event.level) \(event.message) \(text)") }
    }
}
