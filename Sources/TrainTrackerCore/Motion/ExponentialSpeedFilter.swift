/// The naive exponential filter: `smoothed = alpha · reading + (1 − alpha) · smoothed` at every
/// reported speed, however old the previous value is. The baseline the time-aware filters are
/// measured against: after a gap it trusts stale data, and a lone 0.0 drags it down by three
/// quarters. Its stops come from the shared stop detector, like every filter's.
public struct ExponentialSpeedFilter: SpeedFilter {
    /// The weight of the newest reading.
    /// Set by hand on 2026-11-22; the filters were compared on simulated seed 2026's rides
    /// (docs/motion.md, "Measured"), their constants not tuned.
    public var alpha = 0.75
    private var smoothed: MetersPerSecond?
    private var stops = StopDetector()

    /// A filter with alpha 0.75.
    public init() {}

    /// Takes in `location` and returns the speed estimate after it.
    public mutating func update(_ location: Location) -> SpeedEstimate {
        if let reading = location.speed {
            smoothed = smoothed.map { alpha * reading + (1 - alpha) * $0 } ?? reading
        }
        guard !stops.update(speed: location.speed, at: location.timestamp) else {
            return SpeedEstimate(speed: 0, isStopped: true)
        }
        return SpeedEstimate(speed: smoothed ?? 0, isStopped: false)
    }
}
