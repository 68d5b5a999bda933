import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerLab
import TrainTrackerRealtime
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerServer

/// `serve --realtime URL`: an operator's feed polled over HTTP, conditionally, with failures
/// counted and backed off, and its freshness in `/metrics`.
@Suite(.tags(.slow), .timeLimit(.minutes(10))) struct FeedPollerTests {
    static let now = Timestamp(secondsSince1970: 1_758_520_000)

    /// An operator's server: `/feed` (ETag "v1", 304 when asked with it), `/garbage`, `/down`.
    static func operatorServer() -> some ApplicationProtocol {
        let feed = RealtimeFeedWriter.bytes(
            RealtimeFeed(
                timestamp: now.adding(-30),
                trips: [TripReport(tripID: "no-such-trip", delay: 120), TripReport(tripID: "another", cancelled: true)]))
        let router = Router()
        router.get("/feed") { request, _ in
            if request.headers[.ifNoneMatch] == "\"v1\"" { return Response(status: .notModified) }
            return Response(
                status: .ok, headers: [.eTag: "\"v1\"", .contentType: "application/x-protobuf"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: feed)))
        }
        router.get("/garbage") { _, _ in "hello, this is no feed" }
        router.get("/down") { _, _ -> Response in Response(status: .serviceUnavailable) }
        router.get("/moved") { _, _ -> Response in Response(status: .found, headers: [.location: "http://169.254.169.254/"]) }
        let future = RealtimeFeedWriter.bytes(
            RealtimeFeed(timestamp: now.adding(50 * 365 * 86_400), trips: [TripReport(tripID: "101", delay: 600)]))
        router.get("/future") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: future))) }
        // A server that sends its feed a byte every tenth of a second, over and over: never
        // idle, and never done (it stops once the poller hangs up, or after ten minutes, long
        // past the test's time limit: a poll that waited for it would fail the test).
        router.get("/drip") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for index in 0..<6_000 {
                        try await writer.write(ByteBuffer(bytes: [feed[index % feed.count]]))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                })
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func aFeedIsReadThenAskedForConditionallyAndFailuresAreNamedAndCounted() async throws {
        try await Self.operatorServer().test(.live) { client in
            let port = try #require(client.port)
            var realtime = RealtimeSettings()
            realtime.sources = ["feed", "garbage", "down"].map { "http://127.0.0.1:\(port)/\($0)?key=secret" }
            realtime.clock = { Self.now }
            let board = LiveBoard(model: TrackerModel(dataset: TransitDataset(network: DemoNetwork.make())), settings: realtime)
            let poller = FeedPoller(board: board, logger: .init(label: "test"))
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: FeedPoller.clientConfiguration)
            var validators = [FeedPoller.Validators](repeating: .init(), count: 3)
            let first = await poller.pollOnce(source: 0, url: realtime.sources[0], client: http, validators: &validators[0])
            #expect(first == .read(trips: 2, vehicles: 0))
            #expect(validators[0].etag == "\"v1\"")
            let second = await poller.pollOnce(source: 0, url: realtime.sources[0], client: http, validators: &validators[0])
            #expect(second == .unchanged, "the same feed again costs a 304")
            let garbage = await poller.pollOnce(source: 1, url: realtime.sources[1], client: http, validators: &validators[1])
            guard case .failed(.unreadable, let problem) = garbage else { throw FeedPollerFailure("read garbage: \(garbage)") }
            #expect(problem.contains("not a GTFS-realtime feed") && problem.contains("/garbage") && !problem.contains("secret"))
            let down = await poller.pollOnce(source: 2, url: realtime.sources[2], client: http, validators: &validators[2])
            #expect(down == .failed(.status, "HTTP 503"))
            let moved = await poller.pollOnce(
                source: 2, url: "http://127.0.0.1:\(port)/moved", client: http, validators: &validators[2])
            #expect(
                moved
                    == .failed(.status, "HTTP 302: a redirect to another host given by address (169.254.169.254), not followed"),
                "a redirect to a cloud's metadata address is not followed")
            try await http.shutdown()
            let metrics = board.metricsText(at: Self.now)
            let label = "http://127.0.0.1:\(port)"
            for line in [
                "traintracker_realtime_feed_age_seconds{source=\"\(label)/feed\"} 30.0",
                "traintracker_realtime_feed_age_seconds{source=\"\(label)/garbage\"} -1.0",
                "traintracker_realtime_feed_unknown_trips{source=\"\(label)/feed\"} 2.0",
                "traintracker_realtime_feed_off_track_vehicles{source=\"\(label)/feed\"} 0.0",
                "traintracker_realtime_feed_failures{source=\"\(label)/down\"} 2.0",
                "traintracker_realtime_feed_failed_polls_total{source=\"\(label)/down\",reason=\"status\"} 2",
                "traintracker_realtime_feed_failed_polls_total{source=\"\(label)/garbage\",reason=\"unreadable\"} 1",
                "traintracker_realtime_feed_failed_polls_total{source=\"\(label)/feed\",reason=\"status\"} 0",
            ] {
                #expect(metrics.contains(line + "\n"), "\(line) in:\n\(metrics)")
            }
            #expect(!metrics.contains("secret"), "a feed's key never reaches the metrics")
            // A feed for another timetable changes nothing a tracker is told.
            #expect(board.live(for: nil, at: Self.now)?.knownTrips ?? 0 == 0)
        }
    }

    /// A feed dated fifty years ahead (a clock gone wrong) would never age out: it is a failed
    /// poll, not a feed. A server that never finishes its answer fails the poll at its
    /// deadline, however slowly it keeps sending.
    @Test func aFeedFromTheFutureAndAnAnswerThatNeverEndsAreFailures() async throws {
        try await Self.operatorServer().test(.live) { client in
            let port = try #require(client.port)
            var realtime = RealtimeSettings()
            realtime.sources = ["future", "drip"].map { "http://127.0.0.1:\(port)/\($0)" }
            realtime.clock = { Self.now }
            let board = LiveBoard(model: TrackerModel(dataset: TransitDataset(network: DemoNetwork.make())), settings: realtime)
            var poller = FeedPoller(board: board, logger: .init(label: "test"))
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: FeedPoller.clientConfiguration)
            var validators = FeedPoller.Validators()
            let future = await poller.pollOnce(source: 0, url: realtime.sources[0], client: http, validators: &validators)
            guard case .failed(.ahead, let problem) = future else {
                throw FeedPollerFailure("read a feed from the future: \(future)")
            }
            #expect(problem.contains("ahead of this server's clock"), "\(problem)")
            #expect(board.sources[0].feed == nil, "nothing stored")
            // (A short deadline: the drip never ends, however busy the machine.)
            poller.timeout = 1
            let drip = await poller.pollOnce(source: 1, url: realtime.sources[1], client: http, validators: &validators)
            #expect(drip == .failed(.timeout, "no whole answer within 1 s"))
            try await http.shutdown()
        }
    }

    @Test func failuresBackOffDoublingUpToTheLongestWait() {
        var settings = RealtimeSettings()
        settings.pollSeconds = 30
        let waits = (1...7).map { FeedPoller.backoff(failures: $0, settings: settings) }
        #expect(waits == [30, 60, 120, 240, 480, 600, 600])
        #expect(FeedPoller.backoff(failures: 10_000, settings: settings) == 600)
    }

    @Test func aFeedsLabelDropsItsKeyAndCredentials() {
        #expect(
            LiveFeedLabel.label(of: "https://user:pw@api.example.com/gtfsrt/trips?api_key=SECRET")
                == "https://api.example.com/gtfsrt/trips")
        #expect(LiveFeedLabel.label(of: "http://example.com/a@b/feed#x") == "http://example.com/a@b/feed")
        #expect(LiveFeedLabel.label(of: "https://u:p@ss@host.example/feed") == "https://host.example/feed", "a password with @")
    }

    /// A board over the demo rides' timetable, polling `sources` (never fetched here: each test
    /// hands it feeds).
    static func demoBoard(sources: [String] = ["http://example.com/feed"]) -> LiveBoard {
        var realtime = RealtimeSettings()
        realtime.sources = sources
        return LiveBoard(model: TrackerModel(dataset: DemoRides.dataset), settings: realtime)
    }

    /// Each feed read adds its trains' runs into their stops (for arrival times), whether or
    /// not a rider's tracker asked in between: riders are told the run once the train arrived.
    @Test func theBoardKeepsTheRunsItsFeedsShowPollAfterPoll() {
        let board = Self.demoBoard()
        let feeds = DemoRides.feeds(placing: "L1", at: [0, 0.1, 0.4, 0.7, 1.05], from: Self.now)
        for feed in feeds.dropLast() { board.received(feed, source: 0, at: feed.timestamp) }
        let before = feeds[feeds.count - 2].timestamp
        #expect(board.live(for: nil, at: before)?.runs.count == 0, "not arrived yet")
        let last = feeds[feeds.count - 1]
        board.received(last, source: 0, at: last.timestamp)
        #expect(board.live(for: nil, at: last.timestamp)?.runs.count == 1)
        #expect(board.live(for: nil, at: last.timestamp)?.sightings.count ?? 0 > 0)
    }

    /// A feed dated an hour ahead of the server's clock adds no runs or sightings: kept, they
    /// would never age out.
    @Test func aFeedFromTheFutureLeavesNoHistory() {
        let board = Self.demoBoard()
        for feed in DemoRides.feeds(placing: "L1", at: [0, 0.1, 0.4, 0.7, 1.05], from: Self.now.adding(3_600)) {
            board.received(feed, source: 0, at: Self.now)
        }
        #expect(board.live(for: nil, at: Self.now) == nil, "a feed an hour ahead is told to no tracker")
        #expect(!TrainsMap(board: board).json(at: Self.now).contains("L1"), "nor shown on the map")
        // (Asked when the last of them is made, when they are fresh.)
        let history = board.live(for: nil, at: Self.now.adding(3_600 + 240))
        #expect(history?.runs.count == 0 && history?.sightings.count == 0)
    }

    /// An operator's update that gives no delay (arrival times alone, which the reader does
    /// not take) is not the operator's word on the train: its delay is not labelled the
    /// operator's, and riders may still share theirs.
    @Test func anUpdateWithoutADelayIsNotTheOperatorsWord() {
        let board = Self.demoBoard()
        board.received(RealtimeFeed(timestamp: Self.now, trips: [TripReport(tripID: "L1")]), source: 0, at: Self.now)
        _ = board.live(for: nil, at: Self.now)
        #expect(board.delaySources(ofTrip: "L1", for: nil).viewer == .ownFixes)
        let later = Self.now.adding(30)
        board.received(RealtimeFeed(timestamp: later, trips: [TripReport(tripID: "L1", delay: 60)]), source: 0, at: later)
        _ = board.live(for: nil, at: later)
        #expect(board.delaySources(ofTrip: "L1", for: nil).viewer == .feed)
    }

    /// Of two operators' feeds, the first's word on a trip stands, unless it gives no delay
    /// (arrival times alone) and the second does.
    @Test func aSecondSourcesDelayStandsWhereTheFirstGivesNone() throws {
        let board = Self.demoBoard(sources: ["http://example.com/a", "http://example.com/b"])
        let model = board.model
        board.received(RealtimeFeed(timestamp: Self.now, trips: [TripReport(tripID: "L1")]), source: 0, at: Self.now)
        board.received(
            RealtimeFeed(timestamp: Self.now, trips: [TripReport(tripID: "L1", delay: 240)]), source: 1, at: Self.now)
        let trips = try #require(board.live(for: nil, at: Self.now))
        let place = try #require(model.tripIndex["L1"])
        let origin = model.zone.serviceDayOrigin(model.zone.day(of: Self.now))
        let report = trips.trip(place.trip, of: LineDirection(index: Int(place.line)), origin: origin)
        #expect(report?.delay == 240)
        #expect(board.delaySources(ofTrip: "L1", for: nil).viewer == .feed)
    }

    /// A vehicle position far from its trip's track (the first source's) places nothing: it
    /// hides no other source's position of the train, and the map does not draw it there.
    @Test func aPositionOffTheTrackIsNeitherMergedNorDrawn() throws {
        let board = Self.demoBoard(sources: ["http://example.com/a", "http://example.com/b"])
        let model = board.model
        let onTrack = try #require(DemoRides.feeds(placing: "L1", at: [0.4], from: Self.now).first?.vehicles.first)
        var astray = onTrack
        astray.coordinate = Coordinate(latitude: onTrack.coordinate.latitude + 0.05, longitude: onTrack.coordinate.longitude)
        let update = TripReport(tripID: "L1", delay: 60)
        board.received(RealtimeFeed(timestamp: Self.now, trips: [update], vehicles: [astray]), source: 0, at: Self.now)
        board.received(RealtimeFeed(timestamp: Self.now, vehicles: [onTrack]), source: 1, at: Self.now)
        let place = try #require(model.tripIndex["L1"])
        let placed = try #require(board.live(for: nil, at: Self.now)).placedTrains(of: LineDirection(index: Int(place.line)))
        #expect(placed.map(\.coordinate) == [onTrack.coordinate], "the second source's position, not the first's")
        let map = TrainsMap(board: board).json(at: Self.now)
        #expect(map.contains("\"trip\":\"L1\""), "the train is drawn: \(map)")
        let latitude = String(format: "%.3f", astray.coordinate.latitude)
        #expect(!map.contains(latitude), "not where the astray position puts it: \(map)")
    }

    @Test func aFeedOlderThanTheMaximumAgeIsDropped() {
        var realtime = RealtimeSettings()
        realtime.sources = ["http://example.com/feed"]
        realtime.maximumAge = 300
        let model = TrackerModel(dataset: TransitDataset(network: DemoNetwork.make()))
        let board = LiveBoard(model: model, settings: realtime)
        board.received(RealtimeFeed(timestamp: Self.now, trips: [TripReport(tripID: "t", delay: 60)]), source: 0, at: Self.now)
        #expect(board.live(for: nil, at: Self.now.adding(299)) != nil)
        #expect(board.live(for: nil, at: Self.now.adding(320)) == nil, "a feed 320 s old is dropped")
    }
}

struct FeedPollerFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
