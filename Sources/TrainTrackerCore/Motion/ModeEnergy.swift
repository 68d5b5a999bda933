/// Time spent in each mode and the energy it takes (each change of mode costing
/// `TrackingModeSettings.modeChangeMilliwattHours`), against best accuracy always on.
public struct ModeEnergy: Hashable, Sendable {
    /// Seconds in each mode.
    public var seconds: [TrackingMode: Seconds] = [:]
    /// Milliwatt-hours used by the modes, their changes included.
    public var milliwattHours = 0.0
    /// How many times the mode changed.
    public var changes = 0
    /// Changes of mode per hour of recording.
    public var changesPerHour = 0.0
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
        changes = transitions.count
        milliwattHours += Double(changes) * settings.modeChangeMilliwattHours
        let hours = max(0, end.seconds(since: start)) / 3_600
        changesPerHour = hours > 0 ? Double(changes) / hours : 0
        alwaysOnMilliwattHours = settings.alwaysOnMilliwatts * hours
    }
}
