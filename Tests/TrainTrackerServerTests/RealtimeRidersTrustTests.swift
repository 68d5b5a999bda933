import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrainTrackerRealtime
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab
@testable import TrainTrackerServer

/// Riders as sensors an operator can trust, on Caltrain's recorded day: a rider far from where
/// its train runs is not on it.
@Suite(.serialized, .tags(.sharedData, .slow), .timeLimit(.minutes(10))) struct RealtimeRidersTrustTests {
    typealias Routes = RealtimeRoutesTests

    /// `fix` moved `meters` east.
    static func east(_ fix: RecordedFix, by meters: Meters) -> RecordedFix {
        var moved = fix
        let coordinate = fix.location.coordinate
        let perDegree = 111_195 * cos(coordinate.latitude * .pi / 180)
        moved.location.coordinate = Coordinate(
            latitude: coordinate.latitude, longitude: coordinate.longitude + meters / perDegree)
        return moved
    }

    /// Two riders publish their train; then both phones' fixes lie a kilometre east of the
    /// track (the riders shifted after 15 minutes): within a minute of leaving, the
    /// train is no longer published.
    @Test func ridersWhoLeaveTheTrackStopCountingWithinAMinute() async throws {
        let fixture = try Routes.Fixture()
        let (fixes, truth, _) = try Routes.ride.get()
        let riders = [(fixture.phones[0], "T1", 0), (fixture.phones[1], "T2", 0)]
        try await buildApplication(fixture.settings).test(.router) { client in
            _ = try await Routes.ride(Array(fixes.prefix(30)), riders: riders, clock: fixture.clock, client: client, batch: 1)
            let published = try await Routes.feed(client, "trip-updates", token: fixture.reader)
            #expect(published.trips.map(\.tripID) == [truth.trainID], "two riders on the train publish it")
            let left = try #require(fixes.dropFirst(30).first).location.timestamp
            var stillPublished: [Seconds] = []
            let away = fixes.dropFirst(30).prefix(10).map { Self.east($0, by: 1_000) }
            // Off the track, the riders' trackers still name the train: only the rule keeps it out.
            let named = try await Routes.ride(
                Array(away.prefix(1)), riders: riders, clock: fixture.clock, client: client, numberedFrom: 30, batch: 1
            ) { now in
                let feed = try await Routes.feed(client, "trip-updates", token: fixture.reader)
                if feed.trips.contains(where: { $0.tripID == truth.trainID }) { stillPublished.append(now.seconds(since: left)) }
            }
            #expect(named.allSatisfy { $0["train"] as? String == truth.trainID }, "\(named)")
            _ = try await Routes.ride(
                Array(away.dropFirst()), riders: riders, clock: fixture.clock, client: client, numberedFrom: 31, batch: 1
            ) { now in
                let feed = try await Routes.feed(client, "trip-updates", token: fixture.reader)
                if feed.trips.contains(where: { $0.tripID == truth.trainID }) { stillPublished.append(now.seconds(since: left)) }
            }
            #expect(stillPublished.allSatisfy { $0 <= 60 }, "published \(stillPublished) s after leaving the track")
        }
    }
}

/// The board's riders, told steady answers on the demo line.
struct LiveBoardRidersTests {
    static let answer = TrackingResult(candidates: [
        TrackingCandidate(
            railwayID: DemoNetwork.localID, direction: .ascending, directionName: "Eastbound", destinationStationID: nil,
            focusStationID: "x", phase: .next, laterStationIDs: [], score: 0, confidence: 0.99, trainID: "L1",
            delaySeconds: 0)
    ])

    /// Two riders whose phones date each fix `ahead` seconds after the server's clock, every
    /// 5 s on L1 for 10 minutes: the share of the samples after the first 5 minutes (riders
    /// steady) at which L1 is published.
    static func publishedShare(ahead: Seconds) throws -> Double {
        let board = FeedPollerTests.demoBoard(sources: [])
        var samples: [Bool] = []
        for seconds in stride(from: 0.0, through: 600, by: 5) {
            let now = morning.adding(seconds)
            let time = now.adding(ahead)
            let place = try #require(board.model.progress(ofTrip: "L1", delay: 0, at: time)).coordinate
            for device in ["a", "b"] {
                board.record(
                    rider: LiveBoard.Rider(session: device, device: device), answer: answer,
                    for: Location(coordinate: place, timestamp: time, horizontalAccuracy: 10), now: now)
            }
            if seconds > 305 { samples.append(board.published(at: now).trips.contains { $0.tripID == "L1" }) }
        }
        return Double(samples.filter { $0 }.count) / Double(samples.count)
    }

    /// A phone clock a few seconds fast (within the 5 s allowed) keeps its train published at
    /// every sample, as a clock a few seconds slow does (the riders 2.6-4 s ahead had
    /// their train published in 30 % of samples).
    @Test(arguments: [Seconds(-3), 0, 2.6, 4, 5]) func aFastPhoneClockKeepsItsTrainPublished(ahead: Seconds) throws {
        #expect(try Self.publishedShare(ahead: ahead) == 1)
    }

    /// `traintracker_realtime_riders` counts riders by device: one phone's two sessions on a
    /// train are one rider.
    @Test func theRidersMetricCountsDevices() throws {
        let board = FeedPollerTests.demoBoard(sources: [])
        for seconds in stride(from: 0.0, through: 330, by: 30) {
            let time = morning.adding(seconds)
            let place = try #require(board.model.progress(ofTrip: "L1", delay: 0, at: time)).coordinate
            for (session, device) in [("s1", "a"), ("s2", "a"), ("s3", "b")] {
                board.record(
                    rider: LiveBoard.Rider(session: session, device: device), answer: Self.answer,
                    for: Location(coordinate: place, timestamp: time, horizontalAccuracy: 10), now: time)
            }
        }
        let metrics = board.metricsText(at: morning.adding(330))
        #expect(metrics.contains("traintracker_realtime_riders 2\n"), "\(metrics)")
        #expect(metrics.contains("traintracker_realtime_published_trains 1\n"))
    }

    /// A fix dated beyond the allowance is not taken at all.
    @Test func aFixTooFarAheadPublishesNothing() throws {
        #expect(try Self.publishedShare(ahead: 30) == 0)
    }
}

/// The viewer's map of trains, an operator's among them.
struct TrainsMapRidersTests {
    /// A train an operator reports that riders are on shows how many (not null).
    @Test func anOperatorsTrainShowsItsRiders() throws {
        let board = FeedPollerTests.demoBoard()
        let model = board.model
        let start = morning
        let fed = start.adding(60)
        board.received(RealtimeFeed(timestamp: fed, trips: [TripReport(tripID: "L1", delay: 0)]), source: 0, at: fed)
        let answer = TrackingResult(candidates: [
            TrackingCandidate(
                railwayID: DemoNetwork.localID, direction: .ascending, directionName: "Eastbound", destinationStationID: nil,
                focusStationID: "x", phase: .next, laterStationIDs: [], score: 0, confidence: 0.99, trainID: "L1",
                delaySeconds: 0)
        ])
        for seconds in stride(from: 0.0, through: 300, by: 30) {
            let time = start.adding(seconds)
            let place = try #require(model.progress(ofTrip: "L1", delay: 0, at: time)).coordinate
            for device in ["a", "b"] {
                board.record(
                    rider: LiveBoard.Rider(session: device, device: device), answer: answer,
                    for: Location(coordinate: place, timestamp: time, horizontalAccuracy: 10), now: time)
            }
        }
        let map = TrainsMap(board: board).json(at: start.adding(300))
        #expect(map.contains("\"trip\":\"L1\"") && map.contains("\"source\":\"operator\""), "\(map)")
        #expect(map.contains("\"riders\":2"), "\(map)")
    }
}
