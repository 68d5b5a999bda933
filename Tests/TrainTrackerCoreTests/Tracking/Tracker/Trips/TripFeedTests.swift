import RealModule
import Testing

@testable import TrainTrackerCore

/// The trip model weighs each trip an operator's feed reports by its report
/// (`TripFollower.weighFeed`): a delay that agrees with the belief's makes the trip likelier,
/// one that disagrees or a cancellation less likely; a trip the feed leaves out, and a riders'
/// report, change nothing.
@Suite struct TripFeedTests {
    /// A follower holding locals L0, L1 and L2 of the test timetable, a third of the belief
    /// each, spread evenly over delays 0 s and 15 s (`gridStep`).
    static func follower(model: TrackerModel) throws -> TripFollower {
        var follower = TripFollower()
        follower.followed = try ["L0", "L1", "L2"].map {
            let place = try #require(model.tripIndex[$0])
            return TripFollower.Followed(key: .init(line: place.line, trip: place.trip, origin: 0), low: 0, mass: [1, 1])
        }
        return follower
    }

    static func model() throws -> TrackerModel { TrackerModel(dataset: try TripTrackerTests.dataset()) }

    @Test func aTripReportedAtTheBeliefsDelayGainsOneReportedElsewhereLoses() throws {
        let model = try Self.model()
        var follower = try Self.follower(model: model)
        // L0 reported on time, L1 ten minutes late; L2 not reported.
        let feed = RealtimeFeed(
            timestamp: Timestamp(secondsSince1970: 0),
            trips: [TripReport(tripID: "L0", delay: 0), TripReport(tripID: "L1", delay: 600)])
        follower.weighFeed(LiveTrips(feed, model: model), weight: 1)
        let totals = follower.followed.map(\.total)
        #expect(totals[2] == 2, "a trip the feed leaves out keeps its belief")
        #expect(totals[0] > 2 * 4, "L0, where the feed agrees: \(totals[0])")
        #expect(totals[1] < 2 * 0.03, "L1, ten minutes from its report: \(totals[1])")
        // At L0's two delays, the one nearer the report gains more.
        #expect(follower.followed[0].mass[0] > follower.followed[0].mass[1])
    }

    @Test func aCancelledTripLosesAllButTheShareOfWrongReports() throws {
        let model = try Self.model()
        var follower = try Self.follower(model: model)
        let feed = RealtimeFeed(timestamp: Timestamp(secondsSince1970: 0), trips: [TripReport(tripID: "L2", cancelled: true)])
        follower.weighFeed(LiveTrips(feed, model: model), weight: 1)
        let totals = follower.followed.map(\.total)
        #expect(totals[0] == 2 && totals[1] == 2)
        #expect(abs(totals[2] - 2 * TripFollower.feedWrongShare) < 1e-12)
    }

    /// Riders' reports are what the server's riders said, not the operator's word.
    @Test func ridersReportsWeighNothing() throws {
        let model = try Self.model()
        var follower = try Self.follower(model: model)
        var report = TripReport(tripID: "L1", delay: 600)
        report.fromRiders = true
        var cancelled = TripReport(tripID: "L2", cancelled: true)
        cancelled.fromRiders = true
        let feed = RealtimeFeed(timestamp: Timestamp(secondsSince1970: 0), trips: [report, cancelled])
        follower.weighFeed(LiveTrips(feed, model: model), weight: 1)
        #expect(follower.followed.map(\.total) == [2, 2, 2])
    }

    /// A fix weighed at a fraction (fixes close together) takes the report at that fraction.
    @Test func aFractionalFixTakesTheReportAtItsWeight() throws {
        let model = try Self.model()
        let feed = LiveTrips(
            RealtimeFeed(timestamp: Timestamp(secondsSince1970: 0), trips: [TripReport(tripID: "L1", delay: 600)]),
            model: model)
        var whole = try Self.follower(model: model)
        whole.weighFeed(feed, weight: 1)
        var half = try Self.follower(model: model)
        half.weighFeed(feed, weight: 0.5)
        let ratio = half.followed[1].mass[0] * half.followed[1].mass[0] / whole.followed[1].mass[0]
        #expect(abs(ratio - 1) < 1e-9, "half a fix twice is one fix")
    }
}
