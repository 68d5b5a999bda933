import RealModule
import Testing

@testable import TrainTrackerCore

/// The delay prior fitted on Caltrain's recordings leaves no room for a train a minute late;
/// its vague share, where set, gives back what the fit never saw.
@Suite struct TripDelayPriorTests {
    @Test func theFittedPriorAloneAllowsNoTrainAMinuteLate() {
        let follower = TripFollower()
        // The fit's on-time train is 164 s late with an early side of 1 s.
        #expect(follower.delayPrior(60) < 1e-8)
        #expect(follower.delayPrior(164) > 0.01)
    }

    @Test func aVagueShareGivesATrainAMinuteLateItsChance() {
        var parameters = TripModelParameters()
        parameters.vagueShare = 0.05
        let follower = TripFollower(parameters: parameters)
        let expected = 0.05 * Double.exp(-60.0 / 300) / 600
        #expect(follower.delayPrior(60) >= expected)
        #expect(follower.delayPrior(60) < 2 * expected)
        // ... and an early train too, which the fit never allows.
        #expect(follower.delayPrior(-120) >= 0.05 * Double.exp(-120.0 / 300) / 600)
        // The fitted part keeps the rest: the on-time train is still the likeliest.
        #expect(follower.delayPrior(164) > 10 * follower.delayPrior(60))
    }

    /// A parameter file cannot make the prior improper: the share stays within 0...0.5.
    @Test func anOutOfRangeShareIsKeptInRange() {
        var parameters = TripModelParameters()
        parameters.vagueShare = 7
        #expect(parameters.sanitised.vagueShare == 0.5)
        parameters.vagueShare = .nan
        #expect(parameters.sanitised.vagueShare == 0)
    }
}
