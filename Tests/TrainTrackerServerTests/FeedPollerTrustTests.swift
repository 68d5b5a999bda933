import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing
import TrainTrackerRealtime
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerServer

/// An operator's feed as an operator meets it: a stale copy that must not replace a fresh
/// feed, entities all skipped, redirects, gzip, and what the log and `/metrics` say of each.
@Suite(.tags(.slow), .timeLimit(.minutes(10))) struct FeedPollerTrustTests {
    static let now = FeedPollerTests.now

    /// What `/feed` serves: the feed of each version (no validators: every poll reads it).
    enum Version: Sendable {
        case fresh, stale, epoch, skipped
    }

    /// Which version `/feed` serves, set by the test.
    final class Served: Sendable {
        private let version: Mutex<Version>
        init(_ version: Version) { self.version = Mutex(version) }
        var now: Version { version.withLock { $0 } }
        func set(_ value: Version) { version.withLock { $0 = value } }
    }

    /// An operator's server whose `/feed` serves `version`'s feed; `/old` redirects to `/feed`,
    /// `/loop` to itself, `/gzip` serves the fresh feed gzipped.
    static func operatorServer(version: Served, gzipped: [UInt8], bomb: [UInt8] = []) -> some ApplicationProtocol {
        let feeds: [Version: [UInt8]] = [
            .fresh: RealtimeFeedWriter.bytes(fresh),
            .stale: RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: now.adding(-600))),
            .epoch: RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: Timestamp(secondsSince1970: 1))),
            // 50 trip updates without a trip id: every entity skipped.
            .skipped: RealtimeFeedWriter.bytes(
                RealtimeFeed(timestamp: now, trips: (0..<50).map { _ in TripReport(tripID: "", delay: 60) })),
        ]
        let router = Router()
        router.get("/feed") { _, _ in
            let bytes = feeds[version.now] ?? []
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("/old") { _, _ in Response(status: .movedPermanently, headers: [.location: "/feed"]) }
        router.get("/loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
        router.get("/gzip") { _, _ in
            Response(
                status: .ok, headers: [.contentEncoding: "gzip"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: gzipped)))
        }
        router.get("/bomb") { _, _ in
            Response(status: .ok, headers: [.contentEncoding: "gzip"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bomb)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// L1 a minute late, 30 s old.
    static let fresh = RealtimeFeed(timestamp: now.adding(-30), trips: [TripReport(tripID: "L1", delay: 60)])

    /// `bytes` gzipped by the system's gzip.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    /// A board over the demo rides polling `paths` of the test's server, its clock at `now`.
    static func board(port: Int, paths: [String]) -> LiveBoard {
        var realtime = RealtimeSettings()
        realtime.sources = paths.map { "http://127.0.0.1:\(port)\($0)?key=secret" }
        realtime.clock = { now }
        return LiveBoard(model: TrackerModel(dataset: DemoRides.dataset), settings: realtime)
    }

    /// Serve a fresh feed naming L1, then the same URL dated ten minutes back, then dated 1970:
    /// the fresh feed stays in use, each stale one is a failure named as such, counted in
    /// `/metrics` by reason.
    @Test func aStaleFeedNeverReplacesAFreshOne() async throws {
        let version = Served(.fresh)
        try await Self.operatorServer(version: version, gzipped: []).test(.live) { client in
            let board = Self.board(port: try #require(client.port), paths: ["/feed"])
            let poller = FeedPoller(board: board, logger: .init(label: "test"))
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: FeedPoller.clientConfiguration)
            var validators = FeedPoller.Validators()
            let url = board.settings.sources[0]
            #expect(
                await poller.pollOnce(source: 0, url: url, client: http, validators: &validators) == .read(trips: 1, vehicles: 0))
            #expect(TrainsMap(board: board).json(at: Self.now).contains("\"trip\":\"L1\""))
            for stale in [Version.stale, .epoch] {
                version.set(stale)
                let outcome = await poller.pollOnce(source: 0, url: url, client: http, validators: &validators)
                guard case .failed(.stale, let problem) = outcome else { throw FeedPollerFailure("\(stale): \(outcome)") }
                #expect(problem.contains("older than --realtime-max-age (300 s)") && problem.contains("--realtime-clock-from"))
                #expect(!problem.contains("secret"))
                #expect(board.sources[0].feed?.timestamp == Self.fresh.timestamp, "the fresh feed stays")
                #expect(TrainsMap(board: board).json(at: Self.now).contains("\"trip\":\"L1\""), "its train too")
            }
            try await http.shutdown()
            let metrics = board.metricsText(at: Self.now)
            let line =
                "traintracker_realtime_feed_failed_polls_total{source=\"http://127.0.0.1:\(try #require(client.port))/feed\",reason=\"stale\"} 2\n"
            #expect(metrics.contains(line), "\(metrics)")
        }
    }

    /// A feed every entity of which is skipped is no healthy read: the reasons and counts are
    /// in the outcome (which the poller logs at warning) and in `/metrics`.
    @Test func skippedEntitiesAreCountedByReason() async throws {
        let version = Served(.skipped)
        try await Self.operatorServer(version: version, gzipped: []).test(.live) { client in
            let port = try #require(client.port)
            let board = Self.board(port: port, paths: ["/feed"])
            let poller = FeedPoller(board: board, logger: .init(label: "test"))
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: FeedPoller.clientConfiguration)
            var validators = FeedPoller.Validators()
            let outcome = await poller.pollOnce(source: 0, url: board.settings.sources[0], client: http, validators: &validators)
            try await http.shutdown()
            #expect(outcome == .read(trips: 0, vehicles: 0, skipped: ["trip update without a trip id": 50]))
            let line =
                "traintracker_realtime_feed_skipped_entities{source=\"http://127.0.0.1:\(port)/feed\",reason=\"trip update without a trip id\"} 50\n"
            #expect(board.metricsText(at: Self.now).contains(line))
        }
    }

    /// A redirect on the feed's own host (a moved path) is followed, up to three; a gzipped body
    /// is read, unless it unpacks to more than a feed's 16 MB.
    @Test func redirectsAreFollowedAndGzipIsRead() async throws {
        let gzipped = try Self.gzip(RealtimeFeedWriter.bytes(Self.fresh))
        let bomb = try Self.gzip([UInt8](repeating: 0, count: RealtimeFeedReader.largestFeed + 1_000_000))
        try await Self.operatorServer(version: Served(.fresh), gzipped: gzipped, bomb: bomb).test(.live) { client in
            let board = Self.board(port: try #require(client.port), paths: ["/old", "/loop", "/gzip", "/bomb"])
            let poller = FeedPoller(board: board, logger: .init(label: "test"))
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: FeedPoller.clientConfiguration)
            var validators = [FeedPoller.Validators](repeating: .init(), count: 4)
            let sources = board.settings.sources
            #expect(
                await poller.pollOnce(source: 0, url: sources[0], client: http, validators: &validators[0])
                    == .read(trips: 1, vehicles: 0))
            #expect(
                await poller.pollOnce(source: 1, url: sources[1], client: http, validators: &validators[1])
                    == .failed(.status, "HTTP 302: more than 3 redirects"))
            #expect(
                await poller.pollOnce(source: 2, url: sources[2], client: http, validators: &validators[2])
                    == .read(trips: 1, vehicles: 0))
            let unpacked = await poller.pollOnce(source: 3, url: sources[3], client: http, validators: &validators[3])
            guard case .failed(.unreadable, _) = unpacked else { throw FeedPollerFailure("a gzip bomb: \(unpacked)") }
            try await http.shutdown()
        }
    }

    /// A server that stops while a poll waits for its answer logs no failure of the feed (it
    /// logged a `CancellationError()` warning at every shutdown).
    @Test func stoppingMidPollLogsNoFailure() async throws {
        let (asked, ask) = AsyncStream<Void>.makeStream()
        // (The answer waits until the test lets it go: a server does not stop mid-answer.)
        let (release, let_go) = AsyncStream<Void>.makeStream()
        let router = Router()
        router.get("/hang") { _, _ in
            ask.yield()
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    for await _ in release {}
                    try await writer.write(ByteBuffer(bytes: [0]))
                })
        }
        let server = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await server.test(.live) { client in
            let lines = LogLines()
            let logger = Logger(label: "test") { _ in lines }
            let board = Self.board(port: try #require(client.port), paths: ["/hang"])
            let group = ServiceGroup(
                configuration: .init(services: [FeedPoller(board: board, logger: logger)], logger: Logger(label: "group")))
            async let running: Void = group.run()
            var waiting = asked.makeAsyncIterator()
            _ = await waiting.next()
            await group.triggerGracefulShutdown()
            try await running
            let_go.finish()
            #expect(!lines.all.contains { $0.hasPrefix("warning") }, "\(lines.all)")
        }
    }

    /// A redirect to another host must name it: an address in any spelling a resolver takes
    /// (dotted, shortened, decimal, octal, hexadecimal, IPv6) is refused, and so is localhost;
    /// a name, or the feed's own host, is followed.
    @Test(arguments: [
        ("http://10.0.0.1/feed", true), ("http://127.0.0.1:8080/", true), ("http://localhost/feed", true),
        ("http://localhost./feed", true), ("http://[::1]/feed", true), ("http://[0:0:0:0:0:0:0:1]/", true),
        ("http://[0:0:0:0:0:ffff:7f00:1]/", true), ("http://2130706433/", true), ("http://0177.0.0.1/", true),
        ("http://0x7f000001/", true), ("http://127.1/", true), ("http://100.100.100.200/", true),
        ("https://cdn.example.com/feed.pb", false), ("http://cafe.de/feed", false), ("ftp://cdn.example.com/feed.pb", true),
        ("/feed", false), ("http://api.example.com:8443/other", false),
    ])
    func aRedirectLeadsNowhereInside(location: String, refused: Bool) {
        let target = FeedPoller.redirectTarget(location, from: "http://api.example.com/gtfsrt")
        if case .failure = target { #expect(refused, "\(location)") } else { #expect(!refused, "\(location)") }
    }

    /// The feed's own host may be an address (the operator chose it), and https is never
    /// given up for http.
    @Test func aRedirectKeepsItsHostOrItsTLS() {
        guard case .success = FeedPoller.redirectTarget("/b", from: "http://127.0.0.1:8080/a") else {
            Issue.record("a moved path on the feed's own address")
            return
        }
        guard
            case .failure(let refusal) = FeedPoller.redirectTarget(
                "http://api.example.com/feed", from: "https://api.example.com/feed")
        else {
            Issue.record("https to http followed")
            return
        }
        #expect(refusal.problem.contains("https to http"))
        guard case .failure(let shown) = FeedPoller.redirectTarget("http://1%0A2/", from: "http://a.example/") else {
            Issue.record("a newline in an address")
            return
        }
        #expect(!shown.problem.contains("\n"), "no line of the log is forged")
    }

    /// A fresh feed turns stale as it ages past `--realtime-max-age`: the board says when.
    @Test func aFeedsFreshnessIsKnownAndWhenItEnds() {
        let board = FeedPollerTests.demoBoard()
        #expect(board.freshness(ofSource: 0, at: Self.now).0 == .none)
        board.received(Self.fresh, source: 0, at: Self.now)
        let (fresh, untilStale) = board.freshness(ofSource: 0, at: Self.now)
        #expect(fresh == .fresh && untilStale == 270)
        #expect(board.freshness(ofSource: 0, at: Self.now.adding(271)).0 == .stale)
    }
}

/// What the poller logs, read back.
@Suite struct FeedPollerLogTests {
    static let now = FeedPollerTests.now

    /// A feed turning fresh is logged at notice; ageing out (behind 304s, say) at warning.
    @Test func freshnessChangesAreLogged() {
        let lines = LogLines()
        let clock = Mutex(Self.now)
        var realtime = RealtimeSettings()
        realtime.sources = ["http://example.com/feed?key=secret"]
        realtime.clock = { clock.withLock { $0 } }
        let board = LiveBoard(model: TrackerModel(dataset: DemoRides.dataset), settings: realtime)
        let poller = FeedPoller(board: board, logger: Logger(label: "test") { _ in lines })
        var freshness = LiveBoard.Freshness.none
        #expect(poller.noteFreshness(source: 0, label: "feed", was: &freshness) == nil && lines.all.isEmpty)
        board.received(FeedPollerTrustTests.fresh, source: 0, at: Self.now)
        #expect(poller.noteFreshness(source: 0, label: "feed", was: &freshness) == 270)
        #expect(poller.noteFreshness(source: 0, label: "feed", was: &freshness) == 270, "logged once")
        clock.withLock { $0 = Self.now.adding(280) }
        #expect(poller.noteFreshness(source: 0, label: "feed", was: &freshness) == nil)
        #expect(lines.all.count == 2)
        #expect(lines.all.first?.hasPrefix("notice realtime feed fresh") == true)
        #expect(lines.all.last?.hasPrefix("warning realtime feed stale") == true, "\(lines.all)")
        #expect(lines.all.last?.contains("from=fresh") == true && lines.all.last?.contains("to=stale") == true)
    }

    /// A read whose every entity was skipped is a warning naming the reasons; a read with some
    /// left out is info, naming them too.
    @Test func skippedEntitiesAreLogged() {
        let lines = LogLines()
        let poller = FeedPoller(board: FeedPollerTests.demoBoard(), logger: Logger(label: "test") { _ in lines })
        poller.logRead(label: "feed", source: 0, trips: 0, vehicles: 0, skipped: ["trip update without a trip id": 50])
        poller.logRead(label: "feed", source: 0, trips: 3, vehicles: 0, skipped: ["deleted entity": 1])
        poller.logRead(label: "feed", source: 0, trips: 3, vehicles: 0, skipped: [:])
        #expect(lines.all.count == 3)
        #expect(lines.all[0].hasPrefix("warning realtime feed read, every entity skipped"))
        #expect(lines.all[0].contains("skipped=trip update without a trip id: 50"))
        #expect(lines.all[1].hasPrefix("info realtime feed read") && lines.all[1].contains("skipped=deleted entity: 1"))
        #expect(!lines.all[2].contains("skipped"))
    }
}
