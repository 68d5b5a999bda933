import TrainTrackerCore

/// What the recorder's tracking modes deliver on a ride: each mode asks for fixes at its own
/// interval and accuracy, and the mode machine, fed the fixes it gets, decides the next mode.
///
/// A ride is simulated once per request (the same seed gives the same train and the same
/// truth); `splice` then walks the requests' fixes in time order and keeps those of the mode
/// the machine is in.
public enum ModeDelivery {
    /// The phone a request yields: satellites as `base` (a fix every `interval` seconds);
    /// the network or cell towers with their own accuracy, slowly wandering errors and no speed
    /// or course.
    public static func phone(interval: Seconds, accuracy: Meters, power: LocationPowerModel, base: PhoneModel = PhoneModel())
        -> PhoneModel
    {
        var phone = base
        phone.interval = max(1, interval)
        switch power.source(for: accuracy) {
        case .satellites:
            break
        case .network:
            phone.baseAccuracy = networkAccuracy
            phone.errorCorrelationTime = networkErrorCorrelation
            phone.reportsMotion = false
            phone.stationAccuracyFactor = 1
        case .cell:
            phone.baseAccuracy = cellAccuracy
            phone.errorCorrelationTime = cellErrorCorrelation
            phone.reportsMotion = false
            phone.stationAccuracyFactor = 1
        }
        return phone
    }

    /// A network fix's typical accuracy (Wi-Fi positioning in a city): metres.
    public static let networkAccuracy: Meters = 60
    /// How long a network fix's error keeps its direction: seconds.
    public static let networkErrorCorrelation: Seconds = 60
    /// A cell fix's typical accuracy: metres.
    public static let cellAccuracy: Meters = 600
    /// How long a cell fix's error keeps its direction: seconds.
    public static let cellErrorCorrelation: Seconds = 120

    /// The fixes the recorder gets on one ride, and its changes of mode: `streams` holds the
    /// ride simulated under each mode's request.
    ///
    /// - Complexity: O(n log n) for n fixes in all the streams.
    public static func splice(streams: [TrackingMode: [RecordedFix]], settings: TrackingModeSettings)
        -> (fixes: [RecordedFix], transitions: [ModeTransition])
    {
        let tagged = streams.flatMap { mode, fixes in fixes.map { (mode, $0) } }
            .sorted { ($0.1.location.timestamp, $0.0.rawValue) < ($1.1.location.timestamp, $1.0.rawValue) }
        var machine = TrackingModeMachine(settings: settings)
        var delivered: [RecordedFix] = []
        var transitions: [ModeTransition] = []
        for (mode, fix) in tagged where mode == machine.mode {
            // The new mode's fix at the very time of the change is not a second fix then.
            if let last = delivered.last, fix.location.timestamp <= last.location.timestamp { continue }
            delivered.append(fix)
            if let transition = machine.update(fix.location) { transitions.append(transition) }
        }
        return (delivered, transitions)
    }
}
