import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// The runs an operator's trains made into their stops (`RecentRuns`), as its feeds placed
/// them a minute apart: what an arrival time learns from the train ahead.
@Suite struct RecentRunsTests {
    static let model = TrackerModel(dataset: DemoRides.dataset)
    static let start = Timestamp(secondsSince1970: 1_764_000_000)
    /// The local's train leaves its first stop and is past its second four minutes later.
    static let shares = [0, 0.1, 0.4, 0.7, 1.05]

    /// The eastbound local's line, its trip index and its first two stops.
    static func local() throws -> (line: LineDirection, trip: Int32, first: Int, second: Int) {
        let place = try #require(model.tripIndex["L1"])
        let line = LineDirection(index: Int(place.line))
        let calls = model.trips[line: line][Int(place.trip)].callSlots
        return (line, place.trip, calls[0], calls[1])
    }

    /// The runs of `feeds` taken in order.
    static func runs(_ feeds: [RealtimeFeed]) -> RecentRuns {
        var runs = RecentRuns()
        for feed in feeds { runs.advance(with: LiveTrips(feed, model: model), model: model) }
        return runs
    }

    /// The time the run took from 55 % of the way (out 45 % of the stretch) to 50 m before
    /// the second stop, read off the positions either side of each, as a minute-apart feed
    /// shows them.
    static func expectedRemaining(stretch: Meters) -> Seconds {
        let mark = stretch - RecentRuns.arrivalMark
        let arrival = 180 + 60 * (mark - 0.7 * stretch) / ((1.05 - 0.7) * stretch)
        let passed = 120 + 60 * (0.55 - 0.4) / (0.7 - 0.4)
        return arrival - passed
    }

    @Test func theLastTrainsRunIsReadFromTheDistanceOut() throws {
        let (line, trip, first, second) = try Self.local()
        let stretch = DemoRides.firstStretch(of: "L1")
        #expect(stretch > 500)
        let runs = Self.runs(DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start))
        #expect(runs.count == 1)
        let now = Self.start.adding(300)
        let remaining = try #require(
            runs.remaining(on: line, into: second, from: first, out: 0.45 * stretch, excluding: trip + 1, at: now))
        #expect(abs(remaining - Self.expectedRemaining(stretch: stretch)) < 0.5, "\(remaining)")
        // Nearer the stop, less time left; at the mark, none.
        let nearer = try #require(
            runs.remaining(on: line, into: second, from: first, out: 0.2 * stretch, excluding: trip + 1, at: now))
        #expect(nearer < remaining)
        #expect(runs.remaining(on: line, into: second, from: first, out: 10, excluding: trip + 1, at: now) == 0)
    }

    @Test func aRunIsUnknownBeforeItsFeedAndOfNoUseToItsOwnTrainOrAnotherStretch() throws {
        let (line, trip, first, second) = try Self.local()
        let stretch = DemoRides.firstStretch(of: "L1")
        let runs = Self.runs(DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start))
        let ask = { (from: Int, excluding: Int32, at: Timestamp) in
            runs.remaining(on: line, into: second, from: from, out: 0.45 * stretch, excluding: excluding, at: at)
        }
        #expect(ask(first, trip + 1, Self.start.adding(239)) == nil, "the feed that showed the arrival came at 240 s")
        #expect(ask(first, trip + 1, Self.start.adding(240)) != nil)
        #expect(ask(first, trip, Self.start.adding(300)) == nil, "the train's own run")
        #expect(ask(second, trip + 1, Self.start.adding(300)) == nil, "a train that called elsewhere before")
        #expect(ask(first, trip + 1, Self.start.adding(240 + RecentRuns.reach)) == nil, "beyond reach")
        // Farther out than the run was seen: nothing to read.
        #expect(
            runs.remaining(on: line, into: second, from: first, out: stretch * 2, excluding: trip + 1, at: Self.start.adding(300))
                == nil)
    }

    /// One train held on its way (twice as slow as the trains before it) hardly moves the
    /// arrival time: the median of the latest runs is read, not the last alone.
    @Test func oneHeldTrainIsOutvotedByTheTrainsBeforeIt() throws {
        let (line, trip, first, second) = try Self.local()
        let stretch = DemoRides.firstStretch(of: "L1")
        let expected = Self.expectedRemaining(stretch: stretch)
        /// The trains' runs, 2,000 s apart, each at one position every `step` seconds.
        func runs(steps: [Seconds]) -> RecentRuns {
            var runs = RecentRuns()
            for (round, step) in steps.enumerated() {
                let start = Self.start.adding(Seconds(round) * 2_000)
                for feed in DemoRides.feeds(placing: "L1", at: Self.shares, from: start, step: step) {
                    runs.advance(with: LiveTrips(feed, model: Self.model), model: Self.model)
                }
            }
            return runs
        }
        let now = Self.start.adding(3 * 2_000)
        let ask = { (runs: RecentRuns) in
            runs.remaining(on: line, into: second, from: first, out: 0.45 * stretch, excluding: trip + 1, at: now)
        }
        let heldLast = runs(steps: [60, 60, 120])
        #expect(heldLast.count == 3)
        #expect(ask(heldLast).map { abs($0 - expected) < 0.5 } == true, "\(String(describing: ask(heldLast)))")
        // Two runs: halfway between them.
        let two = runs(steps: [60, 120])
        #expect(ask(two).map { abs($0 - 1.5 * expected) < 0.5 } == true, "\(String(describing: ask(two)))")
        // Most of the trains held: so is the arrival time.
        let mostHeld = runs(steps: [60, 120, 120])
        #expect(ask(mostHeld).map { abs($0 - 2 * expected) < 1 } == true, "\(String(describing: ask(mostHeld)))")
    }

    /// A feed older than the last taken (a second source, a cache's stale copy) adds its run
    /// as known from its own time: a time between the two reads the older run alone, never
    /// the one known only later.
    @Test func anOlderFeedsRunIsKnownFromItsOwnTime() throws {
        let model = TrackerModel(dataset: DemoRides.eastboundLocals(["L1": 28_800, "L3": 30_000]))
        let place = try #require(model.tripIndex["L1"])
        let line = LineDirection(index: Int(place.line))
        let calls = model.trips[line: line][Int(place.trip)].callSlots
        let stretch = DemoRides.firstStretch(of: "L1")
        var runs = RecentRuns()
        // L3's run, twice as slow, known 1,480 s after the start, is taken first ...
        for var feed in DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start.adding(1_000), step: 120) {
            feed.vehicles[0].tripID = "L3"
            runs.advance(with: LiveTrips(feed, model: model), model: model)
        }
        // ... then L1's, from an older source: known 240 s after the start.
        for feed in DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start) {
            runs.advance(with: LiveTrips(feed, model: model), model: model)
        }
        #expect(runs.count == 2)
        let between = runs.remaining(
            on: line, into: calls[1], from: calls[0], out: 0.45 * stretch, excluding: -1, at: Self.start.adding(300))
        #expect(
            between.map { abs($0 - Self.expectedRemaining(stretch: stretch)) < 0.5 } == true, "\(String(describing: between))")
    }

    /// A position the feed published again unchanged is no new fix: the run is the same.
    @Test func aStalePositionPublishedAgainChangesNothing() throws {
        let (line, trip, first, second) = try Self.local()
        let stretch = DemoRides.firstStretch(of: "L1")
        var feeds = DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start)
        // The 0.7 position published again 30 s later.
        var stale = feeds[3]
        stale.timestamp = stale.timestamp.adding(30)
        stale.vehicles[0].time = stale.timestamp
        feeds.insert(stale, at: 4)
        let runs = Self.runs(feeds)
        let remaining = runs.remaining(
            on: line, into: second, from: first, out: 0.45 * stretch, excluding: trip + 1, at: Self.start.adding(300))
        #expect(remaining.map { abs($0 - Self.expectedRemaining(stretch: stretch)) < 0.5 } == true)
    }

    /// A position dated well after its feed (a clock gone wrong) is not believed.
    @Test func aPositionFromAfterItsFeedIsLeftOut() throws {
        var feeds = DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start)
        feeds[4].vehicles[0].time = feeds[4].timestamp.adding(RecentRuns.aheadOfFeed + 1)
        #expect(Self.runs(feeds).count == 0)
    }

    @Test func ridersTrainsAndOldRunsAreNotKept() throws {
        var riders = DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start)
        for index in riders.indices {
            var report = TripReport(tripID: "L1", delay: 0)
            report.fromRiders = true
            riders[index].trips = [report]
        }
        #expect(Self.runs(riders).count == 0, "riders' trains are placed by their timetable")
        var runs = Self.runs(DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start))
        runs.prune(at: Self.start.adding(240))
        #expect(runs.count == 1)
        runs.prune(at: Self.start.adding(240 + RecentRuns.reach + 1))
        #expect(runs.count == 0)
        // Nor a run from after the pruning time (a feed whose clock ran an hour fast).
        var ahead = Self.runs(DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start))
        ahead.prune(at: Self.start.adding(-3_600))
        #expect(ahead.count == 0)
    }

    /// A server keeps the latest `mostPerStop` runs into a stop, however many trains arrive.
    @Test func aServerKeepsALimitedNumberOfRunsPerStop() throws {
        var runs = RecentRuns()
        let rounds = RecentRuns.mostPerStop + 6
        for round in 0..<rounds {
            let feeds = DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start.adding(Seconds(round) * 1_000))
            for feed in feeds { runs.advance(with: LiveTrips(feed, model: Self.model), model: Self.model) }
        }
        #expect(runs.count == rounds)
        runs.prune(at: Self.start.adding(Seconds(rounds) * 1_000 - 700))
        #expect(runs.count == 8, "arrivals 1,000 s apart, within two hours before (and 60 s after)")
        runs = RecentRuns()
        for round in 0..<rounds {
            let feeds = DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start.adding(Seconds(round) * 30), step: 1)
            for feed in feeds { runs.advance(with: LiveTrips(feed, model: Self.model), model: Self.model) }
        }
        runs.prune(at: Self.start.adding(Seconds(rounds) * 30))
        #expect(runs.count == RecentRuns.mostPerStop)
    }

    /// Feeds resolved in time order tell every tracker the same runs, each from its feed on.
    @Test func liveFeedsGiveEveryFeedTheRuns() throws {
        let feeds = DemoRides.feeds(placing: "L1", at: Self.shares, from: Self.start).map { LiveTrips($0, model: Self.model) }
        let live = LiveFeeds(feeds.reversed(), model: Self.model)
        #expect(live.feeds.allSatisfy { $0.runs.count == 1 })
        #expect(LiveFeeds(feeds).feeds.allSatisfy { $0.runs.count == 0 }, "without the model, no runs")
    }
}
