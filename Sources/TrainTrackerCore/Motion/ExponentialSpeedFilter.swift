/// The naive exponential filter: `smoothed = alpha · reading + (1 − alpha) · smoothed` at every
/// reported speed, however old the previous value is, and "stopped" below 0.5 m/s. The
/// baseline the time-aware filters are measured against: after a gap it trusts stale data, and
/// a lone 0.0 drags it down by three quarters.
public struct ExponentialSpeedFilter: SpeedFilter {
    /// The weight of the newest reading.
    public var alpha = 0.75
    private var smoothed: MetersPerSecond?

    /// A filter with alpha 0.75.
    public init() {}

    public mutating func update(_ location: Location) -> SpeedEstimate {
        if let reading = location.speed {
            smoothed = smoothed.map { alpha * reading + (1 - alpha) * $0 } ?? reading
        }
        let speed = smoothed ?? 0
        return SpeedEstimate(speed: speed, isStopped: speed < 0.5)
    }
}
