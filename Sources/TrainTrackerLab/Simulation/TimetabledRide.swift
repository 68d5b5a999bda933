import TrainTrackerCore

/// The true motion of a train over a stretch of its timetabled run: a wait at the first
/// station, then for each leg an accelerate–cruise–brake profile whose cruise speed meets
/// the scheduled running time (within the limits), a dwell at each stop, no stop at the
/// stations it passes, and some time at the last station.
public struct TimetabledRide: Sendable {
    /// The limits of the motion.
    public struct Limits: Hashable, Sendable {
        /// Acceleration from a stop, m/s².
        public var acceleration = 0.8
        /// Braking into a stop, m/s².
        public var braking = 0.9
        /// The fastest cruise.
        public var maximumSpeed: MetersPerSecond = 36
        /// The shortest dwell at an intermediate stop (timetables with minute precision often give none).
        public var minimumDwell: Seconds = 25
        /// Time at the first station before departure.
        public var initialWait: Seconds = 60
        /// Time at the last station after arrival.
        public var finalWait: Seconds = 45

        /// The defaults: 0.8 m/s² up, 0.9 m/s² down, 130 km/h at most, 25 s dwell.
        public init() {}
    }

    /// One phase of the ride: standing at `position`, or running a leg.
    enum Segment: Sendable {
        case dwell(position: Meters, duration: Seconds)
        case run(from: Meters, distance: Meters, cruise: MetersPerSecond, duration: Seconds)

        var duration: Seconds {
            switch self {
            case .dwell(_, let duration): duration
            case .run(_, _, _, let duration): duration
            }
        }
    }

    let walk: TrackWalk
    let limits: Limits
    private(set) var segments: [Segment] = []
    /// Seconds from the start of the ride to the first departure.
    public var departureOffset: Seconds { limits.initialWait }
    /// Seconds from the start of the ride to the arrival at the last stop.
    public private(set) var arrivalOffset: Seconds = 0
    /// The ride's whole length in time.
    public var duration: Seconds { segments.reduce(0) { $0 + $1.duration } }

    /// Plans the ride through `stops` (along-track positions with scheduled times in seconds;
    /// `arrival`/`departure` may be missing) on a track walked as `walk`.
    init(stops: [(position: Meters, arrival: Seconds?, departure: Seconds?)], walk: TrackWalk, limits: Limits) {
        self.walk = walk
        self.limits = limits
        guard let first = stops.first else { return }
        segments.append(.dwell(position: first.position, duration: limits.initialWait))
        var elapsed = limits.initialWait
        // A stop published with less than the shortest dwell (minute precision: one time, or
        // arrival = departure) has its dwell centred on the published time, so that a train
        // keeps to its timetable instead of losing the difference at every stop.
        let stretch = { (index: Int) -> Seconds in
            let stop = stops[index]
            guard index > 0, index < stops.count - 1, let departure = stop.departure ?? stop.arrival else { return 0 }
            return max(0, limits.minimumDwell - (departure - (stop.arrival ?? departure))) / 2
        }
        for index in 1..<stops.count {
            let from = stops[index - 1]
            let to = stops[index]
            let distance = walk.distanceAhead(from: from.position, to: to.position)
            let leaves = (from.departure ?? from.arrival).map { $0 + stretch(index - 1) }
            let arrives = (to.arrival ?? to.departure).map { $0 - stretch(index) }
            let scheduled = leaves.flatMap { start in arrives.map { $0 - start } }
            let (cruise, duration) = profile(distance: max(distance, 1), scheduled: scheduled)
            segments.append(.run(from: from.position, distance: max(distance, 0), cruise: cruise, duration: duration))
            elapsed += duration
            if index == stops.count - 1 {
                arrivalOffset = elapsed
                segments.append(.dwell(position: to.position, duration: limits.finalWait))
            } else {
                let scheduledDwell = (to.departure ?? 0) - (to.arrival ?? to.departure ?? 0)
                let dwell = max(limits.minimumDwell, scheduledDwell)
                segments.append(.dwell(position: to.position, duration: dwell))
                elapsed += dwell
            }
        }
    }

    /// The cruise speed meeting `scheduled` seconds over `distance` with trapezoidal
    /// acceleration and braking, and the running time it gives. Too short a schedule (or
    /// none) runs as fast as the limits allow.
    private func profile(distance: Meters, scheduled: Seconds?) -> (cruise: MetersPerSecond, duration: Seconds) {
        let k = 1 / (2 * limits.acceleration) + 1 / (2 * limits.braking)
        // Fastest: a triangle, capped by the maximum speed.
        let fastest = min(limits.maximumSpeed, (distance / k).squareRoot())
        var cruise = fastest
        if let scheduled, scheduled > 0 {
            let discriminant = scheduled * scheduled - 4 * k * distance
            if discriminant >= 0 {
                cruise = min(fastest, (scheduled - discriminant.squareRoot()) / (2 * k))
            }
        }
        cruise = max(cruise, 1)
        return (cruise, distance / cruise + cruise * k)
    }

    /// The true position and speed `time` seconds after the ride starts.
    func state(at time: Seconds) -> (position: Meters, speed: MetersPerSecond) {
        var remaining = max(0, time)
        for segment in segments {
            switch segment {
            case .dwell(let position, let duration):
                if remaining <= duration { return (position, 0) }
                remaining -= duration
            case .run(let from, let distance, let cruise, let duration):
                if remaining <= duration {
                    let (covered, speed) = Self.kinematics(
                        at: remaining, distance: distance, cruise: cruise, acceleration: limits.acceleration,
                        braking: limits.braking)
                    return (walk.advance(from, by: covered), speed)
                }
                remaining -= duration
            }
        }
        if case .dwell(let position, _) = segments.last { return (position, 0) }
        return (0, 0)
    }

    /// Distance covered and speed `t` seconds into a leg.
    static func kinematics(
        at t: Seconds, distance: Meters, cruise: MetersPerSecond, acceleration: Double, braking: Double
    ) -> (Meters, MetersPerSecond) {
        let accelerating = cruise / acceleration
        let braking_ = cruise / braking
        let accelerationDistance = cruise * cruise / (2 * acceleration)
        let brakingDistance = cruise * cruise / (2 * braking)
        let cruiseTime = max(0, (distance - accelerationDistance - brakingDistance) / cruise)
        if t < accelerating { return (0.5 * acceleration * t * t, acceleration * t) }
        if t < accelerating + cruiseTime { return (accelerationDistance + cruise * (t - accelerating), cruise) }
        let intoBraking = min(t - accelerating - cruiseTime, braking_)
        let speed = max(0, cruise - braking * intoBraking)
        let covered =
            accelerationDistance + cruise * cruiseTime + cruise * intoBraking - 0.5 * braking * intoBraking * intoBraking
        return (min(covered, distance), speed)
    }
}
