import Testing

@testable import TrainTrackerCore

/// The passage evidence: when a scheduled train is due at a place between its calls, and how
/// loosely a passage's delay is judged.
@Suite struct PassageEvidenceTests {
    /// Four stations 1 km apart.
    let positions: [Meters] = [0, 1_000, 2_000, 3_000]

    @Test(arguments: [
        // (what, along, the time due)
        ("at its first call: leaving", 0.0, 100.0 as Seconds?),
        ("past a station it runs through, halfway to its next call", 1_000.0, 235.0),
        ("just short of its next call: arriving a dwell before leaving", 1_999.0, 100 + 270 * 0.9995),
        ("halfway to its end: arriving at the end's time", 2_500.0, 500.0),
        ("before its first call", -100.0, nil),
        ("beyond its end", 3_200.0, nil),
    ])
    func dueAlongTheTrack(_ what: String, along: Meters, due: Seconds?) throws {
        // Calls at 0 (leaves 100 s) and 2 (leaves 400 s), runs through 1, ends at 3 (arrives 600 s).
        let trip = ScheduledTrip(pattern: 0, service: 0, departures: [(0, 100), (2, 400)], arrival: (3, 600))
        let time = trip.time(at: along, positions: positions, walk: TrackWalk(length: 3_000, isLoop: false, sign: 1))
        if let due {
            let time = try #require(time, "\(what)")
            #expect(abs(time - due) < 1e-6, "\(what): \(time)")
        } else {
            #expect(time == nil, "\(what)")
        }
    }

    @Test(arguments: [
        // (what, along, the time due)
        ("the other way, past a station it runs through", 2_000.0, 235.0 as Seconds?),
        ("the other way, beyond its end", -50.0, nil),
    ])
    func dueTheOtherWay(_ what: String, along: Meters, due: Seconds?) {
        let trip = ScheduledTrip(pattern: 0, service: 0, departures: [(3, 100), (1, 400)], arrival: (0, 600))
        let time = trip.time(at: along, positions: positions, walk: TrackWalk(length: 3_000, isLoop: false, sign: -1))
        #expect(time.map { abs($0 - (due ?? .nan)) < 1e-6 } ?? (due == nil), "\(what): \(String(describing: time))")
    }

    @Test(arguments: [
        // (what, along, the time due) on a 4 km loop, the trip crossing its seam
        ("before the seam", 3_500.0, 135.0 as Seconds?),
        ("after the seam", 500.0, 250.0),
        ("where it does not run", 2_500.0, nil),
    ])
    func dueOnALoop(_ what: String, along: Meters, due: Seconds?) {
        let trip = ScheduledTrip(pattern: 0, service: 0, departures: [(3, 100), (0, 200)], arrival: (1, 300))
        let time = trip.time(at: along, positions: positions, walk: TrackWalk(length: 4_000, isLoop: true, sign: 1))
        #expect(time.map { abs($0 - (due ?? .nan)) < 1e-6 } ?? (due == nil), "\(what): \(String(describing: time))")
    }

    @Test(arguments: [
        // (what, delay, against, how the passage's density stands against the departure's)
        ("a minute and a half late: on time for a passage, not for a departure", 90.0, Comparison.higher),
        ("on time", 0.0, .lower),
    ])
    func aPassageIsJudgedMoreLoosely(_ what: String, delay: Seconds, comparison: Comparison) {
        let departures = DepartureEvidence()
        let timing = PassageEvidence().timing(from: departures)
        #expect(comparison.holds(timing.delayDensity(delay), against: departures.delayDensity(delay)), "\(what)")
    }

    @Test func aPassagesDelayChangeIsJudgedOnItsOwnLooserScale() {
        let departures = DepartureEvidence()
        let timing = PassageEvidence().timing(from: departures)
        #expect(timing.delayChangeDensity(60) > departures.delayChangeDensity(60))
        #expect(timing.delayChangeDensity(0) < departures.delayChangeDensity(0))
    }

    @Test(arguments: [(-1_000.0, 0.0), (0.0, 0.0)])
    func tuningCannotBreakTheTiming(slack: Seconds, scale: Seconds) {
        var passages = PassageEvidence()
        passages.slack = slack
        passages.delayChangeScale = scale
        let timing = passages.timing(from: DepartureEvidence())
        #expect(timing.onTime.lowerBound <= timing.onTime.upperBound)
        #expect(timing.delayChangeDensity(30).isFinite)
        #expect(timing.delayDensity(30).isFinite)
    }

    @Test(arguments: [
        // (the clock, the time due): a loop trip passing the place on two laps
        (130.0, 135.0), (540.0, 535.0), (0.0, 135.0),
    ])
    func aLoopTripPassingTwiceIsDueAtThePassingNearestTheClock(clock: Seconds, due: Seconds) throws {
        let trip = ScheduledTrip(
            pattern: 0, service: 0, departures: [(0, 100), (1, 200), (2, 300), (3, 400), (0, 500), (1, 600)], arrival: (2, 700))
        let walk = TrackWalk(length: 4_000, isLoop: true, sign: 1)
        let time = try #require(trip.time(at: 500, positions: positions, walk: walk, near: clock))
        #expect(abs(time - due) < 1e-6)
    }
}

/// Passages are judged only away from stations.
@Suite struct PassageClearanceTests {
    @Test(arguments: [
        // (what, along, on a loop, whether the place is judged)
        ("between two stations", 500.0, false, true),
        ("150 m past a station", 1_150.0, false, false),
        ("150 m short of a station", 1_850.0, false, false),
        ("just short of the first station", -50.0, false, false),
        ("far beyond the last", 3_500.0, false, true),
        ("on a loop, 100 m before the seam's first station", 3_900.0, true, false),
        ("on a loop, between stations", 2_500.0, true, true),
    ])
    func clearOfStations(_ what: String, along: Meters, isLoop: Bool, judged: Bool) {
        let order: [(position: Meters, station: Int)] = [(0, 0), (1_000, 1), (2_000, 2), (3_000, 3)]
        let walk = TrackWalk(length: isLoop ? 4_000 : 3_000, isLoop: isLoop, sign: 1)
        #expect(PassageEvidence().clearOfStations(along, order: order, walk: walk) == judged, "\(what)")
    }

    /// An operator's feed that places a line's trains: the line is the rider's only if one of
    /// them is near, allowing each to have run on since its report.
    @Test(arguments: [
        // (what, the vehicles: km north of the fix and seconds before it, near)
        ("no train reported: the feed says nothing", [] as [(Double, Seconds)], true),
        ("a train at the fix", [(0.0, 0.0)], true),
        ("a train 1.5 km away", [(1.5, 0.0)], true),
        ("the only trains 10 km and 20 km away", [(10.0, 0.0), (20.0, 30.0)], false),
        ("10 km away, seen 4 minutes ago: it may have run here", [(10.0, 240.0)], true),
        ("10 km away, seen 20 minutes ago: too old to say", [(10.0, 1_200.0)], true),
        ("one far, one near", [(20.0, 0.0), (0.5, 60.0)], true),
        ("one far, one seen 20 minutes ago: not every train is placed", [(20.0, 0.0), (30.0, 1_200.0)], true),
    ])
    func aLineIsTheRidersOnlyIfOneOfItsReportedTrainsIsNear(what: String, vehicles: [(Double, Seconds)], near: Bool) {
        let fix = Location(
            coordinate: Coordinate(latitude: 37.4, longitude: -122.1), timestamp: Timestamp(secondsSince1970: 1_000_000))
        let reported = vehicles.map { kilometres, age in
            LiveTrips.PlacedTrain(
                coordinate: Coordinate(latitude: 37.4 + kilometres / 111.2, longitude: -122.1), time: fix.timestamp.adding(-age))
        }
        #expect(PassageEvidence().vehicleNear(fix, among: reported) == near, "\(what)")
        var off = PassageEvidence()
        off.vehicleAbsentCost = 0
        #expect(off.vehicleNear(fix, among: reported), "off: \(what)")
    }
}
