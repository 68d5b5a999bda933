/// How a train spends its published run time between two stops: it gathers speed leaving the
/// one, runs at a steady speed and brakes into the other, so it covers the first and last few
/// hundred metres slowly and the middle fast. The answer's arrival time reads a followed train's
/// place against its timetable this way (docs/realtime.md, "Arrival times"); an even pace
/// would take a train just leaving for late and one braking into the stop for early.
///
/// The steady speed is whatever makes the run last its published time; where no run at these
/// rates fits that time (too short for the distance), the pace is even.
public struct RunProfile: Hashable, Sendable {
    /// How fast a train gathers speed leaving a stop, in m/s² (0: an even pace).
    /// Set by hand on 2026-11-26 before a grid was run: on Caltrain's recording every pair from 0.3
    /// to 1.2 m/s² gave 83.2–84.8 % of arrival times within a minute.
    public var acceleration = 0.5
    /// How fast it brakes into the next, in m/s² (0: an even pace).
    /// Set by hand on 2026-11-26 with `acceleration`, before a grid was run (see there).
    public var braking = 0.5

    /// The defaults.
    public init() {}

    /// The time a run from rest to rest over `stretch` metres lasting `duration` takes to reach
    /// `into` metres: accelerating, then steady, then braking; an even pace where no such run
    /// fits.
    ///
    ///     var profile = RunProfile()       // 0.5 m/s² each way
    ///     profile.elapsed(into: 1_000, stretch: 2_000, duration: 150)   // 75: halfway
    ///     profile.elapsed(into: 100, stretch: 2_000, duration: 150)     // 20 (7.5 at an even pace)
    ///
    /// - Complexity: O(1).
    public func elapsed(into: Meters, stretch: Meters, duration: Seconds) -> Seconds {
        let even = stretch > 0 ? duration * min(max(into / stretch, 0), 1) : 0
        guard acceleration > 0, braking > 0, stretch > 0, duration > 0 else { return even }
        // Steady speed v: stretch / v + v / (2a) + v / (2b) = duration, the slower root.
        let rates = 1 / (2 * acceleration) + 1 / (2 * braking)
        let discriminant = duration * duration - 4 * rates * stretch
        guard discriminant >= 0 else { return even }
        let steady = 2 * stretch / (duration + discriminant.squareRoot())
        let speedingUp = steady * steady / (2 * acceleration)
        let slowingDown = steady * steady / (2 * braking)
        let place = min(max(into, 0), stretch)
        if place <= speedingUp { return (2 * place / acceleration).squareRoot() }
        if place >= stretch - slowingDown { return duration - (2 * (stretch - place) / braking).squareRoot() }
        return steady / (2 * acceleration) + place / steady
    }
}

extension RunProfile: Tunable {
    static var tunables: [String: WritableKeyPath<Self, Double>] {
        ["runAcceleration": \.acceleration, "runBraking": \.braking]
    }
}
