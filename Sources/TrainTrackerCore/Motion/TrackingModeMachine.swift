/// A change of mode and why.
public struct ModeTransition: Hashable, Sendable {
    /// When.
    public var timestamp: Timestamp
    /// The mode left.
    public var from: TrackingMode
    /// The mode entered.
    public var to: TrackingMode
    /// Why, in words ("speed 96 km/h").
    public var reason: String
}

/// The travel-diary recorder's state machine, fed the fixes and activity samples of a
/// recording in time order. Speeds come from the Kalman speed filter and its stop detector.
///
/// Every transition has hysteresis, so a phone does not flap between modes (each change
/// restarts the location system at another accuracy, which costs battery): no mode is left
/// before `TrackingModeSettings.modeMinimumTime`, and each way out needs a condition held
/// for a while — standing for `stoppedConfirmationTime` to stop, moving for
/// `activelyMovingTime` *and* having left the stop (farther than `sameLocationDistance`,
/// beyond the fix's accuracy) to move again, fast for 20 s, slow for
/// `inVehicleOrStationaryTime`.
///
///     var machine = TrackingModeMachine(settings: TrackingModeSettings())
///     for fix in fixes { if let change = machine.update(fix) { print(change) } }
///
/// - Complexity: O(1) per fix and per activity sample.
public struct TrackingModeMachine: Sendable {
    /// The thresholds.
    public let settings: TrackingModeSettings
    /// The current mode.
    public private(set) var mode: TrackingMode = .activelyMoving
    /// When the current mode began.
    public private(set) var since: Timestamp?

    private var speed = KalmanSpeedFilter()
    private var place: SameLocationRun
    /// The phone's stay within `stoppedRadius`: standing, by the positions alone.
    private var standing: SameLocationRun
    /// Where the phone stopped or settled (its last fix then).
    private var anchor: Coordinate?
    private var last: Coordinate?
    private var activity: ActivityReading?
    private var movingSince: Timestamp?
    private var stillSince: Timestamp?
    private var slowSince: Timestamp?
    private var fastSince: Timestamp?
    /// How long the speed must stay at or above the fast speed.
    /// Set by hand: the travel-diary recorder's own default (2026-11-22), not tuned here.
    static let fastHold: Seconds = 20
    /// An activity sample older than this is not used.
    /// Set by hand on 2026-11-24; the reason for a minute is not recorded.
    static let freshActivity: Seconds = 60

    /// A machine starting in `activelyMoving`.
    public init(settings: TrackingModeSettings) {
        self.settings = settings
        place = SameLocationRun(radius: settings.sameLocationDistance)
        standing = SameLocationRun(radius: settings.stoppedRadius)
    }

    /// The accuracy the recorder asks for now.
    public var desiredAccuracy: Meters { settings.desiredAccuracy[mode] ?? 10 }

    /// Takes an activity-recognition sample.
    public mutating func update(activity reading: ActivityReading) {
        activity = reading
    }

    /// Takes the next fix; returns the change of mode it causes, if any.
    public mutating func update(_ location: Location) -> ModeTransition? {
        let now = location.timestamp
        if since == nil { since = now }
        let estimate = speed.update(location)
        place.update(location)
        standing.update(location)
        last = location.coordinate
        // Moving: the speed says so, or activity recognition does (a fresh sample).
        let recognised = activity.flatMap { now.seconds(since: $0.timestamp) <= Self.freshActivity ? $0.kind : nil }
        let moving = (!estimate.isStopped && estimate.speed > 1) || recognised?.isMoving == true
        let still = estimate.isStopped || recognised == .stationary
        movingSince = moving ? (movingSince ?? now) : nil
        stillSince = still && !moving ? (stillSince ?? now) : nil
        slowSince = estimate.speed < settings.fastSpeed ? (slowSince ?? now) : nil
        fastSince = estimate.speed >= settings.fastSpeed ? (fastSince ?? now) : nil
        // Hysteresis: every mode lasts its minimum.
        guard held(since, settings.modeMinimumTime, at: now) else { return nil }
        switch mode {
        case .activelyMoving:
            return leaveActivelyMoving(at: now, speed: estimate.speed, recognisedStill: recognised == .stationary)
        case .stopped: return leaveStopped(location, at: now)
        case .notMoving: return leaveNotMoving(location, at: now)
        case .inFastVehicle:
            guard held(slowSince, settings.inVehicleOrStationaryTime, at: now) else { return nil }
            return change(
                to: still ? .stopped : .activelyMoving, at: now,
                "below \(wholeNumber(settings.fastSpeed * 3.6)) km/h for \(wholeNumber(settings.inVehicleOrStationaryTime)) s")
        }
    }

    private mutating func leaveActivelyMoving(at now: Timestamp, speed: MetersPerSecond, recognisedStill: Bool) -> ModeTransition?
    {
        // Fast for a while, not one far-off fix's jump.
        if held(fastSince, Self.fastHold, at: now) {
            return change(to: .inFastVehicle, at: now, "speed \(wholeNumber(speed * 3.6)) km/h")
        }
        if place.lasted(settings.stopMovingSameLocationTime, at: now) {
            return change(
                to: .notMoving, at: now,
                "within \(wholeNumber(settings.sameLocationDistance)) m for \(wholeNumber(settings.stopMovingSameLocationTime)) s"
            )
        }
        if held(stillSince, settings.stoppedConfirmationTime, at: now) {
            return change(
                to: .stopped, at: now,
                "\(recognisedStill ? "recognised still" : "speed 0") for \(wholeNumber(settings.stoppedConfirmationTime)) s")
        }
        // Jittery speeds and a recogniser that wavers still leave the positions: in one place.
        if standing.lasted(settings.stoppedConfirmationTime, at: now) {
            return change(
                to: .stopped, at: now,
                "within \(wholeNumber(settings.stoppedRadius)) m for \(wholeNumber(settings.stoppedConfirmationTime)) s")
        }
        return nil
    }

    private mutating func leaveStopped(_ location: Location, at now: Timestamp) -> ModeTransition? {
        if held(movingSince, settings.activelyMovingTime, at: now),
            let away = leftAnchor(location, beyond: settings.sameLocationDistance)
        {
            return change(
                to: .activelyMoving, at: now,
                "moving for \(wholeNumber(settings.activelyMovingTime)) s, \(wholeNumber(away)) m from the stop")
        }
        if held(stillSince, settings.stoppedMovingStationaryTime, at: now)
            || place.lasted(settings.stopMovingSameLocationTime, at: now)
        {
            return change(to: .notMoving, at: now, "still for \(wholeNumber(settings.stoppedMovingStationaryTime)) s")
        }
        return nil
    }

    private mutating func leaveNotMoving(_ location: Location, at now: Timestamp) -> ModeTransition? {
        // The coarse fixes of this mode say the phone left before the speed can.
        if let away = leftAnchor(location, beyond: settings.startedTravellingDistance) {
            return change(to: .activelyMoving, at: now, "\(wholeNumber(away)) m from where it settled")
        }
        if held(movingSince, settings.activelyMovingTime, at: now) {
            return change(to: .activelyMoving, at: now, "moving for \(wholeNumber(settings.activelyMovingTime)) s")
        }
        return nil
    }

    /// How far `location` is from where the phone stopped or settled, when that is more than
    /// `distance` and more than the fix's own accuracy; nil otherwise.
    private func leftAnchor(_ location: Location, beyond distance: Meters) -> Meters? {
        guard let anchor else { return nil }
        let away = location.coordinate.distance(to: anchor)
        return away > distance && (location.horizontalAccuracy ?? 0) < away ? away : nil
    }

    private func held(_ start: Timestamp?, _ duration: Seconds, at now: Timestamp) -> Bool {
        start.map { now.seconds(since: $0) >= duration } ?? false
    }

    private mutating func change(to next: TrackingMode, at time: Timestamp, _ reason: String) -> ModeTransition {
        let transition = ModeTransition(timestamp: time, from: mode, to: next, reason: reason)
        mode = next
        since = time
        movingSince = nil
        stillSince = nil
        slowSince = nil
        fastSince = nil
        if next == .notMoving || next == .stopped { anchor = last }
        return transition
    }
}

/// How long the phone has stayed in one place, kept as a running summary: the first fix
/// of the current stay and when it came. A fix farther than `radius` from it starts a new
/// stay, unless its own accuracy is too coarse to tell (worse than the distance).
///
/// - Complexity: O(1) per fix.
struct SameLocationRun: Sendable {
    let radius: Meters
    private var centre: Coordinate?
    private var since: Timestamp?

    init(radius: Meters) { self.radius = radius }

    mutating func update(_ location: Location) {
        if let centre, let since, location.timestamp >= since {
            let distance = location.coordinate.distance(to: centre)
            guard distance > radius, (location.horizontalAccuracy ?? 0) < distance else { return }
        }
        centre = location.coordinate
        since = location.timestamp
    }

    /// Whether the stay has lasted `duration` at `now`.
    func lasted(_ duration: Seconds, at now: Timestamp) -> Bool {
        since.map { now.seconds(since: $0) >= duration } ?? false
    }
}
