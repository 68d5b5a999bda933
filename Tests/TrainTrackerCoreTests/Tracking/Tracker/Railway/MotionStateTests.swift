import Testing

@testable import TrainTrackerCore

/// The stopped/moving/walking signal the railway tracker reads its stops from.
@Suite struct MotionStateTests {
    let start = Timestamp(secondsSince1970: 1_758_520_000)
    let origin = Coordinate(latitude: 35.68, longitude: 139.76)

    /// Feeds one fix a second with `speeds` from second `from` on, moving east by each
    /// speed; returns the changes.
    func run(_ speeds: [Double], from: Int = 0, state: inout MotionState) -> [MotionState.Change?] {
        let projection = LocalProjection(origin: origin)
        var east = Double(from) * 10
        return speeds.enumerated().map { offset, speed in
            east += speed
            let fix = Location(
                coordinate: projection.coordinate(at: PlanarVector(east: east, north: 0)),
                timestamp: start.adding(Double(from + offset)), horizontalAccuracy: 10, speed: speed, course: 90)
            return state.update(fix)
        }
    }

    @Test func walkingSpeedsHeldForFifteenSecondsMeanTheRiderIsOnFoot() {
        var state = MotionState()
        let speeds = Array(repeating: 0.0, count: 20) + Array(repeating: 1.3, count: 30)
        _ = run(Array(speeds.prefix(30)), state: &state)
        #expect(!state.isWalking, "ten seconds of walking is not yet a walk")
        _ = run(Array(speeds.suffix(20)), from: 30, state: &state)
        #expect(state.isWalking)
        #expect(state.isStopped, "a rider on foot is on no moving train")
    }

    @Test func aTrainAcceleratingThroughWalkingSpeedsIsNotWalking() {
        var state = MotionState()
        // Standing with speed noise, then 0.8 m/s² up to 20 m/s.
        let standing = (0..<30).map { Double($0 % 3) * 0.25 }
        let accelerating = (0..<40).map { min(20, 0.8 * Double($0)) }
        let changes = run(standing + accelerating, state: &state)
        #expect(!state.isWalking)
        #expect(!state.isStopped)
        #expect(changes.contains { if case .ended = $0 { true } else { false } })
    }

    @Test func aPauseInTheWalkKeepsItAWalkButATrainsSpeedEndsIt() {
        var state = MotionState()
        _ = run(Array(repeating: 1.2, count: 20) + [0, 0, 1.1, 1.2], state: &state)
        #expect(state.isWalking)
        _ = run([1.2, 8, 9, 10, 11], from: 24, state: &state)
        #expect(!state.isWalking)
    }

    @Test func standingStillIsNeverWalking() {
        var state = MotionState()
        // Speed noise while standing: mostly zero, now and then a few tenths, one 0.7.
        let noise = (0..<120).map { $0 % 11 == 0 ? 0.7 : Double($0 % 4) * 0.1 }
        _ = run(noise, state: &state)
        #expect(!state.isWalking)
        #expect(state.isStopped)
    }

    @Test func aPhoneReportingEveryTenSecondsStopsAndLeaves() {
        // Moving, three readings of 0 ten seconds apart (a 30 s dwell), moving again.
        var state = MotionState()
        let projection = LocalProjection(origin: origin)
        let speeds: [Double] = [20, 20, 9, 0, 0, 0, 12, 20]
        var changes: [MotionState.Change?] = []
        var east = 0.0
        for (index, speed) in speeds.enumerated() {
            east += speed * 10
            changes.append(
                state.update(
                    Location(
                        coordinate: projection.coordinate(at: PlanarVector(east: east, north: 0)),
                        timestamp: start.adding(Double(index) * 10), horizontalAccuracy: 8, speed: speed,
                        course: speed > 1 ? 90 : nil)))
        }
        #expect(changes.contains { if case .started = $0 { true } else { false } }, "the dwell is a stop")
        #expect(changes.contains { if case .ended(let duration) = $0 { duration >= 10 } else { false } })
        #expect(!state.isStopped)
    }

    @Test func twoStillFixesWithoutSpeedAMinuteApartAreAStop() {
        var state = MotionState()
        let projection = LocalProjection(origin: origin)
        let positions: [Double] = [0, 600, 1_200, 1_205, 1_203, 1_900]
        let changes = positions.enumerated().map { index, east in
            state.update(
                Location(
                    coordinate: projection.coordinate(at: PlanarVector(east: east, north: 0)),
                    timestamp: start.adding(Double(index) * 40), horizontalAccuracy: 15))
        }
        #expect(changes.prefix(3).allSatisfy { $0 == nil })
        #expect(changes.contains { if case .started = $0 { true } else { false } })
        #expect(changes.last.map { if case .ended = $0 { true } else { false } } == true)
    }

    @Test func jitterAboutAStandingPointIsStandingUntilTheTrainMovesOff() {
        // An Android logger under a station roof: position and time only, one fix a second,
        // wandering 35 m about where the train stands at up to 5.5 m/s (a 40 s circle), for
        // 20 minutes, with one wild fix a kilometre off; then the train moves off at 0.8 m/s².
        var state = MotionState()
        let projection = LocalProjection(origin: origin)
        func fix(_ east: Meters, _ north: Meters, at second: Int) -> Location {
            Location(
                coordinate: projection.coordinate(at: PlanarVector(east: east, north: north)),
                timestamp: start.adding(Double(second)), horizontalAccuracy: 10)
        }
        for second in 0..<10 { _ = state.update(fix(0, 0, at: second)) }
        #expect(state.isStopped)
        var endedWhileStanding = false
        for second in 10..<1_210 {
            let angle = 2 * Double.pi * Double(second) / 40
            let location =
                second == 600 ? fix(1_000, 0, at: second) : fix(35 * Double.sin(angle), 35 * Double.cos(angle), at: second)
            if case .ended = state.update(location) { endedWhileStanding = true }
        }
        #expect(!endedWhileStanding, "jitter is not a departure")
        #expect(state.isStopped)
        var departure: Int?
        for second in 1..<40 where departure == nil {
            let east = 0.4 * Double(second * second)
            if case .ended = state.update(fix(east, 35, at: 1_210 + second)) { departure = second }
        }
        // 60 m and its accuracy out, twice in a row: 14 s at 0.8 m/s².
        #expect(departure.map { (10...20).contains($0) } == true, "\(String(describing: departure))")
    }

    @Test func aPoorFixWithoutSpeedIsNoDepartureOfAPhoneThatMeasuredItStood() {
        // A phone measuring 0 m/s every 20 s at a big station; 12 s after each, a position
        // 290 m off that claims 300 m and no speed (a cell or Wi-Fi position).
        var state = MotionState()
        let projection = LocalProjection(origin: origin)
        func fix(at second: Int, stray: Bool) -> Location {
            stray
                ? Location(
                    coordinate: projection.coordinate(at: PlanarVector(east: 0, north: 290)),
                    timestamp: start.adding(Double(second)),
                    horizontalAccuracy: 300)
                : Location(coordinate: origin, timestamp: start.adding(Double(second)), horizontalAccuracy: 15, speed: 0)
        }
        var changes: [MotionState.Change?] = []
        for second in stride(from: 0, to: 300, by: 20) {
            changes.append(state.update(fix(at: second, stray: false)))
            changes.append(state.update(fix(at: second + 12, stray: true)))
        }
        #expect(state.isStopped)
        #expect(!changes.contains { if case .ended = $0 { true } else { false } }, "no stray fix ended the stop")
        // The phone goes quiet (it logs on movement, last at 280 s): a stray fix 59 s after the
        // last measured speed still holds the stop, one 61 s after it no longer does.
        #expect(state.update(fix(at: 339, stray: true)) == nil && state.isStopped)
        if case .ended = state.update(fix(at: 341, stray: true)) {} else { Issue.record("the stop outlasted its hold") }
    }

    @Test func poorOrBrokenFixesNeitherHoldAStopForeverNorMoveWhereItStands() {
        // A phone without speeds stands 30 s; then fixes with no usable position (NaN, an
        // accuracy of -inf or of 200 m) come while it stands and as the train moves off.
        var state = MotionState()
        let projection = LocalProjection(origin: origin)
        func fix(_ east: Meters, at second: Int, accuracy: Meters? = 10, broken: Bool = false) -> Location {
            Location(
                coordinate: broken
                    ? Coordinate(latitude: .nan, longitude: .nan) : projection.coordinate(at: PlanarVector(east: east, north: 0)),
                timestamp: start.adding(Double(second)), horizontalAccuracy: accuracy)
        }
        for second in 0..<30 { _ = state.update(fix(Double(second % 3), at: second)) }
        #expect(state.isStopped)
        _ = state.update(fix(0, at: 30, broken: true))
        _ = state.update(fix(0, at: 31, accuracy: -.infinity))
        _ = state.update(fix(0, at: 32, accuracy: .nan))
        _ = state.update(fix(1, at: 33))
        #expect(state.isStopped, "a broken fix is no departure")
        // Moving off, seen only through 200 m fixes: the stop ends within seconds, not never.
        var ended: Int?
        for second in 1..<60 where ended == nil {
            if case .ended = state.update(fix(0.4 * Double(second * second), at: 33 + second, accuracy: 200)) { ended = second }
        }
        #expect(ended.map { $0 <= 8 } == true, "\(String(describing: ended))")
    }
}
