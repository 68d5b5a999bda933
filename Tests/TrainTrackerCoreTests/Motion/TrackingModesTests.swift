import Testing

@testable import TrainTrackerCore

/// The travel-diary recorder's mode machine on made-up days.
@Suite struct TrackingModesTests {
    static let start = Timestamp(secondsSince1970: 1_758_520_000)
    static let origin = LocalProjection(origin: Coordinate(latitude: 60.17, longitude: 24.94))

    /// One fix a second from second `from`, moving east at each speed (or back and forth
    /// within 40 m of the start when `circling`).
    static func fixes(_ speeds: [Double], from: Double = 0, circling: Bool = false) -> [Location] {
        var east = 0.0
        return speeds.enumerated().map { index, speed in
            east += speed
            let angle = Double(index) / 20
            let point =
                circling
                ? PlanarVector(east: 40 * (abs(angle.truncatingRemainder(dividingBy: 4) - 2) - 1), north: 0)
                : PlanarVector(east: east, north: 0)
            return Location(
                coordinate: origin.coordinate(at: point), timestamp: Self.start.adding(from + Double(index)),
                horizontalAccuracy: 8, speed: speed, course: speed > 1.4 ? 90 : nil)
        }
    }

    static func run(_ fixes: [Location], machine: inout TrackingModeMachine) -> [ModeTransition] {
        fixes.compactMap { machine.update($0) }
    }

    @Test func aFastTrainIsAFastVehicleUntilItHasBeenSlowForFiveMinutes() {
        var machine = TrackingModeMachine(settings: TrackingModeSettings())
        let ride = Self.fixes(Array(repeating: 5, count: 90) + Array(repeating: 30, count: 300) + Array(repeating: 8, count: 400))
        let changes = Self.run(ride, machine: &machine)
        #expect(changes.map(\.to) == [.inFastVehicle, .activelyMoving])
        // Fast for 20 s first (the speed rises at 2 m/s² at most: 80 km/h after 9 s); slow
        // for 300 s before leaving.
        let fast = changes[0].timestamp.seconds(since: Self.start)
        #expect(fast >= 110 && fast <= 125, "\(fast)")
        #expect(changes[1].timestamp.seconds(since: Self.start) >= 690 && changes[1].timestamp.seconds(since: Self.start) <= 700)
        #expect(machine.desiredAccuracy == 10)
    }

    @Test func standingStopsAfterAlmostAMinuteAndSettlesAfterTenMore() {
        var machine = TrackingModeMachine(settings: TrackingModeSettings())
        let changes = Self.run(Self.fixes(Array(repeating: 3, count: 80) + Array(repeating: 0, count: 700)), machine: &machine)
        #expect(changes.map(\.to) == [.stopped, .notMoving])
        // Within 50 m for 45 s (the last 16 s of walking in count) or standing for 45 s.
        let stopped = changes[0].timestamp.seconds(since: Self.start)
        #expect(stopped >= 105 && stopped <= 130, "\(stopped)")
        let settled = changes[1].timestamp.seconds(since: changes[0].timestamp)
        #expect(settled >= 600 && settled <= 605)
        #expect(machine.desiredAccuracy == 3_000)
    }

    @Test func aTramWaitingAtRedLightsDoesNotStop() {
        var machine = TrackingModeMachine(settings: TrackingModeSettings())
        let ride = Self.fixes(
            Array(repeating: 8, count: 120) + Array(repeating: 0, count: 30) + Array(repeating: 8, count: 120)
                + Array(repeating: 0, count: 25) + Array(repeating: 8, count: 60))
        #expect(Self.run(ride, machine: &machine).isEmpty)
    }

    @Test func pacingAPlatformStaysStoppedUntilThePhoneLeavesIt() {
        var machine = TrackingModeMachine(settings: TrackingModeSettings())
        // Walks in, then waits on the platform: stopped.
        _ = Self.run(Self.fixes(Array(repeating: 1.4, count: 70) + Array(repeating: 0, count: 80)), machine: &machine)
        #expect(machine.mode == .stopped)
        // Five minutes walking to and fro within 40 m, recognised walking: still stopped.
        let pacing = Self.fixes(Array(repeating: 1.4, count: 300), from: 150, circling: true).map { fix in
            var moved = fix
            moved.coordinate = Self.origin.coordinate(
                at: Self.origin.vector(to: fix.coordinate) + PlanarVector(east: 98, north: 0))
            return moved
        }
        var changes: [ModeTransition] = []
        for fix in pacing {
            machine.update(activity: ActivityReading(timestamp: fix.timestamp, kind: .walking))
            if let change = machine.update(fix) { changes.append(change) }
        }
        #expect(changes.isEmpty, "\(changes)")
        // The train comes: 20 s moving and 100 m gone.
        let leaving = Self.fixes(Array(repeating: 10, count: 30), from: 450).map { fix in
            var moved = fix
            moved.coordinate = Self.origin.coordinate(
                at: Self.origin.vector(to: fix.coordinate) + PlanarVector(east: 98, north: 0))
            return moved
        }
        let left = Self.run(leaving, machine: &machine)
        #expect(left.map(\.to) == [.activelyMoving])
        #expect(left.first?.reason.hasPrefix("moving for 20 s") == true)
    }

    @Test func noModeIsLeftBeforeItsMinimum() {
        let settings = TrackingModeSettings()
        var machine = TrackingModeMachine(settings: settings)
        // In a vehicle and standing in turn, 100 s each, for an hour, recognised so.
        var gaps: [Double] = []
        var previous: Timestamp?
        var east = 0.0
        for second in stride(from: 0.0, to: 3_600, by: 5) {
            let moving = Int(second / 100) % 2 == 0
            if moving { east += 50 }
            let fix = Location(
                coordinate: Self.origin.coordinate(at: PlanarVector(east: east, north: 0)), timestamp: Self.start.adding(second),
                horizontalAccuracy: 8)
            machine.update(activity: ActivityReading(timestamp: fix.timestamp, kind: moving ? .automotive : .stationary))
            if let change = machine.update(fix) {
                if let previous { gaps.append(change.timestamp.seconds(since: previous)) }
                previous = change.timestamp
            }
        }
        #expect(gaps.count > 10, "it stops and starts with the vehicle")
        #expect(gaps.allSatisfy { $0 >= settings.modeMinimumTime }, "\(gaps)")
    }

    @Test func theEnergyModelAddsUpTheModes() {
        let settings = TrackingModeSettings()
        let end = Self.start.adding(3_600)
        let settledAllHour = ModeEnergy(
            transitions: [ModeTransition(timestamp: Self.start, from: .activelyMoving, to: .notMoving, reason: "")],
            start: Self.start, end: end, settings: settings)
        #expect(settledAllHour.seconds[.notMoving] == 3_600)
        // The hour settled, and the one change into it.
        let notMoving = settings.milliwatts[.notMoving] ?? 0
        let active = settings.milliwatts[.activelyMoving] ?? 0
        let stopped = settings.milliwatts[.stopped] ?? 0
        #expect(notMoving > 0 && active > notMoving && stopped > notMoving)
        #expect(abs(settledAllHour.saving - (1 - (notMoving + 0.4) / settings.alwaysOnMilliwatts)) < 1e-9)
        let activeAllHour = ModeEnergy(transitions: [], start: Self.start, end: end, settings: settings)
        #expect(abs(activeAllHour.milliwattHours - active) < 1e-9)
        #expect(abs(activeAllHour.alwaysOnMilliwattHours - settings.alwaysOnMilliwatts) < 1e-9)
        // Every change costs: sixty of them in the hour, flapping, add 24 mWh.
        let flapping = (0..<60).map { (index: Int) -> ModeTransition in
            let stopping = index % 2 == 0
            let from: TrackingMode = stopping ? .activelyMoving : .stopped
            let to: TrackingMode = stopping ? .stopped : .activelyMoving
            return ModeTransition(timestamp: Self.start.adding(Double(index) * 60), from: from, to: to, reason: "")
        }
        let flapped = ModeEnergy(transitions: flapping, start: Self.start, end: end, settings: settings)
        #expect(flapped.changes == 60 && abs(flapped.changesPerHour - 60) < 1e-9)
        // Half the hour in each mode.
        let expected: Double = active / 2 + stopped / 2 + 60 * 0.4
        #expect(abs(flapped.milliwattHours - expected) < 1e-9)
    }
}
