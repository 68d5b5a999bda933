import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerRealtime
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab
@testable import TrainTrackerServer

/// Riders as sensors on Caltrain's recorded day: two phones carry a recorded train's positions,
/// the server publishes that train (its trip, delay, position and next stops) and tells each
/// rider's tracker what the other's found.
@Suite(.serialized, .tags(.sharedData, .slow), .timeLimit(.minutes(10))) struct RealtimeRoutesTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        private let time: Mutex<Timestamp>
        init(_ start: Timestamp) { time = Mutex(start) }
        var now: Timestamp { time.withLock { $0 } }
        func set(_ value: Timestamp) { time.withLock { $0 = value } }
    }

    static let dataset = Result { try GTFSImporter.load(path: SharedPaths.caltrain2024) }
    static let model = Result { TrackerModel(dataset: try dataset.get()) }
    /// A weekday ride of at least 40 fixes whose train ran more than 3 minutes late at its 30th fix.
    static let ride = Result { () throws -> (fixes: [RecordedFix], truth: CaseTruth, delay: Seconds) in
        let loaded = try dataset.get()
        let model = try RealtimeRoutesTests.model.get()
        let recording = try VehiclePositionRecording.read(path: SharedPaths.caltrainRecording, zone: loaded.timetable.zone)
        let rides = RecordedRides(positions: recording.positions, dataset: loaded)
        for ride in rides.cases where ride.fixes.count >= 40 {
            let fix = ride.fixes[29].location
            if let delay = model.delay(ofTrip: ride.truth.trainID, at: fix.coordinate, time: fix.timestamp), delay > 180 {
                return (ride.fixes, ride.truth, delay)
            }
        }
        throw TestFailure("no late ride")
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A server on Caltrain's timetable with an admin, a reader and three phones.
    struct Fixture {
        let directory: TemporaryDirectory
        let admin: String
        let reader: String
        let phones: [String]
        let clock: TestClock
        var settings: ServerSettings

        init(public isPublic: Bool = false) throws {
            directory = try TemporaryDirectory()
            let store = try SessionDatabase.openStore(path: directory.path("sessions.sqlite"))
            let now = Timestamp(secondsSince1970: 1_758_500_000)
            admin = try AccessTokens.create(AccessGrant(role: .admin, name: "ops"), in: store, at: now)
            reader = try AccessTokens.create(AccessGrant(role: .reader, name: "transit-app"), in: store, at: now)
            phones = try (1...3).map {
                try AccessTokens.create(AccessGrant(role: .device, name: "phone-\($0)"), in: store, at: now)
            }
            let clock = TestClock(now)
            self.clock = clock
            settings = ServerSettings(
                model: try RealtimeRoutesTests.model.get(), store: store,
                configuration: RemoteConfiguration(limits: UploadLimits()))
            settings.realtime.isPublic = isPublic
            settings.realtime.clock = { clock.now }
        }
    }

    /// Riders (phone token, session id, first batch) on the same train, uploading `fixes` in
    /// batches of `size` side by side, each from its first batch on, the clock 5 s after each
    /// batch's last fix; each rider's last answer. `afterEach` is given the clock after each
    /// batch.
    static func ride(
        _ fixes: [RecordedFix], riders: [(phone: String, session: String, joins: Int)], clock: TestClock,
        client: some TestClientProtocol, numberedFrom offset: Int = 0, batch size: Int = 10,
        afterEach: (Timestamp) async throws -> Void = { _ in }
    ) async throws -> [[String: Any]] {
        for rider in riders {
            _ = try await client.execute(
                uri: "/v1/sessions", method: .post, headers: ServerRoutesTests.headers(rider.phone),
                body: ByteBuffer(string: "{\"id\":\"\(rider.session)\"}"))
        }
        var results = Array(repeating: [String: Any](), count: riders.count)
        for (index, start) in stride(from: 0, to: fixes.count, by: size).enumerated() {
            let batch = fixes[start..<min(start + size, fixes.count)]
            clock.set(batch.last?.location.timestamp.adding(5) ?? clock.now)
            for (number, rider) in riders.enumerated() where index >= rider.joins {
                let response = try await client.execute(
                    uri: "/v1/sessions/\(rider.session)/locations", method: .post,
                    headers: ServerRoutesTests.headers(rider.phone),
                    body: ServerRoutesTests.body(batch.map(\.location), from: offset + start, prefix: rider.session))
                results[number] = try #require(try ServerRoutesTests.object(response.body)["result"] as? [String: Any])
            }
            try await afterEach(clock.now)
        }
        return results
    }

    @Test func aTrainIsPublishedOnceTwoRidersAgreeWithItsDelayPositionAndNextStops() async throws {
        let fixture = try Fixture()
        let (fixes, truth, delay) = try Self.ride.get()
        let ridden = Array(fixes.prefix(30))
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await Self.ride(
                Array(ridden.prefix(20)), riders: [(fixture.phones[0], "R1", 0)], clock: fixture.clock, client: client, batch: 1)
            let alone = try await Self.feed(client, "trip-updates", token: fixture.reader)
            #expect(alone.trips.isEmpty, "one rider is not enough to publish a train")
            // The second rider boards as the last ten fixes begin, a third five fixes later.
            let answers = try await Self.ride(
                Array(ridden.dropFirst(20)),
                riders: [(fixture.phones[0], "R1", 0), (fixture.phones[1], "R2", 0), (fixture.phones[2], "R3", 5)],
                clock: fixture.clock, client: client, numberedFrom: 20, batch: 1)
            let second = answers[1]
            #expect(second["train"] as? String != nil)
            // Told one other rider's delay, a device is not told that someone else rides its
            // train; with two others (as many as publishing asks), it is.
            #expect(second["delaySource"] == nil, "\(second)")
            #expect(answers[2]["delaySource"] as? String == "other riders", "\(answers[2])")
            let updates = try await Self.feed(client, "trip-updates", token: fixture.reader)
            let trip = try #require(updates.trips.first)
            #expect(updates.trips.count == 1 && trip.tripID == truth.trainID)
            let reported = try #require(trip.delay)
            #expect(abs(reported - delay) < 120, "riders say \(reported) s late, the train ran \(delay) s late")
            let vehicles = try await Self.feed(client, "vehicle-positions", token: fixture.reader)
            let vehicle = try #require(vehicles.vehicles.first)
            #expect(vehicles.vehicles.count == 1 && vehicle.tripID == truth.trainID)
            let last = try #require(ridden.last).location
            #expect(vehicle.coordinate.distance(to: last.coordinate) < 2_000, "the train is where its riders are")
            #expect(!ridden.contains { $0.location.coordinate == vehicle.coordinate }, "a train's position, not a rider's")
        }
    }

    @Test func theFeedCarriesNoRiderAndOnlyReadersAndAdminsReadIt() async throws {
        let fixture = try Fixture()
        let (fixes, _, _) = try Self.ride.get()
        let ridden = Array(fixes.prefix(20))
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await Self.ride(
                ridden, riders: [(fixture.phones[0], "P1", 0), (fixture.phones[1], "P2", 0)], clock: fixture.clock,
                client: client, batch: 1)
            // (The tag changes every `etagPeriod`: asked at its start, two seconds later is in it.)
            let period = RealtimeRoutes.etagPeriod
            fixture.clock.set(
                Timestamp(secondsSince1970: ((fixture.clock.now.secondsSince1970 / period).rounded(.down) + 1) * period))
            for path in ["trip-updates", "vehicle-positions"] {
                let uri = "/v1/realtime/\(path)"
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .unauthorized) }
                try await client.execute(uri: uri, method: .get, headers: ServerRoutesTests.headers(fixture.phones[0])) {
                    #expect($0.status == .forbidden)
                }
                let response = try await client.execute(
                    uri: uri + "?format=json", method: .get, headers: ServerRoutesTests.headers(fixture.admin))
                let text = String(buffer: response.body)
                #expect(response.status == .ok && response.headers[.contentType] == "application/json")
                #expect(text.contains("\"tripId\""), "\(text)")
                for secret in ["P1", "P2", "phone-1", "phone-2", "tt_"] + fixture.phones {
                    #expect(!text.contains(secret), "\(secret) in \(text)")
                }
                let etag = try #require(response.headers[.eTag])
                #expect(response.headers[.cacheControl]?.hasPrefix("private, max-age=") == true)
                var again = ServerRoutesTests.headers(fixture.reader)
                again[.ifNoneMatch] = etag
                try await client.execute(uri: uri + "?format=json", method: .get, headers: again) {
                    #expect($0.status == .notModified)
                }
                // Two seconds on, the trains' delays the same: the feed is made again at a later
                // time, and is still the same (a proxy's weakened tag too).
                if path == "trip-updates" {
                    fixture.clock.set(fixture.clock.now.adding(2))
                    again[.ifNoneMatch] = etag.hasPrefix("W/") ? etag : "W/" + etag
                    try await client.execute(uri: uri + "?format=json", method: .get, headers: again) {
                        #expect($0.status == .notModified)
                    }
                }
                try await client.execute(
                    uri: uri + "?format=xml", method: .get, headers: ServerRoutesTests.headers(fixture.reader)
                ) {
                    #expect($0.status == .badRequest)
                }
            }
            // A reader reads the feed and nothing else.
            for (uri, method) in [("/v1/sessions", HTTPRequest.Method.post), ("/v1/sessions", .get), ("/v1/config", .get)] {
                try await client.execute(uri: uri, method: method, headers: ServerRoutesTests.headers(fixture.reader)) {
                    #expect($0.status == .forbidden, "\(method) \(uri)")
                }
            }
            try await client.execute(uri: "/v1/realtime/trains", method: .get, headers: ServerRoutesTests.headers(fixture.reader))
            {
                #expect($0.status == .forbidden)
            }
            // Told what a reader may read, not what a device may write.
            for uri in ["/v1/sessions", "/metrics"] {
                try await client.execute(uri: uri, method: .get, headers: ServerRoutesTests.headers(fixture.reader)) {
                    #expect($0.status == .forbidden, "\(uri)")
                    #expect(String(buffer: $0.body).contains("a reader token reads only the published feed"), "\(uri)")
                }
            }
        }
    }

    @Test func onePhonesTwoSessionsAreOneRider() async throws {
        let fixture = try Fixture()
        let (fixes, _, _) = try Self.ride.get()
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await Self.ride(
                Array(fixes.prefix(20)), riders: [(fixture.phones[0], "D1", 0), (fixture.phones[0], "D2", 0)],
                clock: fixture.clock, client: client, batch: 1)
            #expect(try await Self.feed(client, "trip-updates", token: fixture.reader).trips.isEmpty)
        }
    }

    @Test func aPublicFeedNeedsNoToken() async throws {
        let fixture = try Fixture(public: true)
        try await buildApplication(fixture.settings).test(.router) { client in
            let response = try await client.execute(uri: "/v1/realtime/trip-updates", method: .get)
            #expect(response.status == .ok && response.headers[.cacheControl]?.hasPrefix("public") == true)
            let reading = try RealtimeFeedReader.read(Array(response.body.readableBytesView), name: "published")
            #expect(reading.feed.trips.isEmpty && reading.feed.timestamp == fixture.clock.now)
            // The admin's map stays an admin's.
            try await client.execute(uri: "/v1/realtime/trains", method: .get) { #expect($0.status == .unauthorized) }
        }
    }

    @Test func theViewersMapShowsRidersTrainsWithTheirDelay() async throws {
        let fixture = try Fixture()
        let (fixes, truth, _) = try Self.ride.get()
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await Self.ride(
                Array(fixes.prefix(30)), riders: [(fixture.phones[0], "V1", 0)], clock: fixture.clock, client: client, batch: 1)
            let response = try await client.execute(
                uri: "/v1/realtime/trains", method: .get, headers: ServerRoutesTests.headers(fixture.admin))
            let trains = try #require(try ServerRoutesTests.object(response.body)["trains"] as? [[String: Any]])
            let train = try #require(trains.first)
            #expect(trains.count == 1 && train["trip"] as? String == truth.trainID)
            #expect(train["source"] as? String == "riders" && train["riders"] as? Int == 1)
            #expect(train["delaySeconds"] as? Double != nil && train["lat"] as? Double != nil)

        }
    }

    static func feed(_ client: some TestClientProtocol, _ path: String, token: String) async throws -> RealtimeFeed {
        let response = try await client.execute(
            uri: "/v1/realtime/\(path)", method: .get, headers: ServerRoutesTests.headers(token))
        #expect(response.status == .ok && response.headers[.contentType] == "application/x-protobuf")
        return try RealtimeFeedReader.read(Array(response.body.readableBytesView), name: path).feed
    }
}
