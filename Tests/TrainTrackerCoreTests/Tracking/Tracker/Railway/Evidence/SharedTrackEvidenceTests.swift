import RealModule
import Testing

@testable import TrainTrackerCore

/// What real phones on shared track taught (issue 59): a stop where the service passes weighs
/// as often as such stops happen, and a pass in a gap counts when the train cannot have stopped
/// in it.
@Suite struct SharedTrackEvidenceTests {
    @Test func aStopWhereThePatternPassesWeighsAsOftenAsSuchStopsHappen() {
        var evidence = StopEvidence()
        evidence.unscheduledStopProbability = 0.2
        #expect(evidence.probability(stopped: true, patternStops: false, patternRuns: true, hasTimetable: true) == 0.2)
        #expect(evidence.probability(stopped: false, patternStops: false, patternRuns: true, hasTimetable: true) == 0.8)
        // The rest as before.
        #expect(evidence.probability(stopped: true, patternStops: true, patternRuns: true, hasTimetable: true) == 0.97)
        #expect(evidence.probability(stopped: false, patternStops: true, patternRuns: true, hasTimetable: false) == 0.25)
        #expect(RailwayTracker.Parameters.tunable["unscheduledStopProbability"] != nil)
    }

    @Test(arguments: [
        // (what, gap, metres from the fix before to the station, from the station to the fix
        // after, speeds before and after, whether a stop fits)
        ("20 m/s 120 m short of it: cannot brake in time", 34.0, 120.0, 500.0, 20.0, 20.0, false as Bool?),
        ("a fix 50 m from it may lie on its wrong side: the other rules judge", 34.0, 50.0, 500.0, 20.0, 20.0, nil),
        ("15 m/s either side, 250 m off, 34 s: no time to stand", 34.0, 250.0, 250.0, 15.0, 15.0, false),
        ("15 m/s either side, 250 m off, two minutes: time to stand", 120.0, 250.0, 250.0, 15.0, 15.0, true),
        ("20 m/s 120 m past it: cannot have started from a stand", 60.0, 1_000.0, 120.0, 20.0, 20.0, false),
        ("a speed not measured: the other rules judge", 34.0, 250.0, 250.0, nil, 15.0, nil),
        ("creeping before: the other rules judge", 34.0, 250.0, 250.0, 1.0, 15.0, nil),
    ])
    func aStopInAGapNeedsTheRunItTakes(
        _ what: String, gap: Seconds, before: Meters, after: Meters, speedBefore: MetersPerSecond?,
        speedAfter: MetersPerSecond?, fits: Bool?
    ) {
        let could = StopEvidence().couldHaveStopped(
            gap: gap, before: before, after: after, speedBefore: speedBefore, speedAfter: speedAfter)
        #expect(could == fits, "\(what)")
    }

    @Test func theQuickestRunToAStandBrakesAsLateAsItCan() throws {
        // From 15 m/s over 250 m at 1.2 m/s² up and down: a peak of about 20.3 m/s, 21.3 s.
        let run = try #require(StopEvidence.quickestRun(from: 15, over: 250, rising: 1.2, falling: 1.2, top: 40))
        #expect(abs(run - 21.3) < 0.2, "\(run) s")
        // Capped at the top speed, it cruises: 10 km from 20 m/s, top 40 m/s.
        let long = try #require(StopEvidence.quickestRun(from: 20, over: 10_000, rising: 1, falling: 1, top: 40))
        #expect(long > 10_000 / 40.0 && long < 10_000 / 40.0 + 60, "\(long) s")
        // Too fast to stop in the distance.
        #expect(StopEvidence.quickestRun(from: 30, over: 200, rising: 1, falling: 1.5, top: 40) == nil)
    }
}
