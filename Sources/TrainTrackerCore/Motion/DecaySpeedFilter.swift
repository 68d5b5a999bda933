import RealModule

/// A weighted mean of the recent speeds whose weights halve every `halfLife` seconds of age,
/// so a reading counts by how fresh it is, not by how many came after it; with the quick
/// stop detector.
public struct DecaySpeedFilter: SpeedFilter {
    /// The age at which a reading counts half.
    /// Set by hand on 2026-11-22; the filters were compared on simulated seed 2026's rides
    /// (docs/motion.md, "Measured"), their constants not tuned.
    public var halfLife: Seconds = 4
    /// Readings older than this are dropped.
    /// Set by hand on 2026-11-22; the filters were compared on simulated seed 2026's rides
    /// (docs/motion.md, "Measured"), their constants not tuned.
    public var maximumAge: Seconds = 30
    private var recent = RecentSpeeds()

    /// A 4 s half-life.
    public init() {}

    /// Takes in `location` and returns the speed estimate after it.
    public mutating func update(_ location: Location) -> SpeedEstimate {
        guard !recent.take(location, maximumAge: maximumAge) else { return SpeedEstimate(speed: 0, isStopped: true) }
        var total = 0.0
        var weights = 0.0
        for reading in recent.readings {
            let weight = Double.exp2(-location.timestamp.seconds(since: reading.time) / halfLife)
            total += weight * reading.speed
            weights += weight
        }
        return SpeedEstimate(speed: weights > 0 ? total / weights : 0, isStopped: false)
    }
}
