/// Where a phone's position comes from, by the accuracy asked for.
public enum LocationSource: String, CaseIterable, Hashable, Sendable {
    /// Satellites (GPS and its kin): metres.
    case satellites
    /// Wi-Fi and cell towers: tens to hundreds of metres, no speed or course.
    case network
    /// Cell towers alone: hundreds of metres to kilometres.
    case cell
}

/// What a stream of fixes costs a phone, by how often and how accurately the recorder asks:
/// satellites kept running when fixes come every second, or woken for each fix when they come
/// rarely; Wi-Fi scans and cell lookups for coarser requests. The prices are round figures for
/// a current phone (see `docs/motion.md`), not measurements.
public struct LocationPowerModel: Hashable, Sendable {
    /// Satellites kept running, a fix a second: milliwatts.
    public var continuousSatelliteMilliwatts = 130.0
    /// One satellite fix from a receiver woken for it (about 1.5 s at 130 mW): millijoules.
    public var satelliteFixMillijoules = 200.0
    /// One network fix (a Wi-Fi scan): millijoules.
    public var networkFixMillijoules = 50.0
    /// One cell-tower fix: millijoules.
    public var cellFixMillijoules = 5.0
    /// The motion coprocessor and the app between fixes: milliwatts.
    public var idleMilliwatts = 3.0
    /// Asking for this accuracy or better uses satellites ...
    public var satelliteAccuracy: Meters = 30
    /// ... and up to this, the network; coarser, cell towers alone.
    public var networkAccuracy: Meters = 300

    /// The defaults.
    public init() {}

    /// The source that answers a request for `accuracy`.
    public func source(for accuracy: Meters) -> LocationSource {
        accuracy <= satelliteAccuracy ? .satellites : accuracy <= networkAccuracy ? .network : .cell
    }

    /// The average power of a fix every `interval` seconds at `accuracy`: milliwatts.
    public func milliwatts(interval: Seconds, accuracy: Meters) -> Double {
        let interval = max(1, interval)
        let perFix: Double =
            switch source(for: accuracy) {
            case .satellites: satelliteFixMillijoules
            case .network: networkFixMillijoules
            case .cell: cellFixMillijoules
            }
        return min(continuousSatelliteMilliwatts, idleMilliwatts + perFix / interval)
    }
}
