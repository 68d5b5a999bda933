import RealModule
import Testing

@testable import TrainTrackerCore

/// The trip model's belief takes what the railway tracker's evidence says of each line (its
/// course and place; its stops at the weight set for them), so a trip is weighed by its line's
/// evidence as well as by its own timing.
@Suite struct TripLineEvidenceTests {
    /// A follower holding one trip on each of lines 0 and 2, half the belief each.
    static func follower(_ parameters: TripModelParameters = .init()) -> TripFollower {
        var follower = TripFollower(parameters: parameters)
        follower.followed = [0, 2].map {
            TripFollower.Followed(key: .init(line: $0, trip: 0, origin: 0), low: 0, mass: [0.25, 0.25])
        }
        return follower
    }

    static func shares(_ follower: TripFollower) -> [Double] { follower.followed.map(\.total) }

    @Test func aLineWhosePlaceSaysLessLosesItsTripsByAsMuch() {
        var follower = Self.follower()
        follower.weighLines([0: LineEvidence(place: -1), 2: LineEvidence(course: -2, place: -2)])
        let shares = Self.shares(follower)
        // Line 0 says most (−1): its trip keeps its belief; line 2's loses e^−3 against it.
        #expect(shares[0] == 0.5)
        #expect(abs(shares[1] / shares[0] - Double.exp(-3)) < 1e-12)
    }

    /// Stops count at their weight, times how far the fixes they were read off may be trusted
    /// (`stopsTrust`): whole by default off a phone at 1 Hz, not at all at weight 0.
    @Test func stopsCountAtTheirWeightAndTrust() {
        let evidence = [0: LineEvidence(stops: 0), 2: LineEvidence(stops: -4)]
        var whole = Self.follower()
        whole.weighLines(evidence)
        #expect(abs(Self.shares(whole)[1] / Self.shares(whole)[0] - Double.exp(-4)) < 1e-12)
        var sparse = Self.follower()
        sparse.weighLines(evidence, stopsTrust: 0.5)
        #expect(abs(Self.shares(sparse)[1] / Self.shares(sparse)[0] - Double.exp(-2)) < 1e-12)
        var parameters = TripModelParameters()
        parameters.lineStopsWeight = 0.5
        var weighed = Self.follower(parameters)
        weighed.weighLines(evidence)
        #expect(abs(Self.shares(weighed)[1] / Self.shares(weighed)[0] - Double.exp(-2)) < 1e-12)
        parameters.lineStopsWeight = 0
        var unweighed = Self.follower(parameters)
        unweighed.weighLines(evidence)
        #expect(Self.shares(unweighed) == [0.5, 0.5])
    }

    @Test func aLineTheRailwayTrackerDroppedIsNotPunishedAndNoLineIsLostWhole() {
        var follower = Self.follower()
        // Only line 2 is held, at minus infinity: it loses at most the floor, line 0 nothing.
        follower.weighLines([2: LineEvidence(place: -.infinity), 4: LineEvidence(place: 0)])
        let shares = Self.shares(follower)
        #expect(shares[0] == 0.5)
        #expect(shares[1] > 0)
        #expect(abs(shares[1] / shares[0] - Double.exp(-TripFollower.lineEvidenceFloor)) < 1e-12)
    }

    /// The railway tracker keeps what each line's evidence said until it is taken, then starts
    /// again from nothing.
    @Test func theRailwayTrackerKeepsEachLinesEvidenceUntilTaken() throws {
        let model = TrackerModel(dataset: try TripTrackerTests.dataset())
        var tracker = RailwayTracker(model: model)
        for fix in TripTrackerTests.ride(departure: 0, dwell: 30, stops: true).prefix(16) { _ = tracker.process(fix) }
        let taken = tracker.takeLineEvidence()
        #expect(!taken.isEmpty)
        #expect(taken.values.contains { $0 != LineEvidence() }, "\(taken)")
        let again = tracker.takeLineEvidence()
        #expect(again.values.allSatisfy { $0 == LineEvidence() })
    }
}

extension TripLineEvidenceTests {
    @Test func aKindWeighedNothingCannotPoisonTheBelief() {
        var parameters = TripModelParameters()
        parameters.lineStopsWeight = 0
        var follower = Self.follower(parameters)
        follower.weighLines([0: LineEvidence(stops: -.infinity), 2: LineEvidence(stops: .nan, place: -1)])
        let shares = Self.shares(follower)
        #expect(shares.allSatisfy { $0.isFinite })
        #expect(shares[0] == 0.5)
        #expect(abs(shares[1] / shares[0] - Double.exp(-1)) < 1e-12)
    }

    /// At the default weight, a line whose stops say minus infinity loses at most the floor.
    @Test func stopsAtMinusInfinityCostAtMostTheFloor() {
        var follower = Self.follower()
        follower.weighLines([0: LineEvidence(stops: 0), 2: LineEvidence(stops: -.infinity)])
        let shares = Self.shares(follower)
        #expect(shares.allSatisfy { $0.isFinite && $0 > 0 })
        #expect(abs(shares[1] / shares[0] - Double.exp(-TripFollower.lineEvidenceFloor)) < 1e-12)
    }

    /// A weight a file gives as not a number is the default's.
    @Test func aLineWeightThatIsNotANumberIsTheDefaults() {
        var parameters = TripModelParameters()
        parameters.lineStopsWeight = .nan
        parameters.linePlaceWeight = .infinity
        #expect(parameters.sanitised.lineStopsWeight == TripModelParameters().lineStopsWeight)
        #expect(parameters.sanitised.linePlaceWeight == TripModelParameters().linePlaceWeight)
    }
}
