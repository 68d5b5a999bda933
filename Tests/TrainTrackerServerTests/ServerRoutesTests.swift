import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// The server's API in process, without sockets: who may do what, what a batch stores and
/// answers, and the limits.
@Suite struct ServerRoutesTests {
    /// A server on the demonstration network with one admin and two devices.
    struct Fixture: Sendable {
        let directory: TemporaryDirectory
        let store: SessionDatabase
        let admin: String
        let phone: String
        let otherPhone: String
        var settings: ServerSettings

        init(limits: UploadLimits = UploadLimits()) throws {
            directory = try TemporaryDirectory()
            store = try SessionDatabase.openStore(path: directory.path("sessions.sqlite"))
            let now = Timestamp(secondsSince1970: 1_758_500_000)
            admin = try AccessTokens.create(AccessGrant(role: .admin, name: "ops"), in: store, at: now)
            phone = try AccessTokens.create(AccessGrant(role: .device, name: "phone-1"), in: store, at: now)
            otherPhone = try AccessTokens.create(AccessGrant(role: .device, name: "phone-2"), in: store, at: now)
            settings = ServerSettings(
                dataset: TransitDataset(network: DemoNetwork.make()), store: store,
                configuration: RemoteConfiguration(limits: limits))
        }
    }

    static func ride() throws -> [Location] {
        try JourneySimulator(network: DemoNetwork.make()).journey(
            on: DemoNetwork.localID, from: "Demo.Local.Minato", to: "Demo.Local.Midori",
            start: Timestamp(secondsSince1970: 1_758_520_000))
    }

    static func body(_ locations: [Location], from first: Int = 0, prefix: String = "fix") -> ByteBuffer {
        let items = locations.enumerated().map { offset, location in
            """
            {"id":"\(prefix)-\(first + offset)","latitude":\(location.coordinate.latitude),"longitude":\(location.coordinate.longitude),\
            "timestamp":"\(location.timestamp.iso8601)","horizontalAccuracy":\(location.horizontalAccuracy ?? 10),\
            "speed":\(location.speed ?? -1),"course":\(location.course ?? -1)}
            """
        }
        return ByteBuffer(string: "{\"locations\":[\(items.joined(separator: ","))]}")
    }

    static func headers(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }

    static func object(_ body: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
    }

    @Test func aPhoneCreatesASessionUploadsFixesAndGetsTheAnswer() async throws {
        let fixture = try Fixture()
        let ride = try Self.ride()
        try await buildApplication(fixture.settings).test(.router) { client in
            try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"S1"}"#)
            ) { response in
                #expect(response.status == .created)
                let object = try Self.object(response.body)
                #expect(object["id"] as? String == "S1")
            }
            var last: [String: Any] = [:]
            for start in stride(from: 0, to: ride.count, by: 50) {
                let batch = Array(ride[start..<min(ride.count, start + 50)])
                try await client.execute(
                    uri: "/v1/sessions/S1/locations", method: .post, headers: Self.headers(fixture.phone),
                    body: Self.body(batch, from: start)
                ) { response in
                    #expect(response.status == .ok)
                    last = try Self.object(response.body)
                }
            }
            #expect(last["accepted"] as? Int == ride.count - (ride.count - 1) / 50 * 50)
            let result = try #require(last["result"] as? [String: Any])
            #expect(result["railway"] as? String == DemoNetwork.localID)
            #expect(result["locationID"] as? String == "fix-\(ride.count - 1)")
        }
        #expect(try fixture.store.fixes(sessionID: "S1").fixes.count == ride.count)
    }

    @Test func aRetriedBatchStoresNothingTwice() async throws {
        let fixture = try Fixture()
        let ride = Array(try Self.ride().prefix(40))
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"S1"}"#))
            for attempt in 0..<2 {
                try await client.execute(
                    uri: "/v1/sessions/S1/locations", method: .post, headers: Self.headers(fixture.phone), body: Self.body(ride)
                ) { response in
                    let outcome = try Self.object(response.body)
                    #expect(outcome["accepted"] as? Int == (attempt == 0 ? 40 : 0))
                    #expect(outcome["duplicates"] as? Int == (attempt == 0 ? 0 : 40))
                }
            }
        }
        #expect(try fixture.store.rawFixes(sessionID: "S1").count == 40)
    }

    @Test func fixesArrivingOutOfOrderGiveTheSameAnswerAsInOrder() async throws {
        let fixture = try Fixture()
        let ride = try Self.ride()
        let half = ride.count / 2
        let answers = try await buildApplication(fixture.settings).test(.router) { client in
            var answers: [String] = []
            for (session, order) in [("ordered", [0, half]), ("shuffled", [half, 0])] {
                _ = try await client.execute(
                    uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                    body: ByteBuffer(string: "{\"id\":\"\(session)\"}"))
                var last: [String: Any] = [:]
                for start in order {
                    let batch = Array(ride[start..<(start == 0 ? half : ride.count)])
                    try await client.execute(
                        uri: "/v1/sessions/\(session)/locations", method: .post, headers: Self.headers(fixture.phone),
                        body: Self.body(batch, from: start, prefix: session)
                    ) { response in last = try Self.object(response.body) }
                }
                let result = try #require(last["result"] as? [String: Any])
                let fix = (result["locationID"] as? String)?.split(separator: "-").last ?? ""
                answers.append("\(fix) \(result["station"] ?? "") \(result["phase"] ?? "")")
            }
            return answers
        }
        #expect(answers.count == 2 && answers[0] == answers[1], "the late half is replayed in time order")
    }

    @Test func malformedFixesAreSkippedAndCountedNotTheBatch() async throws {
        let fixture = try Fixture()
        let body = ByteBuffer(
            string: """
                {"locations":[
                 {"id":"good","latitude":35.6,"longitude":139.6,"timestamp":"2025-09-22T05:00:00Z","speed":0},
                 {"id":"bad-latitude","latitude":"north","longitude":139.6,"timestamp":"2025-09-22T05:00:01Z"},
                 {"id":"bad-time","latitude":35.6,"longitude":139.6,"timestamp":"yesterday"},
                 {"latitude":35.6,"longitude":139.6,"timestamp":"2025-09-22T05:00:02Z"},
                 {"id":"off-the-globe","latitude":135.6,"longitude":139.6,"timestamp":"2025-09-22T05:00:03Z"},
                 42
                ]}
                """)
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"S1"}"#))
            try await client.execute(
                uri: "/v1/sessions/S1/locations", method: .post, headers: Self.headers(fixture.phone), body: body
            ) { response in
                #expect(response.status == .ok)
                let outcome = try Self.object(response.body)
                #expect(outcome["accepted"] as? Int == 1)
                #expect(outcome["skipped"] as? Int == 5)
            }
        }
    }

    @Test func motionActivitiesAreStoredOnceAndMalformedOnesCounted() async throws {
        let fixture = try Fixture()
        let body = ByteBuffer(
            string: """
                {"motionActivities":[
                 {"id":"m1","startDate":"2025-09-22T05:00:00Z","confidence":"high","automotive":true},
                 {"id":"m2","startDate":"2025-09-22T05:01:00Z","confidence":"medium","walking":true,"stationary":"no"},
                 {"id":"m3","startDate":"soon","confidence":"high"},
                 {"id":"m4","startDate":"2025-09-22T05:02:00Z","confidence":"certain"}
                ]}
                """)
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"S1"}"#))
            for attempt in 0..<2 {
                try await client.execute(
                    uri: "/v1/sessions/S1/motion-activities", method: .post, headers: Self.headers(fixture.phone), body: body
                ) { response in
                    #expect(response.status == .ok)
                    let outcome = try Self.object(response.body)
                    #expect(outcome["accepted"] as? Int == (attempt == 0 ? 2 : 0))
                    #expect(outcome["duplicates"] as? Int == (attempt == 0 ? 0 : 2))
                    #expect(outcome["skipped"] as? Int == 2)
                }
            }
        }
        let stored = try fixture.store.motionActivities(sessionID: "S1")
        #expect(stored.map(\.id) == ["m1", "m2"])
        #expect(stored.first?.automotive == true && stored.last?.walking == true && stored.last?.stationary == false)
    }

    @Test func aDeviceTokenWritesOnlyItsOwnSessionsAndReadsNothing() async throws {
        let fixture = try Fixture()
        let ride = Array(try Self.ride().prefix(5))
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"S1"}"#))
            // Another phone may not write to it, nor take its id.
            try await client.execute(
                uri: "/v1/sessions/S1/locations", method: .post, headers: Self.headers(fixture.otherPhone), body: Self.body(ride)
            ) { response in #expect(response.status == .forbidden) }
            try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.otherPhone),
                body: ByteBuffer(string: #"{"id":"S1"}"#)
            ) { response in #expect(response.status == .conflict) }
            // No device reads, not even its own session.
            for path in ["/v1/sessions", "/v1/sessions/S1/results", "/v1/sessions/S1/live", "/v1/sessions/S1/network"] {
                try await client.execute(uri: path, method: .get, headers: Self.headers(fixture.phone)) { response in
                    #expect(response.status == .forbidden, "\(path)")
                    #expect(String(buffer: response.body).contains("a device token can only write its own sessions"))
                }
            }
            // Without a token, or with a made-up one, nothing at all.
            try await client.execute(uri: "/v1/config", method: .get) { response in #expect(response.status == .unauthorized) }
            try await client.execute(uri: "/v1/sessions", method: .get, headers: Self.headers("tt_made_up")) { response in
                #expect(response.status == .unauthorized)
            }
            // The admin reads.
            try await client.execute(uri: "/v1/sessions", method: .get, headers: Self.headers(fixture.admin)) { response in
                #expect(response.status == .ok)
                let sessions = try #require(try Self.object(response.body)["sessions"] as? [[String: Any]])
                #expect(sessions.map { $0["id"] as? String } == ["S1"])
            }
            try await client.execute(uri: "/v1/sessions/NOPE/results", method: .get, headers: Self.headers(fixture.admin)) {
                response in #expect(response.status == .notFound)
            }
        }
    }

    @Test func tokensAreStoredOnlyAsHashes() throws {
        let fixture = try Fixture()
        let text = try String(contentsOfFile: fixture.directory.path("sessions.sqlite"), encoding: .isoLatin1)
        for token in [fixture.admin, fixture.phone] {
            #expect(!text.contains(token))
            #expect(
                try fixture.store.grant(tokenHash: AccessTokens.hash(token), at: Timestamp(secondsSince1970: 1_758_500_001))
                    != nil)
        }
    }

    @Test func batchesAndBodiesOverTheLimitsAreRefusedWithTheReason() async throws {
        let fixture = try Fixture(limits: UploadLimits(maximumBatch: 10, maximumBodyBytes: 4_096))
        let ride = try Self.ride()
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: #"{"id":"S1"}"#))
            try await client.execute(
                uri: "/v1/sessions/S1/locations", method: .post, headers: Self.headers(fixture.phone),
                body: Self.body(Array(ride.prefix(11)))
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("batch of 11 locations exceeds the limit of 10"))
            }
            try await client.execute(
                uri: "/v1/sessions/S1/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: "{\"locations\":[],\"padding\":\"" + String(repeating: "x", count: 5_000) + "\"}")
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("exceeds the limit of 4096 bytes"))
            }
            try await client.execute(
                uri: "/v1/sessions/S1/locations", method: .post, headers: Self.headers(fixture.phone),
                body: ByteBuffer(string: "not json")
            ) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("body is not JSON"))
            }
        }
        #expect(try fixture.store.rawFixes(sessionID: "S1").isEmpty, "nothing of a refused batch is stored")
    }

    @Test func theConfigurationCarriesTheTrackingThresholdsAndTheLimits() async throws {
        let fixture = try Fixture(limits: UploadLimits(maximumBatch: 250, maximumBodyBytes: 65_536))
        try await buildApplication(fixture.settings).test(.router) { client in
            try await client.execute(uri: "/v1/config", method: .get, headers: Self.headers(fixture.phone)) { response in
                let config = try Self.object(response.body)
                let upload = try #require(config["upload"] as? [String: Any])
                #expect(upload["maximumBatch"] as? Int == 250)
                let tracking = try #require(config["tracking"] as? [String: Any])
                let thresholds = try #require(tracking["thresholds"] as? [String: Any])
                #expect(thresholds["startedTravellingDistance"] as? Int == 250)
            }
        }
    }

    @Test func aConfigurationFileThatIsNotAJSONObjectIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("config.json")
        try "[1, 2]".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ServerError.badConfiguration(path: path, problem: "not a JSON object")) {
            try RemoteConfiguration(path: path, limits: UploadLimits())
        }
        #expect(throws: ServerError.badConfiguration(path: directory.path("none.json"), problem: "no such file")) {
            try RemoteConfiguration(path: directory.path("none.json"), limits: UploadLimits())
        }
    }

    @Test func aRecorderFileIsServedAsItIs() throws {
        // A file written in the Eki session schema (as the iOS recorder does) opens as the store.
        let directory = try TemporaryDirectory()
        let path = directory.path("recorded.sqlite")
        let recorded = try SessionDatabase.create(path: path)
        let ride = Array(try Self.ride().prefix(20))
        try recorded.insert(
            Session(id: "REC", startDate: ride[0].timestamp),
            fixes: ride.enumerated().map { RecordedFix(id: "r\($0.offset)", location: $0.element) })
        let store = try SessionDatabase.openStore(path: path)
        #expect(try store.sessions().map(\.session.id) == ["REC"])
        #expect(try store.fixes(sessionID: "REC").fixes.count == 20)
        // And stays readable by the tools that read recorder files.
        #expect(try SessionDatabase.open(path: path).sessions().first?.locationCount == 20)
    }
}
