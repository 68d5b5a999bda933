import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerRealtime
import TrainTrackerTestSupport

/// A folder of feeds: read in time order whatever the names, files that are not feeds left
/// out and named, and at any moment only the latest feed at or before it known.
@Suite struct RealtimeArchiveTests {
    static let start = Timestamp(secondsSince1970: 1_732_910_400)

    @Test func feedsAreKnownFromTheirTimeOnNeverBefore() throws {
        let folder = try TemporaryDirectory()
        // Names in another order than the times.
        for (name, minutes) in [("b.pb", 0.0), ("a.pb", 2), ("c", 1)] {
            let feed = RealtimeFeed(
                timestamp: Self.start.adding(minutes * 60), trips: [TripReport(tripID: "t", delay: minutes * 60)])
            try Data(RealtimeFeedWriter.bytes(feed)).write(to: folder.url.appendingPathComponent(name))
        }
        try Data("not a feed".utf8).write(to: folder.url.appendingPathComponent("notes.txt"))
        let archive = try RealtimeArchive.read(path: folder.url.path)
        #expect(archive.feeds.map(\.timestamp) == [0.0, 60, 120].map { Self.start.adding($0) })
        #expect(archive.unreadable.count == 1)
        #expect(archive.unreadable.first?.contains("notes.txt: not a GTFS-realtime feed") == true)
        let feeds = LiveFeeds(archive.feeds.map { LiveTrips($0, model: TrackerModel(dataset: DemoRides.dataset)) })
        #expect(feeds.latest(atOrBefore: Self.start.adding(-1)) == nil)
        #expect(feeds.latest(atOrBefore: Self.start)?.timestamp == Self.start)
        #expect(feeds.latest(atOrBefore: Self.start.adding(119))?.timestamp == Self.start.adding(60))
        #expect(feeds.latest(atOrBefore: Self.start.adding(3_600))?.timestamp == Self.start.adding(120))
    }

    @Test func aPathWithoutAFeedIsAnError() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: RealtimeError.self) { try RealtimeArchive.read(path: folder.url.path) }
        #expect(throws: RealtimeError.self) { try RealtimeArchive.read(path: folder.url.appendingPathComponent("none").path) }
    }

    /// Trips of another timetable are counted and change nothing.
    @Test func tripsTheTimetableLacksAreCounted() {
        let model = TrackerModel(dataset: DemoRides.dataset)
        let feed = RealtimeFeed(
            timestamp: Self.start, trips: [TripReport(tripID: "no-such-trip", delay: 60), TripReport(tripID: "other", delay: 1)])
        let live = LiveTrips(feed, model: model)
        #expect(live.unknownTrips == 2)
        #expect(live.knownTrips == 0)
    }
}
