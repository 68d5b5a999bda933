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
    ///
    /// The fast-vehicle mode asks for satellites every 20 s (and the actively-moving one every
    /// 5 s): on the simulator's Tokyo rides that keeps the railway right 99 % of the time at a
    /// fifth of the energy of satellites always on (`traintracker budget`, `docs/motion.md`).
    public var desiredAccuracy: [TrackingMode: Meters] = [
        .activelyMoving: 10, .stopped: 100, .notMoving: 3_000, .inFastVehicle: 10,
    ]
    /// Seconds between the fixes asked for in each mode.
    /// The actively-moving and fast-vehicle intervals were chosen by hand with `traintracker
    /// budget` on simulated seed 2101 (reported on fresh seed 2203); the others were set by hand,
    /// for reasons not recorded.
    public var fixInterval: [TrackingMode: Seconds] = [
        .activelyMoving: 5, .stopped: 10, .notMoving: 60, .inFastVehicle: 20,
    ]
    /// How far from where it settled the phone must go to be travelling again.
    /// Set by hand: the travel-diary recorder's own default (2026-11-22), not tuned here.
    public var startedTravellingDistance: Meters = 250
    /// How long still (stopped) before settling (not moving).
    /// Set by hand: the travel-diary recorder's own default (2026-11-22), not tuned here.
    public var stoppedMovingStationaryTime: Seconds = 600
    /// Fixes within this distance are "the same location".
    /// Set by hand: the travel-diary recorder's own default (2026-11-22), not tuned here.
    public var sameLocationDistance: Meters = 100
    /// How long in the same location, even moving about, before settling.
    /// Set by hand: the travel-diary recorder's own default (2026-11-22), not tuned here.
    public var stopMovingSameLocationTime: Seconds = 900
    /// At or above this speed the phone is in a fast vehicle (50 km/h: chosen with
    /// `traintracker budget`; trains between stations, not a cyclist).
    /// Chosen by hand on simulated seed 2101 among 80, 50 and 30 km/h (reported on fresh seed
    /// 2203); was 80 km/h.
    public var fastSpeed: MetersPerSecond = 50 / 3.6
    /// How long below the fast speed before leaving the fast-vehicle mode (a train's stops
    /// at stations do not end it).
    /// Set by hand: the travel-diary recorder's own default (2026-11-22), not tuned here.
    public var inVehicleOrStationaryTime: Seconds = 300
    /// How long moving before a stopped or settled phone counts as moving again (a stopped
    /// one must also have left where it stopped: farther than `sameLocationDistance`).
    /// Set by hand: the travel-diary recorder's own default (2026-11-22), not tuned here.
    public var activelyMovingTime: Seconds = 20
    /// The least time in a mode before the machine leaves it: no mode lasts a few seconds.
    /// Chosen by hand on 2026-11-24, on Helsinki phones 1, 2, 3 and 5 for the most energy saved
    /// (45, 60 or 90 s × 30 or 50 m, a minimum of 60 or 120 s); phones 4, 6, 7 and 8 were held out.
    public var modeMinimumTime: Seconds = 60
    /// How long standing before an actively moving phone counts as stopped: a tram at a red
    /// light or a bus at a stop is not a stop.
    /// Chosen by hand on 2026-11-24, on Helsinki phones 1, 2, 3 and 5 for the most energy saved
    /// (45, 60 or 90 s × 30 or 50 m, a minimum of 60 or 120 s); phones 4, 6, 7 and 8 were held out.
    public var stoppedConfirmationTime: Seconds = 45
    /// Fixes within this distance for `stoppedConfirmationTime` are a stop, whatever the
    /// speeds and the recogniser say.
    /// Chosen by hand on 2026-11-24, on Helsinki phones 1, 2, 3 and 5 for the most energy saved
    /// (45, 60 or 90 s × 30 or 50 m, a minimum of 60 or 120 s); phones 4, 6, 7 and 8 were held out.
    public var stoppedRadius: Meters = 50
    /// The energy model: the location system's draw in each mode, milliwatts (see docs/motion.md).
    public var milliwatts: [TrackingMode: Double] = [:]
    /// ... and with satellites always on at a fix a second, the reference the saving is
    /// counted against (`LocationPowerModel.continuousSatelliteMilliwatts`).
    /// Set by hand: the power model's round figure, not a measurement.
    public var alwaysOnMilliwatts = 130.0
    /// What one change of mode costs: the location system starting again at another
    /// accuracy, about 10 s of satellite search at 150 mW.
    /// Set by hand: a round figure (10 s at 150 mW), not a measurement.
    public var modeChangeMilliwattHours = 0.4

    /// The defaults, each mode priced by the ``LocationPowerModel``.
    public init() {
        milliwatts = priced(by: LocationPowerModel())
    }

    /// What each mode's request costs by `power`: milliwatts, to a thousandth.
    public func priced(by power: LocationPowerModel) -> [TrackingMode: Double] {
        Dictionary(
            uniqueKeysWithValues: TrackingMode.allCases.map { mode in
                let price = power.milliwatts(interval: fixInterval[mode] ?? 1, accuracy: desiredAccuracy[mode] ?? 10)
                return (mode, (price * 1_000).rounded() / 1_000)
            })
    }
}
