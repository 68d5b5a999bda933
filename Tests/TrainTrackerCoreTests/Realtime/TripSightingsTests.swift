import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// When an operator's feeds reported each trip (`TripSightings`): a train never reported, on a
/// line whose trains are, has most likely not left.
@Suite struct TripSightingsTests {
    static let model = TrackerModel(dataset: DemoRides.dataset)
    static let start = Timestamp(secondsSince1970: 1_764_000_000)

    static func local() throws -> (line: LineDirection, trip: Int32) {
        let place = try #require(model.tripIndex["L1"])
        return (LineDirection(index: Int(place.line)), place.trip)
    }

    static func feed(at time: Timestamp, _ report: TripReport) -> LiveTrips {
        LiveTrips(RealtimeFeed(timestamp: time, trips: [report]), model: model)
    }

    @Test func aTripIsSeenFromTheFeedThatReportedItForTheLookback() throws {
        let (line, trip) = try Self.local()
        var sightings = TripSightings()
        sightings.advance(with: Self.feed(at: Self.start, TripReport(tripID: "L1", delay: 120)))
        #expect(!sightings.reported(trip, of: line, before: Self.start.adding(-1)), "never a later feed")
        #expect(sightings.reported(trip, of: line, before: Self.start))
        // Lost by the feed since: still seen (a stale report), until the lookback runs out.
        #expect(sightings.reported(trip, of: line, before: Self.start.adding(TripSightings.lookback)))
        #expect(!sightings.reported(trip, of: line, before: Self.start.adding(TripSightings.lookback + 1)))
        #expect(!sightings.reported(trip + 1, of: line, before: Self.start), "another trip")
        sightings.prune(at: Self.start.adding(TripSightings.lookback + 1))
        #expect(sightings.count == 0)
    }

    /// One report a minute is kept per trip, and a report dated after the pruning time (a
    /// feed whose clock ran fast) is dropped rather than hiding the trip's later reports.
    @Test func reportsAreKeptAMinuteApartAndNeverFromTheFuture() throws {
        let (line, trip) = try Self.local()
        var sightings = TripSightings()
        for second in stride(from: 0.0, to: 600, by: 5) {
            sightings.advance(with: Self.feed(at: Self.start.adding(second), TripReport(tripID: "L1", delay: 0)))
        }
        #expect(sightings.count == 10)
        var fast = TripSightings()
        fast.advance(with: Self.feed(at: Self.start.adding(3_600), TripReport(tripID: "L1", delay: 0)))
        fast.prune(at: Self.start)
        #expect(fast.count == 0)
        fast.advance(with: Self.feed(at: Self.start, TripReport(tripID: "L1", delay: 0)))
        #expect(fast.reported(trip, of: line, before: Self.start))
    }

    @Test func ridersWordAndCancelledTripsAreNoSighting() throws {
        let (line, trip) = try Self.local()
        var riders = TripReport(tripID: "L1", delay: 60)
        riders.fromRiders = true
        var sightings = TripSightings()
        sightings.advance(with: Self.feed(at: Self.start, riders))
        sightings.advance(with: Self.feed(at: Self.start.adding(60), TripReport(tripID: "L1", cancelled: true)))
        #expect(!sightings.reported(trip, of: line, before: Self.start.adding(120)))
    }

    /// Feeds resolved in time order tell every tracker the same sightings, each from its feed on.
    @Test func liveFeedsGiveEveryFeedTheSightings() throws {
        let (line, trip) = try Self.local()
        let feeds = [
            LiveTrips(RealtimeFeed(timestamp: Self.start), model: Self.model),
            Self.feed(at: Self.start.adding(60), TripReport(tripID: "L1", delay: 0)),
        ]
        let live = LiveFeeds(feeds, model: Self.model)
        #expect(live.feeds.allSatisfy { $0.sightings.count == 1 })
        #expect(live.latest(atOrBefore: Self.start)?.sightings.reported(trip, of: line, before: Self.start) == false)
        #expect(
            live.latest(atOrBefore: Self.start.adding(60))?.sightings.reported(trip, of: line, before: Self.start.adding(60))
                == true)
    }
}

/// Rule 8: a train a feed that reports its line never reported, although it would have left its
/// first station more than `unreportedGrace` ago, has most likely not left
/// (`DepartureEvidence.unseen`, as a passage weighs it).
@Suite struct UnseenTrainTests {
    // L1 leaves its first station at 08:00, L3 at 10:00, the same way.
    static let model = TrackerModel(dataset: DemoRides.eastboundLocals(["L1": 28_800, "L3": 36_000]))
    static let timing = PassageEvidence().timing(from: DepartureEvidence())

    @Test(arguments: [
        // (what, seconds since L1 left at its delay, the line reported, L1 reported before, unseen)
        ("left 10 minutes ago, never reported by a feed that reports its line", 600.0, true, false, true),
        ("left 100 s ago: a feed may not have reported it yet", 100, true, false, false),
        ("reported by an earlier feed, lost since", 600, true, true, false),
        ("a feed that reports none of the line's trains says nothing", 600, false, false, false),
    ])
    func aTrainNeverReportedHasNotLeft(_ what: String, left: Seconds, lineReported: Bool, seenBefore: Bool, unseen: Bool)
        throws
    {
        let model = Self.model
        let place = try #require(model.tripIndex["L1"])
        let line = LineDirection(index: Int(place.line))
        let origin = model.zone.serviceDayOrigin(model.zone.day(of: morning))
        let delay: Seconds = 120
        let time = Timestamp(secondsSince1970: origin + 28_800 + delay + left)
        let reports = lineReported ? [TripReport(tripID: "L3", delay: 0)] : []
        var live = LiveTrips(RealtimeFeed(timestamp: time, trips: reports), model: model)
        if seenBefore {
            live.sightings.advance(
                with: LiveTrips(
                    RealtimeFeed(timestamp: time.adding(-300), trips: [TripReport(tripID: "L1", delay: delay)]), model: model))
        }
        let trip = model.trips[line: line][Int(place.trip)]
        let found = Self.timing.unseen(trip, index: place.trip, of: line, delay: delay, origin: origin, live: live, at: time)
        #expect(found == unseen, "\(what)")
    }
}
