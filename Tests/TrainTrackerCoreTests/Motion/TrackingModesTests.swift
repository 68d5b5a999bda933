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
        let ride = Self.fixes(Array(repeating: 5, count: 30) + Array(repeating: 30, count: 300) + Array(repeating: 8, count: 400))
        let changes = Self.run(ride, machine: &machine)
        #expect(changes.map(\.to) == [.inFastVehicle, .activelyMoving])
        // Fast for 20 s first; slow for 300 s before leaving.
        #expect(changes[0].timestamp.seconds(since: Self.start) >= 50 && changes[0].timestamp.seconds(since: Self.start) <= 55)
        #expect(changes[1].timestamp.seconds(since: Self.start) >= 630 && changes[1].timestamp.seconds(since: Self.start) <= 640)
        #expect(machine.desiredAccuracy == 10)
    }

    @Test func standingStopsAtOnceAndSettlesAfterTenMinutes() {
        var machine = TrackingModeMachine(settings: TrackingModeSettings())
        let changes = Self.run(Self.fixes(Array(repeating: 3, count: 20) + Array(repeating: 0, count: 700)), machine: &machine)
        #expect(changes.map(\.to) == [.stopped, .notMoving])
        let settled = changes[1].timestamp.seconds(since: changes[0].timestamp)
        #expect(settled >= 600 && settled <= 605)
        #expect(machine.desiredAccuracy == 3_000)
    }

    @Test func movingAboutOnePlaceForFifteenMinutesAlsoSettles() {
        var machine = TrackingModeMachine(settings: TrackingModeSettings())
        let changes = Self.run(Self.fixes(Array(repeating: 1.5, count: 1_000), circling: true), machine: &machine)
        #expect(changes.last?.to == .notMoving)
        #expect(changes.last.map { $0.timestamp.seconds(since: Self.start) >= 900 } == true)
    }

    @Test func leavingWhereItSettledOrBeingRecognisedMovingWakesItUp() {
        var machine = TrackingModeMachine(settings: TrackingModeSettings())
        _ = Self.run(Self.fixes(Array(repeating: 0, count: 700)), machine: &machine)
        #expect(machine.mode == .notMoving)
        // A fix 300 m away (the phone's coarse fixes in this mode say so before the speed does).
        let away = Location(
            coordinate: Self.origin.coordinate(at: PlanarVector(east: 300, north: 0)), timestamp: Self.start.adding(701),
            horizontalAccuracy: 50)
        #expect(machine.update(away)?.to == .activelyMoving)
        // Settled again; then activity recognition says "in a vehicle" for 20 s.
        var other = TrackingModeMachine(settings: TrackingModeSettings())
        _ = Self.run(Self.fixes(Array(repeating: 0, count: 700)), machine: &other)
        var woke: ModeTransition?
        for (index, fix) in Self.fixes(Array(repeating: 0, count: 40), from: 700).enumerated() {
            other.update(activity: ActivityReading(timestamp: Self.start.adding(700 + Double(index)), kind: .automotive))
            woke = woke ?? other.update(fix)
        }
        #expect(woke?.to == .activelyMoving && woke?.reason == "moving for 20 s")
    }

    @Test func theEnergyModelAddsUpTheModes() {
        let settings = TrackingModeSettings()
        let end = Self.start.adding(3_600)
        let settledAllHour = ModeEnergy(
            transitions: [ModeTransition(timestamp: Self.start, from: .activelyMoving, to: .notMoving, reason: "")],
            start: Self.start, end: end, settings: settings)
        #expect(settledAllHour.seconds[.notMoving] == 3_600)
        #expect(abs(settledAllHour.saving - (1 - 3.0 / 160)) < 1e-9)
        let activeAllHour = ModeEnergy(transitions: [], start: Self.start, end: end, settings: settings)
        #expect(abs(activeAllHour.milliwattHours - 130) < 1e-9 && abs(activeAllHour.alwaysOnMilliwattHours - 160) < 1e-9)
    }
}
