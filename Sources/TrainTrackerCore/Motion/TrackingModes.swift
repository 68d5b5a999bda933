/// The travel-diary recorder's tracking modes: how much location accuracy to ask the phone
/// for, trading battery for detail.
public enum TrackingMode: String, CaseIterable, Hashable, Sendable {
    /// Moving about: 10 m.
    case activelyMoving
    /// Briefly still: 100 m.
    case stopped
    /// Settled in one place: 3 km.
    case notMoving
    /// In a car or train at speed: 1 km.
    case inFastVehicle
}

/// What the phone's activity recognition says (Core Motion's or Android's classes).
public enum MotionKind: String, CaseIterable, Hashable, Sendable {
    /// Still: standing, sitting, or lying on a table.
    case stationary
    /// On foot, walking.
    case walking
    /// On foot, running.
    case running
    /// On a bicycle.
    case cycling
    /// In a vehicle: car, bus, tram or train.
    case automotive
    /// The recogniser cannot tell.
    case unknown

    /// Whether the kind is some kind of travel.
    public var isMoving: Bool { [.walking, .running, .cycling, .automotive].contains(self) }
}

/// One activity-recognition sample.
public struct ActivityReading: Hashable, Sendable {
    /// When it was recognised.
    public var timestamp: Timestamp
    /// What was recognised.
    public var kind: MotionKind

    /// A reading.
    public init(timestamp: Timestamp, kind: MotionKind) {
        self.timestamp = timestamp
        self.kind = kind
    }
}

/// The thresholds of the mode machine and its energy model; the defaults are the travel-diary
/// recorder's. They come from the same settings file as the server's `GET /v1/config`.
public struct TrackingModeSettings: Hashable, Sendable {
    /// Accuracy asked for in each mode, metres.
    public var desiredAccuracy: [TrackingMode: Meters] = [
        .activelyMoving: 10, .stopped: 100, .notMoving: 3_000, .inFastVehicle: 1_000,
    ]
    /// How far from where it settled the phone must go to be travelling again.
    public var startedTravellingDistance: Meters = 250
    /// How long still (stopped) before settling (not moving).
    public var stoppedMovingStationaryTime: Seconds = 600
    /// Fixes within this distance are "the same location".
    public var sameLocationDistance: Meters = 100
    /// How long in the same location, even moving about, before settling.
    public var stopMovingSameLocationTime: Seconds = 900
    /// At or above this speed the phone is in a fast vehicle (80 km/h).
    public var fastSpeed: MetersPerSecond = 80 / 3.6
    /// How long below the fast speed before leaving the fast-vehicle mode (a train's stops
    /// at stations do not end it).
    public var inVehicleOrStationaryTime: Seconds = 300
    /// How long moving before a stopped or settled phone counts as moving again.
    public var activelyMovingTime: Seconds = 20
    /// The energy model: the location system's draw in each mode, milliwatts (see docs/motion.md).
    public var milliwatts: [TrackingMode: Double] = [
        .activelyMoving: 130, .stopped: 30, .notMoving: 3, .inFastVehicle: 15,
    ]
    /// ... and with best accuracy always on.
    public var alwaysOnMilliwatts = 160.0

    /// The defaults.
    public init() {}
}

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
///     var machine = TrackingModeMachine(settings: TrackingModeSettings())
///     for fix in fixes { if let change = machine.update(fix) { print(change) } }
///
/// - Complexity: O(1) amortised per fix, plus the fixes of the last `stopMovingSameLocationTime`
///   kept for the same-location test.
public struct TrackingModeMachine: Sendable {
    /// The thresholds.
    public let settings: TrackingModeSettings
    /// The current mode.
    public private(set) var mode: TrackingMode = .activelyMoving
    /// When the current mode began.
    public private(set) var since: Timestamp?

    private var speed = KalmanSpeedFilter()
    private var recent: [(time: Timestamp, coordinate: Coordinate)] = []
    private var anchor: Coordinate?
    private var activity: ActivityReading?
    private var movingSince: Timestamp?
    private var stillSince: Timestamp?
    private var slowSince: Timestamp?
    private var fastSince: Timestamp?
    /// How long the speed must stay at or above the fast speed.
    static let fastHold: Seconds = 20

    /// A machine starting in `activelyMoving`.
    public init(settings: TrackingModeSettings) { self.settings = settings }

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
        recent.append((now, location.coordinate))
        let keep = settings.stopMovingSameLocationTime
        if let first = recent.first, now.seconds(since: first.time) > keep + 60 {
            recent.removeAll { now.seconds(since: $0.time) > keep }
        }
        // Moving: the speed says so, or activity recognition does (a fresh sample).
        let recognised = activity.flatMap { now.seconds(since: $0.timestamp) <= 60 ? $0.kind : nil }
        let moving = (!estimate.isStopped && estimate.speed > 1) || recognised?.isMoving == true
        let still = estimate.isStopped || recognised == .stationary
        movingSince = moving ? (movingSince ?? now) : nil
        stillSince = still && !moving ? (stillSince ?? now) : nil
        slowSince = estimate.speed < settings.fastSpeed ? (slowSince ?? now) : nil
        fastSince = estimate.speed >= settings.fastSpeed ? (fastSince ?? now) : nil
        func held(_ start: Timestamp?, _ duration: Seconds) -> Bool { start.map { now.seconds(since: $0) >= duration } ?? false }

        switch mode {
        case .activelyMoving:
            // Fast for a while, not one far-off fix's jump.
            if held(fastSince, Self.fastHold) {
                return change(to: .inFastVehicle, at: now, "speed \(wholeNumber(estimate.speed * 3.6)) km/h")
            }
            if sameLocation(for: settings.stopMovingSameLocationTime, at: now) {
                return change(to: .notMoving, at: now, "within \(wholeNumber(settings.sameLocationDistance)) m for \(wholeNumber(keep)) s")
            }
            if still { return change(to: .stopped, at: now, recognised == .stationary ? "recognised still" : "speed 0") }
        case .stopped:
            if held(movingSince, settings.activelyMovingTime) {
                return change(to: .activelyMoving, at: now, "moving for \(wholeNumber(settings.activelyMovingTime)) s")
            }
            if held(stillSince, settings.stoppedMovingStationaryTime)
                || sameLocation(for: settings.stopMovingSameLocationTime, at: now)
            {
                return change(to: .notMoving, at: now, "still for \(wholeNumber(settings.stoppedMovingStationaryTime)) s")
            }
        case .notMoving:
            if let anchor, location.coordinate.distance(to: anchor) > settings.startedTravellingDistance,
                (location.horizontalAccuracy ?? 0) < location.coordinate.distance(to: anchor)
            {
                return change(
                    to: .activelyMoving, at: now,
                    "\(wholeNumber(location.coordinate.distance(to: anchor))) m from where it settled")
            }
            if held(movingSince, settings.activelyMovingTime) {
                return change(to: .activelyMoving, at: now, "moving for \(wholeNumber(settings.activelyMovingTime)) s")
            }
        case .inFastVehicle:
            if held(slowSince, settings.inVehicleOrStationaryTime) {
                return change(
                    to: still ? .stopped : .activelyMoving, at: now,
                    "below \(wholeNumber(settings.fastSpeed * 3.6)) km/h for \(wholeNumber(settings.inVehicleOrStationaryTime)) s")
            }
        }
        return nil
    }

    private mutating func change(to next: TrackingMode, at time: Timestamp, _ reason: String) -> ModeTransition {
        let transition = ModeTransition(timestamp: time, from: mode, to: next, reason: reason)
        mode = next
        since = time
        movingSince = nil
        stillSince = nil
        slowSince = nil
        fastSince = nil
        if next == .notMoving { anchor = recent.last?.coordinate }
        return transition
    }

    /// Whether every fix of the last `duration` seconds (and they span it) lies within the
    /// same-location distance of the newest.
    private func sameLocation(for duration: Seconds, at now: Timestamp) -> Bool {
        guard let newest = recent.last, let oldest = recent.first(where: { now.seconds(since: $0.time) <= duration }),
            now.seconds(since: oldest.time) >= duration * 0.95
        else { return false }
        return recent.allSatisfy {
            now.seconds(since: $0.time) > duration
                || $0.coordinate.distance(to: newest.coordinate) <= settings.sameLocationDistance
        }
    }
}

/// Time spent in each mode and the energy it takes, against best accuracy always on.
public struct ModeEnergy: Hashable, Sendable {
    /// Seconds in each mode.
    public var seconds: [TrackingMode: Seconds] = [:]
    /// Milliwatt-hours used by the modes.
    public var milliwattHours = 0.0
    /// Milliwatt-hours always-on best accuracy would have used over the same time.
    public var alwaysOnMilliwattHours = 0.0

    /// The share of the always-on energy saved, 0 ... 1.
    public var saving: Double { alwaysOnMilliwattHours == 0 ? 0 : 1 - milliwattHours / alwaysOnMilliwattHours }

    /// The energy of `transitions` over a recording from `start` to `end` that began in
    /// `activelyMoving`.
    public init(transitions: [ModeTransition], start: Timestamp, end: Timestamp, settings: TrackingModeSettings) {
        var mode = TrackingMode.activelyMoving
        var from = start
        for transition in transitions + [ModeTransition(timestamp: end, from: .activelyMoving, to: .activelyMoving, reason: "")] {
            let duration = max(0, transition.timestamp.seconds(since: from))
            seconds[mode, default: 0] += duration
            milliwattHours += (settings.milliwatts[mode] ?? 0) * duration / 3_600
            mode = transition.to
            from = transition.timestamp
        }
        alwaysOnMilliwattHours = settings.alwaysOnMilliwatts * max(0, end.seconds(since: start)) / 3_600
    }
}
