import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The speed filters: what they make of steady running, a stop, a lone false zero, a gap,
/// missing speeds and sparse fixes.
@Suite struct SpeedFilterTests {
    static let start = Timestamp(secondsSince1970: 1_758_520_000)
    static let origin = LocalProjection(origin: Coordinate(latitude: 35.68, longitude: 139.76))

    /// Fixes eastwards, one per `interval` seconds, at the speeds given (the phone reports them
    /// unless `reported` is false).
    static func fixes(_ speeds: [Double], interval: Seconds = 1, reported: Bool = true, from second: Double = 0) -> [Location] {
        var east = 0.0
        return speeds.enumerated().map { index, speed in
            east += speed * interval
            return Location(
                coordinate: origin.coordinate(at: PlanarVector(east: east, north: 0)),
                timestamp: start.adding(second + Double(index) * interval), horizontalAccuracy: 5,
                speed: reported ? speed : nil, course: reported && speed > 1.4 ? 90 : nil)
        }
    }

    static func run(_ name: SpeedFilterName, _ fixes: [Location]) -> [SpeedEstimate] {
        var filter = name.makeFilter()
        return fixes.map { filter.update($0) }
    }

    static let smoothing: [SpeedFilterName] = [.exponential, .window, .decay, .kalman]

    @Test(arguments: SpeedFilterName.allCases)
    func steadyRunningReadsAsItsSpeed(filter: SpeedFilterName) {
        let estimates = Self.run(filter, Self.fixes(Array(repeating: 12, count: 40)))
        #expect(abs((estimates.last?.speed ?? 0) - 12) < 0.5)
        #expect(estimates.allSatisfy { !$0.isStopped })
    }

    @Test(arguments: smoothing)
    func aStoppingTrainIsStoppedWithinThreeSeconds(filter: SpeedFilterName) throws {
        // 15 m/s, braking at 1 m/s² to a stand, then standing.
        let speeds = Array(repeating: 15.0, count: 20) + (1...15).map { 15 - Double($0) } + Array(repeating: 0, count: 20)
        let estimates = Self.run(filter, Self.fixes(speeds))
        let standing = 34  // the first second at 0
        let stopped = try #require(estimates.indices.first { estimates[$0].isStopped })
        #expect(stopped >= standing - 1 && stopped <= standing + 3)
        #expect(estimates.last?.speed == 0)
    }

    @Test(arguments: smoothing)
    func aLoneZeroWhileMovingIsNeverAStop(filter: SpeedFilterName) {
        var speeds = Array(repeating: 15.0, count: 40)
        speeds[20] = 0
        speeds[30] = 0
        speeds[31] = 0
        let estimates = Self.run(filter, Self.fixes(speeds))
        #expect(estimates.allSatisfy { !$0.isStopped })
        if filter == .kalman { #expect(estimates.allSatisfy { $0.speed > 12 }, "the false zero is an outlier") }
    }

    @Test func theNaiveFilterIsDraggedDownByAFalseZero() {
        var speeds = Array(repeating: 15.0, count: 10)
        speeds[5] = 0
        let estimates = Self.run(.exponential, Self.fixes(speeds))
        #expect(estimates[5].speed < 5, "three quarters of the weight on one bad reading")
    }

    @Test func afterAGapOnlyFreshReadingsCount() {
        // 20 m/s, a minute without fixes (slowing, 750 m on), then 5 m/s.
        let later = Self.fixes([5, 5], from: 70).map { fix in
            var moved = fix
            moved.coordinate = Self.origin.coordinate(
                at: Self.origin.vector(to: fix.coordinate) + PlanarVector(east: 950, north: 0))
            return moved
        }
        let fixes = Self.fixes(Array(repeating: 20, count: 10)) + later
        let window = Self.run(.window, fixes)
        let naive = Self.run(.exponential, fixes)
        #expect(abs(window[10].speed - 5) < 0.01, "the stale readings have aged out")
        #expect(naive[10].speed > 8, "the naive filter still trusts readings a minute old")
    }

    @Test func withoutSpeedsTheKalmanFilterUsesThePositions() {
        let estimates = Self.run(.kalman, Self.fixes(Array(repeating: 10, count: 30), reported: false))
        #expect(abs((estimates.last?.speed ?? 0) - 10) < 1)
        let standing = Self.run(
            .kalman, Self.fixes(Array(repeating: 10, count: 20) + Array(repeating: 0, count: 15), reported: false))
        #expect(standing.last?.isStopped == true)
    }

    @Test(arguments: smoothing)
    func sparseFixesTenSecondsApartStillStop(filter: SpeedFilterName) {
        let estimates = Self.run(filter, Self.fixes([12, 12, 12, 0, 0, 0], interval: 10))
        #expect(estimates[4].isStopped, "two readings of zero ten seconds apart")
        #expect(!estimates[3].isStopped, "but not one")
    }

    @Test func theStopDetectorNeedsThreeStandingReadingsAndTwoMovingOnes() {
        var detector = StopDetector()
        #expect(!detector.isStopped, "no readings: moving")
        let readings: [Double?] = [0, nil, 0, 0, 1.5, 1.5]
        let answers = readings.enumerated().map { index, speed in
            detector.update(speed: speed, at: Self.start.adding(Double(index)))
        }
        // One zero, a missing reading (changes nothing), two more zeros: stopped at the third;
        // one moving reading is not a departure, the second is.
        #expect(answers == [false, false, false, true, true, false])
    }

    @Test func onSimulatedRidesKalmanBeatsTheRawSpeedAndNeverStopsFalsely() throws {
        let cases = CaseGenerator(dataset: DemoRides.dataset).cases(count: 3, seed: 5, filter: RideFilter())
        #expect(cases.count == 3)
        var raw = SpeedFilterScore(filter: .raw)
        var kalman = SpeedFilterScore(filter: .kalman)
        for ride in cases {
            raw.add(fixes: ride.fixes, truth: ride.truth.fixes)
            kalman.add(fixes: ride.fixes, truth: ride.truth.fixes)
        }
        #expect(kalman.fixes > 1_000)
        #expect(kalman.rootMeanSquareError < raw.rootMeanSquareError)
        #expect(kalman.falseStops == 0)
        #expect(kalman.missedStops == 0 && !kalman.stopDelays.isEmpty)
        #expect(try #require(kalman.stopDelay90) <= 5)
    }

    /// A phone standing, a fix every 10 s without speeds; after a gap of 158 s one position
    /// 6.6 km off (claiming 35 m), then back where it was 16 s later: what the Helsinki
    /// phones' network positions do.
    static func standingWithAFarFix() -> [Location] {
        let here = origin.coordinate(at: PlanarVector(east: 0, north: 0))
        var fixes = (0..<12).map { Location(coordinate: here, timestamp: start.adding(Double($0) * 10), horizontalAccuracy: 28) }
        fixes.append(
            Location(
                coordinate: origin.coordinate(at: PlanarVector(east: 6_600, north: 0)), timestamp: start.adding(268),
                horizontalAccuracy: 35))
        fixes += (0..<6).map {
            Location(coordinate: here, timestamp: start.adding(284 + Double($0) * 10), horizontalAccuracy: 37)
        }
        return fixes
    }

    @Test func aFarFixAfterAGapGivesNoSpeedThePositionsCannotSupport() {
        let speeds = Self.run(.kalman, Self.standingWithAFarFix()).map(\.speed)
        // At most 2 m/s² over 15 s from standing at the far fix, and the way back (6.6 km in
        // 16 s, which nothing on the ground does) is not taken for a speed at all.
        #expect(speeds.max() ?? 0 <= 30.5, "\(speeds.map { Int($0.rounded()) })")
        #expect(speeds.last ?? 99 < 3)
    }

    /// A phone whose reported speed spikes to 80 m/s for three readings while its positions move
    /// at 10 m/s: the filters smoothing reported speeds no longer pass the spike on.
    @Test func everySmoothingFilterIsHeldToWhatThePositionsSupport() {
        var fixes = Self.fixes(Array(repeating: 10, count: 40))
        for index in 20..<23 { fixes[index].speed = 80 }
        for name in Self.smoothing {
            let speeds = Self.run(name, fixes).map(\.speed)
            let ceiling: Double = 40
            #expect(speeds.allSatisfy { $0 <= ceiling }, "\(name): \(speeds.max() ?? 0)")
            // Bounded by positions 5 s apart widened by both accuracies: at most 18 m/s.
            #expect(speeds[20..<23].allSatisfy { $0 <= 18.01 }, "\(name): \(speeds[20..<23])")
        }
        // The raw reading is left as it is, for reference.
        #expect(Self.run(.raw, fixes)[21].speed == 80)
    }

    @Test func aLegsLimitHoldsItsSpeeds() {
        let start = Self.start
        func leg(_ mode: LegMode, _ from: Double, _ to: Double) -> DiaryLeg {
            DiaryLeg(start: start.adding(from), end: start.adding(to), mode: mode, fixes: [])
        }
        let metro = RailLegName(
            lines: ["metro"], kind: "metro", from: RailStation(code: "A", name: "A", coordinate: Self.origin.origin),
            to: RailStation(code: "B", name: "B", coordinate: Self.origin.origin))
        let legs: [(leg: DiaryLeg, line: RailLegName?)] = [
            (leg(.walking, 0, 100), nil), (leg(.rail, 100, 200), metro), (leg(.rail, 200, 300), nil), (leg(.stay, 300, 400), nil),
            (leg(.vehicle, 400, 500), nil),
        ]
        let times = [50.0, 100, 150, 250, 350, 450].map { start.adding($0) }
        let limited = LegSpeedLimits().limited([60, 60, 60, 60, 60, 60], at: times, legs: legs)
        // On foot 12; the boundary fix takes the faster of its two legs (the metro's 25); the
        // metro 25; a train 45; standing 2; a vehicle leg may be a train the diary could not tell.
        #expect(limited == [12, 25, 25, 45, 2, 45])
    }

    @Test func aTrainPullingAwayIsFollowedWithinItsAcceleration() {
        // Standing, then 1 m/s² to 30 m/s: the report keeps up (the bound is 2 m/s²).
        let ramp = Array(repeating: 0.0, count: 10) + (1...30).map(Double.init) + Array(repeating: 30.0, count: 20)
        let speeds = Self.run(.kalman, Self.fixes(ramp))
        #expect(abs(speeds[39].speed - 30) < 3, "\(speeds[39].speed)")
        #expect(speeds.allSatisfy { $0.speed <= 33 })
    }
}
