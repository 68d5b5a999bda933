import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// A GTFS-realtime feed told to the tracker (`DefaultTracker.live`, `LiveTracker`).
@Suite struct LiveTrackerTests {
    static let dataset = DemoRides.dataset
    static let model = TrackerModel(dataset: dataset)

    /// A ride of the demo's eastbound local, simulated on time.
    static func localRide() throws -> [Location] {
        let rides = CaseGenerator(dataset: dataset).cases(count: 12, seed: 12)
        let ride = try #require(rides.first { $0.truth.trainID == "L1" })
        return ride.fixes.map(\.location)
    }

    static func trains(_ fixes: [Location], feed: RealtimeFeed?) -> Set<String> {
        var tracker = DefaultTracker(model: model)
        var named = Set<String>()
        for fix in fixes {
            if let feed { tracker.live = LiveTrips(RealtimeFeed(timestamp: fix.timestamp, trips: feed.trips), model: model) }
            if let train = tracker.process(fix).best?.trainID { named.insert(train) }
        }
        return named
    }

    @Test func aCancelledTripIsNeverTheTrain() throws {
        let fixes = try Self.localRide()
        #expect(Self.trains(fixes, feed: nil).contains("L1"), "without a feed the local is named")
        let cancelled = RealtimeFeed(timestamp: fixes[0].timestamp, trips: [TripReport(tripID: "L1", cancelled: true)])
        #expect(!Self.trains(fixes, feed: cancelled).contains("L1"))
    }

    /// A feed that is not for this timetable (no trip it knows) changes no answer.
    @Test func aFeedOfAnotherTimetableChangesNothing() throws {
        let fixes = try Self.localRide()
        var plain = DefaultTracker(model: Self.model)
        var told = DefaultTracker(model: Self.model)
        let feed = RealtimeFeed(
            timestamp: fixes[0].timestamp,
            trips: [TripReport(tripID: "X9", cancelled: true), TripReport(tripID: "Y7", delay: 600)])
        told.live = LiveTrips(feed, model: Self.model)
        #expect(told.live?.unknownTrips == 2)
        for fix in fixes { #expect(plain.process(fix) == told.process(fix)) }
    }

    /// A feed older than `liveFeedLongest` says nothing; nor does one from after the fix.
    @Test func onlyARecentFeedSpeaks() throws {
        let fixes = try Self.localRide()
        let start = fixes[0].timestamp
        let feed = RealtimeFeed(timestamp: start, trips: [TripReport(tripID: "L1", cancelled: true)])
        var tracker = DefaultTracker(model: Self.model)
        tracker.live = LiveTrips(feed, model: Self.model)
        #expect(tracker.liveFeed(at: start.adding(DefaultTracker.liveFeedLongest)) != nil)
        #expect(tracker.liveFeed(at: start.adding(DefaultTracker.liveFeedLongest + 1)) == nil)
        #expect(tracker.liveFeed(at: start.adding(-1)) == nil)
    }

    /// A report names the service day of the run it speaks for: another day's run of the same
    /// trip id is left alone.
    @Test func aReportForAnotherDayLeavesTodaysTrainAlone() throws {
        let fixes = try Self.localRide()
        let today = Self.model.zone.day(of: fixes[0].timestamp)
        let yesterday = RealtimeFeed(
            timestamp: fixes[0].timestamp, trips: [TripReport(tripID: "L1", startDate: today.adding(-1), cancelled: true)])
        #expect(Self.trains(fixes, feed: yesterday).contains("L1"))
        let todays = RealtimeFeed(
            timestamp: fixes[0].timestamp, trips: [TripReport(tripID: "L1", startDate: today, cancelled: true)])
        #expect(!Self.trains(fixes, feed: todays).contains("L1"))
    }
}
