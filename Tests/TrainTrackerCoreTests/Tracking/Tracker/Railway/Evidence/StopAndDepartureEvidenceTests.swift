import RealModule
import Testing

@testable import TrainTrackerCore

/// The stops-and-passes and departure-time evidence.
@Suite struct StopAndDepartureEvidenceTests {
    @Test(arguments: [
        // (what, stopped, the pattern stops there, runs there, with a timetable, probability)
        ("stopped where the pattern stops", true, true, true, true, 0.97),
        ("stopped where it runs through: as often as trains stand where they pass", true, false, true, true, 0.03),
        ("ran through where it stops", false, true, true, true, 0.03),
        ("ran through where it stops, no timetable to say so", false, true, true, false, 0.25),
        ("ran through where it runs through", false, false, true, true, 0.97),
        ("stopped where its trains never run", true, true, false, true, 0.03),
        ("ran through where its trains never run", false, false, false, true, 0.03),
    ])
    func patternsExplainStopsAndPasses(
        _ what: String, stopped: Bool, stops: Bool, runs: Bool, hasTimetable: Bool, expected: Double
    ) {
        let probability = StopEvidence().probability(
            stopped: stopped, patternStops: stops, patternRuns: runs, hasTimetable: hasTimetable)
        #expect(abs(probability - expected) < 1e-12, "\(what)")
    }

    @Test(arguments: [
        // (what, seconds between the fixes, metres covered, whether a stop may hide in between)
        ("close fixes are no gap", 5.0, 100.0, false),
        ("a minute over 500 m: time to stop", 60.0, 500.0, true),
        // (A stop costs 25 s over running through at 40 m/s.)
        ("a minute over 2.4 km: too fast to stop", 60.0, 2_400.0, false),
        ("a minute over 1.5 km: too fast to stop", 60.0, 1_500.0, false),
        ("a minute over 1.4 km: just time", 60.0, 1_400.0, true),
        ("ten minutes over 10 km", 600.0, 10_000.0, true),
    ])
    func unseenStops(_ what: String, gap: Seconds, distance: Meters, mayHaveStopped: Bool) {
        #expect(StopEvidence().mayHaveStoppedUnseen(gap: gap, distance: distance) == mayHaveStopped, "\(what)")
    }

    /// (what, metres on from where it stood, measured speed, seconds since the fix before,
    /// seconds since it moved off)
    static let datedDepartures: [(String, Meters, MetersPerSecond?, Seconds, Seconds?)] = [
        ("100 m on at 10 m/s after a 30 s silence: 20 s ago", 100, 10, 30, 20),
        ("a fix a second, 0.5 m on at 1 m/s: below a moving-off speed", 0.5, 1, 1, nil),
        ("4 m on at 4 m/s a second later: before the fix that saw it stand", 4, 4, 1, nil),
        ("2 m on at 4 m/s a second later", 2, 4, 1, 1),
        ("no measured speed", 100, nil, 30, nil),
        ("a broken speed", 100, .nan, 30, nil),
        ("300 m on at 10 m/s: before the fix that saw it stand", 300, 10, 30, nil),
        ("100 m on at 10 m/s, the fix that saw it stand 20 s before: just then", 100, 10, 20, 20),
        ("3 m on at exactly 3 m/s", 3, 3, 5, 2),
        ("2 km on at 25 m/s after a four-minute tunnel: run at speed since", 2_000, 25, 240, nil),
        ("an endless distance", .infinity, 10, 30, nil),
    ]

    @Test(arguments: datedDepartures)
    func departuresDatedBySpeed(_ what: String, distance: Meters, speed: MetersPerSecond?, gap: Seconds, ago: Seconds?) {
        #expect(StopEvidence().timeSinceMovingOff(distance: distance, speed: speed, gap: gap) == ago, "\(what)")
    }

    @Test(arguments: [
        // (what, seconds between the fixes, metres covered, whether it was a stop unseen)
        ("a movement logger's 40 s silence over 100 m", 40.0, 100.0, true),
        ("a 12 s silence over 30 m", 12.0, 30.0, true),
        ("close fixes are no silence", 5.0, 2.0, false),
        ("a quiet phone's minute over 2 km: running", 60.0, 2_000.0, false),
        ("30 s over 89 m: just under 3 m/s", 30.0, 89.0, true),
        ("30 s over 91 m: just over 3 m/s", 30.0, 91.0, false),
    ])
    func silentStops(_ what: String, gap: Seconds, distance: Meters, stopped: Bool) {
        #expect(StopEvidence().isSilentStop(gap: gap, distance: distance) == stopped, "\(what)")
        var off = StopEvidence()
        off.silentStopSpeed = 0
        #expect(!off.isSilentStop(gap: gap, distance: distance), "\(what), the rule off")
    }

    @Test(arguments: [
        // (what, seconds between the fixes, metres from the station before and after, whether it counts as crossed)
        ("1 Hz fixes beside the platform", 1.0, 10.0, 10.0, true),
        ("a sparse fix at the platform", 30.0, 10.0, 600.0, false),
        ("sparse fixes either side, both clear", 30.0, 300.0, 300.0, true),
        ("sparse fixes, the next one at the platform", 30.0, 600.0, 50.0, false),
    ])
    func crossingsBetweenSparseFixes(_ what: String, gap: Seconds, before: Meters, after: Meters, counts: Bool) {
        #expect(StopEvidence().showsCrossing(gap: gap, before: before, after: after) == counts, "\(what)")
    }

    @Test(arguments: [
        // (what, delay, against, how the first stands)
        ("on time against five minutes late", 30.0, 300.0, Comparison.higher),
        ("five minutes late against five minutes early", 300.0, -300.0, .higher),
        ("half a minute early against half an hour late", -10.0, 1_800.0, .higher),
        ("a minute early against on time", -60.0, 0.0, .lower),
        ("a minute late, on time, against two minutes late", 60.0, 120.0, .higher),
    ])
    func departureDelays(_ what: String, delay: Seconds, other: Seconds, comparison: Comparison) {
        let evidence = DepartureEvidence()
        #expect(comparison.holds(evidence.delayDensity(delay), against: evidence.delayDensity(other)), "\(what)")
    }

    @Test(arguments: [
        // (change of delay since the last station, against, how the first stands)
        (0.0, 60.0, Comparison.higher), (-30.0, 30.0, .equal), (60.0, 600.0, .higher),
        // Ten minutes or more: a train off its timetable, as likely whatever the change.
        (600.0, 1_200.0, .equal),
    ])
    func trainsKeepTheirDelay(change: Seconds, other: Seconds, comparison: Comparison) {
        let evidence = DepartureEvidence()
        #expect(comparison.holds(evidence.delayChangeDensity(change), against: evidence.delayChangeDensity(other)))
        #expect(evidence.delayChangeDensity(1e9) > 0)
    }

    @Test(arguments: [
        // (log density of the departure, nats): against a random time of the 32-minute window, capped
        (-Double.infinity, -4.5), (0.0, 4.5), (-100.0, -4.5),
    ])
    func aDepartureSaysAtMostTheCap(logDensity: Double, expected: Double) {
        #expect(DepartureEvidence().nats(logDensity: logDensity) == expected)
    }

    @Test func aDepartureAtARandomTimeSaysNothing() {
        let evidence = DepartureEvidence()
        let random = -Double.log(1_920)
        #expect(abs(evidence.nats(logDensity: random)) < 1e-12)
    }
}
