import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// A change of trains (`TripFollower+Platform.swift`): a rider who walks away from their train
/// stands on a platform, on no train; the line they left is less likely for the train they
/// board next; the platform is forgotten once the rider rides away.
@Suite struct TripPlatformTests {
    /// The local of 07:00 on time to station 2 (reached at 330 s), its fixes every 20 s.
    static func followedLocal(model: TrackerModel) -> (TripFollower, Location) {
        var follower = TripFollower()
        let ride = TripTrackerTests.ride(departure: 0, dwell: 30, stops: true, every: 20)
        let arrival = morning.adding(330 - 3_600)
        var last = ride[0]
        for fix in ride where fix.timestamp <= arrival {
            follower.observe(fix, reach: TripTracker.lines(near: fix, model: model), model: model)
            last = fix
        }
        return (follower, last)
    }

    @Test func walkingAwayMovesTheBeliefToThePlatformAndMarksTheLineLeft() throws {
        let model = TrackerModel(dataset: try TripTrackerTests.dataset())
        var (follower, last) = Self.followedLocal(model: model)
        let before = try #require(follower.belief)
        #expect(model.network.railways[before.key.lineDirection.railway].id == "Local")
        #expect(before.lineShare > 0.9, "\(before.lineShare)")

        follower.leaveTrain(at: last.coordinate, leaving: LeavingEvidence())
        let platform = try #require(follower.platform)
        #expect(follower.followed.isEmpty)
        #expect(abs(platform.share - (1 - follower.offTimetable)) < 1e-6, "\(platform.share)")
        // The line left, nearly surely: the whole penalty; its reverse, which held nothing, half
        // of the left line's share of it.
        let left = before.key.lineDirection
        #expect(abs((platform.leftLines[left.index] ?? 0) - LeavingEvidence().walkedAwayPenalty * before.lineShare) < 0.1)
        #expect(follower.belief == nil)

        // Standing on the platform a minute, the rider is still there, mostly.
        for second in stride(from: 20.0, through: 60, by: 20) {
            let fix = Location(coordinate: last.coordinate, timestamp: last.timestamp.adding(second))
            follower.observe(fix, reach: TripTracker.lines(near: fix, model: model), model: model)
        }
        #expect((follower.platform?.share ?? 0) > 0.5, "\(String(describing: follower.platform?.share))")
        last = Location(coordinate: last.coordinate, timestamp: last.timestamp.adding(60))

        // Then a train takes the rider 1.5 km on: the platform no longer explains the fixes.
        for (index, second) in stride(from: 20.0, through: 140, by: 20).enumerated() {
            let east = 4_000 + Double(index + 1) * 220
            let fix = Location(coordinate: TripTrackerTests.point(east), timestamp: last.timestamp.adding(second))
            follower.observe(fix, reach: TripTracker.lines(near: fix, model: model), model: model)
        }
        #expect((follower.platform?.share ?? 0) < 1e-3, "\(String(describing: follower.platform?.share))")
        #expect(follower.belief != nil)
    }

    @Test func aTripFollowedOnlyForAFitIgnoresAWalk() throws {
        let model = TrackerModel(dataset: try TripTrackerTests.dataset())
        var follower = TripFollower(onlyTrip: "L0")
        let fix = TripTrackerTests.ride(departure: 0, dwell: 30, stops: true, every: 20)[10]
        follower.observe(fix, reach: TripTracker.lines(near: fix, model: model), model: model)
        follower.leaveTrain(at: fix.coordinate, leaving: LeavingEvidence())
        #expect(follower.platform == nil)
        #expect(!follower.followed.isEmpty)
    }
}
