import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// A tracker that answers from the truth, delayed or wrong as told: for checking the scores.
struct ScriptedTracker: TrackingAlgorithm {
    let truth: [Double: TruthFix]
    let railway: String
    let direction: String
    /// Answers the wrong railway before this time.
    var wrongUntil: Double = 0
    var silent = false
    /// The railway named while wrong.
    var wrongRailway = "Elsewhere"
    /// Answers the true arrival at the next stop this many seconds late; no arrival time when `nil`.
    var etaError: Seconds?
    /// The true arrivals, for `etaError`.
    var arrivals: [(station: String, time: Double)] = []
    /// Before this time, lists two services still possible and names no next stop.
    var undecidedUntil: Double = 0
    /// Names these stations' next stops by these other ids.
    var stopAliases: [String: String] = [:]

    mutating func process(_ location: Location) -> TrackingResult {
        guard !silent, let actual = truth[location.timestamp.secondsSince1970] else { return TrackingResult(candidates: []) }
        let right = location.timestamp.secondsSince1970 >= wrongUntil
        let arrival = actual.nextStop.flatMap { Evaluator.arrival(at: $0, after: actual.time, in: arrivals) }
        let eta = etaError.flatMap { error in arrival.map { Timestamp(secondsSince1970: $0 + error) } }
        let undecided = location.timestamp.secondsSince1970 < undecidedUntil
        let services = ["Local", "Express"].map {
            PossibleService(
                railwayID: $0, direction: .ascending, directionName: direction, trainTypeID: nil, nextStopID: nil, share: 0.5)
        }
        let nextStop = undecided ? nil : actual.nextStop.map { stopAliases[$0] ?? $0 }
        return TrackingResult(
            candidates: [
                TrackingCandidate(
                    railwayID: right ? railway : wrongRailway, direction: .ascending, directionName: direction,
                    destinationStationID: nil,
                    focusStationID: actual.station, phase: actual.phase, laterStationIDs: [], score: 1, nextStopID: nextStop,
                    eta: eta)
            ], undecided: undecided ? services : [])
    }
}

@Suite struct EvaluatorTests {
    func ride() throws -> SimulatedCase {
        try #require(
            CaseGenerator(dataset: DemoRides.dataset).cases(
                count: 1, seed: 4, filter: RideFilter(railways: [DemoNetwork.localID])
            ).first)
    }

    func scripted(_ ride: SimulatedCase) -> ScriptedTracker {
        ScriptedTracker(
            truth: Dictionary(ride.truth.fixes.map { ($0.time, $0) }, uniquingKeysWith: { first, _ in first }),
            railway: ride.truth.railwayID, direction: ride.truth.directionName)
    }

    @Test func aTrackerThatKnowsTheTruthScoresEverything() throws {
        let ride = try ride()
        let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: scripted(ride))
        let scored = ride.truth.fixes.filter { $0.time >= ride.truth.departure + 90 }.count
        #expect(score.scoredFixes == scored && scored > 0)
        #expect(
            [score.railwayCorrect, score.directionCorrect, score.focusCorrect, score.nextStopCorrect]
                == Array(repeating: scored, count: 4))
        #expect(score.locked && score.lockTime == 0)
    }

    @Test(arguments: [(10.0, 1.0), (-30, 1), (90, 0)])
    func arrivalTimesAreScoredAgainstTheTrueArrival(error: Seconds, withinMinute: Double) throws {
        let ride = try ride()
        var tracker = scripted(ride)
        tracker.etaError = error
        tracker.arrivals = Evaluator.arrivals(ride.truth.fixes.sorted { $0.time < $1.time })
        let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        #expect(score.etaScored > 100, "every scored fix on the way to a stop")
        let summary = AlgorithmScore(algorithm: "scripted", scores: [score])
        #expect(summary.etaWithinMinuteShare == withinMinute)
        #expect(summary.meanETAError.map { abs($0 - abs(error)) < 1e-6 } == true)
        // Without arrival times there is nothing to score.
        tracker.etaError = nil
        let silent = AlgorithmScore(
            algorithm: "no eta", scores: [Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)])
        #expect(silent.etaWithinMinuteShare == nil && silent.meanETAError == nil)
    }

    @Test func undecidedAnswersAreCountedAndTheStationTheyShowIsNeitherRightNorWrong() throws {
        let ride = try ride()
        var tracker = scripted(ride)
        let departure = ride.truth.departure
        tracker.undecidedUntil = departure + 150
        let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        let scored = ride.truth.fixes.filter { $0.time >= departure + 90 }
        let undecided = scored.filter { $0.time < departure + 150 }.count
        #expect(undecided > 30 && score.scoredFixes == scored.count)
        #expect(score.undecidedFixes == undecided)
        #expect(score.stopsShown == scored.count - undecided)
        #expect(score.stopsShownRight == score.stopsShown)
        #expect(score.undecidedFor.map { $0 >= 148 && $0 < 150 } == true)
        let summary = AlgorithmScore(algorithm: "scripted", scores: [score])
        #expect(abs(summary.undecidedShare - Double(undecided) / Double(scored.count)) < 1e-9)
        #expect(abs(summary.shownStopRightShare - Double(score.stopsShown) / Double(scored.count)) < 1e-9)
        #expect(summary.shownStopWrongShare == 0)
        #expect(summary.undecidedAtEnd == 0)
        // A ride undecided to its end has no time to decided.
        tracker.undecidedUntil = .infinity
        let never = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        #expect(never.undecidedFor == nil && never.stopsShown == 0)
        #expect(AlgorithmScore(algorithm: "never", scores: [never]).undecidedAtEnd == 1)
    }

    @Test func aStopShownUnderAnotherLinesIDAtTheSamePlaceIsTheTrueStop() throws {
        let ride = try ride()
        var tracker = scripted(ride)
        // The express's station ids for the stations where it stops too.
        let network = DemoRides.dataset.network
        for name in DemoNetwork.expressStops {
            tracker.stopAliases["\(DemoNetwork.localID).\(name)"] = "\(DemoNetwork.expressID).\(name)"
        }
        let aliased = ride.truth.fixes.filter {
            $0.time >= ride.truth.departure + 90 && $0.nextStop.map { tracker.stopAliases[$0] != nil } == true
        }
        #expect(!aliased.isEmpty)
        let byID = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        var evaluator = Evaluator()
        evaluator.network = network
        let byPlace = evaluator.score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        #expect(byPlace.stopsShownRight == byPlace.stopsShown)
        #expect(byID.stopsShownRight < byID.stopsShown)
        // A station elsewhere is not the same place.
        #expect(!evaluator.samePlace("\(DemoNetwork.localID).Minato", "\(DemoNetwork.expressID).Yama"))
    }

    @Test func aSilentTrackerScoresNothingAndNeverLocks() throws {
        let ride = try ride()
        var tracker = scripted(ride)
        tracker.silent = true
        let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        #expect(score.railwayCorrect == 0 && score.focusCorrect == 0)
        #expect(!score.locked && score.lockTime == nil)
        #expect(AlgorithmScore(algorithm: "silent", scores: [score]).railwayAccuracy == 0)
    }

    @Test func lockTimeIsWhenTheAnswerBecomesRightForGood() throws {
        let ride = try ride()
        var tracker = scripted(ride)
        tracker.wrongUntil = ride.truth.departure + 120
        let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        #expect(score.locked)
        #expect(score.lockTime.map { $0 >= 120 && $0 <= 123 } == true)
        let wrong = ride.truth.fixes.filter { $0.time >= ride.truth.departure + 90 && $0.time < ride.truth.departure + 120 }.count
        #expect(score.railwayCorrect == score.scoredFixes - wrong)
    }

    @Test func theLockIsCountedInStationsStoppedAtBeforeIt() throws {
        let ride = try ride()
        let stops = Evaluator.arrivals(ride.truth.fixes.sorted { $0.time < $1.time })
            .filter { $0.time > ride.truth.departure }
        #expect(stops.count >= 3)
        // Right from the start: locked before the first stop.
        let atOnce = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: scripted(ride))
        #expect(atOnce.lockStations == 0)
        // Wrong until just after the train came to a stop at its second station.
        var tracker = scripted(ride)
        tracker.wrongUntil = stops[1].time + 5
        let late = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        #expect(late.lockStations == 2)
        #expect(AlgorithmScore(algorithm: "scripted", scores: [atOnce, late]).medianLockStations == 1)
        // Never locked: no count.
        tracker.silent = true
        #expect(Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker).lockStations == nil)
    }

    @Test func aRideIsDecidedWhenItLocksWithinOneStationAfterTheStationThatTells() throws {
        // Locals boarding at a station the express calls at too: told apart at the next station.
        let filter = RideFilter(
            railways: [DemoNetwork.localID, DemoNetwork.expressID], trainTypes: [DemoNetwork.localID], stops: 5...6)
        let rides = CaseGenerator(dataset: DemoRides.dataset).cases(count: 8, seed: 3, filter: filter)
        let ride = try #require(rides.first { $0.truth.telling?.station != nil })
        let passages = try #require(ride.truth.passages)
        #expect(ride.truth.telling?.station == passages[1].station)
        let before = ScriptedTracker(
            truth: Dictionary(ride.truth.fixes.map { ($0.time, $0) }, uniquingKeysWith: { first, _ in first }),
            railway: ride.truth.railwayID, direction: ride.truth.directionName)
        func score(wrongUntil: Double) -> CaseScore {
            var tracker = before
            tracker.wrongUntil = wrongUntil
            return Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: tracker)
        }
        let atOnce = score(wrongUntil: 0)
        let oneAfter = score(wrongUntil: passages[2].time + 5)
        let twoAfter = score(wrongUntil: passages[3].time + 5)
        #expect(atOnce.told && atOnce.stationsAfterTelling == 0)
        #expect(oneAfter.stationsAfterTelling == 1)
        #expect(twoAfter.stationsAfterTelling == 2)
        var silent = before
        silent.silent = true
        let never = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: silent)
        #expect(never.told && never.stationsAfterTelling == nil)
        let summary = AlgorithmScore(algorithm: "scripted", scores: [atOnce, oneAfter, twoAfter, never])
        #expect(summary.toldRides == 4 && summary.untoldRides == 0)
        #expect(summary.decidedShare == 0.5)
        #expect(summary.medianStationsAfterTelling == 1)
        // Naming the express before the station that tells them apart is right "either way"; after it, not.
        var express = before
        express.wrongRailway = DemoNetwork.expressID
        express.wrongUntil = passages[2].time + 60
        let alike = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: express)
        let warmUpEnd = ride.truth.departure + Evaluator().warmUp
        let beforeParting = ride.truth.fixes.filter { $0.time >= warmUpEnd && $0.time < passages[1].time }.count
        #expect(beforeParting > 0)
        #expect(alike.railwayAlikeCorrect == alike.railwayCorrect + beforeParting)
        #expect(alike.railwayAlikeCorrect < alike.scoredFixes)
        // A ride with a service never told apart is counted apart, not as decided or undecided.
        var untold = ride.truth
        untold.telling?.untold = ["Demo.Local/Demo.Semi"]
        untold.telling?.station = nil
        let either = Evaluator().score(fixes: ride.fixes, truth: untold, tracker: before)
        #expect(either.untold && !either.told && either.stationsAfterTelling == nil)
    }

    @Test func betweenTrainsNothingIsScoredUntilTheSecondTrainIsUnderWay() throws {
        var ride = try ride()
        // Pretend the rider got off at a third of the ride and boarded again at two thirds.
        let times = ride.truth.fixes.map(\.time).sorted()
        let (arrival, secondDeparture) = (times[times.count / 3], times[2 * times.count / 3])
        ride.truth.transfer = CaseTruth.Transfer(
            fromRailwayID: "Elsewhere", fromTrainID: "Elsewhere.1", secondDeparture: secondDeparture, firstArrival: arrival)
        let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: scripted(ride))
        let scored = ride.truth.fixes.filter {
            $0.time >= ride.truth.departure + 90 && ($0.time < arrival || $0.time >= secondDeparture + 90)
        }
        #expect(score.scoredFixes == scored.count && scored.count > 0)
        // Lock is measured from the second departure.
        #expect(score.locked && score.lockTime == 0)
    }

    @Test func theSummaryAveragesOverFixesAndTakesTheMedianLock() {
        func score(_ fixes: Int, _ right: Int, lock: Seconds?) -> CaseScore {
            CaseScore(
                sessionID: "s", scenario: nil, scoredFixes: fixes, railwayCorrect: right, directionCorrect: right,
                focusCorrect: right,
                nextStopCorrect: right, locked: lock != nil, lockTime: lock, microsecondsPerFix: 2)
        }
        let summary = AlgorithmScore(
            algorithm: "x", scores: [score(100, 100, lock: 10), score(300, 0, lock: nil), score(100, 50, lock: 30)])
        #expect(summary.fixes == 500)
        #expect(abs(summary.railwayAccuracy - 0.3) < 1e-12)
        #expect(abs(summary.lockedShare - 2.0 / 3.0) < 1e-12)
        #expect(summary.medianLockTime == 20)
    }

    /// Each predicted arrival at a stop ahead is scored against the train's first arrival there
    /// after the fix: its horizon, how far ahead the truth was, its error and whether its
    /// interval held the truth; a stop the train never reaches after the fix is not scored.
    @Test func predictedArrivalsAtTheStopsAheadAreScoredAgainstTheTrainsNextArrivalThere() {
        let at = { (seconds: Double) in Timestamp(secondsSince1970: seconds) }
        var best = TrackingCandidate(
            railwayID: "Line", direction: .ascending, directionName: "Out", destinationStationID: "D",
            focusStationID: "B", phase: .next, laterStationIDs: [], score: 0)
        best.arrivals = [
            PredictedArrival(stationID: "B", time: at(1_100), earliest: at(1_080), latest: at(1_150)),
            PredictedArrival(stationID: "C", time: at(1_700), earliest: at(1_690), latest: at(1_720)),
            PredictedArrival(stationID: "X", time: at(1_900), earliest: at(1_800), latest: at(2_000)),
        ]
        // The train was at B before the fix, and comes to B again (a loop) and to C after it.
        let truth: [(station: String, time: Double)] = [("B", 900), ("B", 1_120), ("C", 1_760)]
        let verdicts = Evaluator.stopsAhead(best, at: 1_000, arrivals: truth)
        #expect(verdicts.count == 2)
        #expect(verdicts.first == StopAheadVerdict(horizon: 100, ahead: 120, error: -20, covered: true))
        #expect(verdicts.last == StopAheadVerdict(horizon: 700, ahead: 760, error: -60, covered: false))
    }
}
