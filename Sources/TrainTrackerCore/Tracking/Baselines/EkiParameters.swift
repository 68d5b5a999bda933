import RealModule

/// The constants of the published Eki Live algorithm ("Let's Write a Train Tracking
/// Algorithm", iOSDC 2025), named after the step they belong to.
public struct EkiParameters: Hashable, Sendable {
    /// Railway step: a track this close scores 1.
    /// Set by hand from the published algorithm; not tuned.
    public var proximityBestDistance: Meters = 1
    /// Railway step: a track this far or farther scores 0.
    /// Set by hand from the published algorithm; not tuned.
    public var proximityWorstDistance: Meters = 3_000
    /// Railway step: how steeply the score falls with distance.
    /// Set by hand from the published algorithm; not tuned.
    public var proximityExponent = 5.0
    /// Railway step: fixes at this speed or faster count fully.
    /// Set by hand from the published algorithm; not tuned.
    public var speedWeightBestSpeed: MetersPerSecond = 20
    /// Railway step: fixes at this speed or slower count nothing.
    /// Set by hand from the published algorithm; not tuned.
    public var speedWeightWorstSpeed: MetersPerSecond = 2
    /// Railway step: the curve of the speed weight.
    /// Set by hand from the published algorithm; not tuned.
    public var speedWeightExponent = 0.7
    /// Railway step: how many railways, by proximity, are candidates.
    /// Set by hand from the published algorithm; not tuned.
    public var candidateCount = 8
    /// Railway step: the penalty per station the candidate's history marks as passed.
    /// Set by hand from the published algorithm; not tuned.
    public var passedStationPenalty = 0.01
    /// Railway step: the penalty per stop between stations.
    /// Set by hand from the published algorithm; not tuned.
    public var strayStopPenalty = 0.01

    /// Direction step: only fixes faster than this count.
    /// Set by hand from the published algorithm; not tuned.
    public var directionMinimumSpeed: MetersPerSecond = 3
    /// Direction step: the running score is clipped to ± this.
    /// Set by hand from the published algorithm; not tuned.
    public var directionScoreLimit = 10.0
    /// Direction step: the direction is known once the running score's magnitude exceeds this.
    /// Set by hand from the published algorithm; not tuned.
    public var directionThreshold = 2.0

    /// Station step: a fix this close to a station is visiting it.
    /// Set by hand from the published algorithm; not tuned.
    public var visitingRadius: Meters = 200
    /// Station step: a fix this close to a station ahead is approaching it.
    /// Set by hand from the published algorithm; not tuned.
    public var approachingRadius: Meters = 500
    /// Station step: slower than this is stopped.
    /// Set by hand from the published algorithm; not tuned.
    public var stoppedSpeed: MetersPerSecond = 1
    /// Visited vs passed: stopped for longer than this within the station's bounds.
    /// Set by hand from the published algorithm; not tuned.
    public var stoppedDwell: Seconds = 20
    /// Visited vs passed: within the station's bounds for longer than this.
    /// Set by hand from the published algorithm; not tuned.
    public var visitedDwell: Seconds = 70

    /// The published values.
    public init() {}

    /// `value` mapped linearly from `worst` (0) to `best` (1), clamped, raised to `exponent`
    /// (the talk's `linAbsNorm`).
    static func normalized(_ value: Double, best: Double, worst: Double, exponent: Double) -> Double {
        let scaled = (worst - abs(value)) / (worst - best)
        let clamped = max(0, min(scaled, 1))
        return clamped == 0 || clamped == 1 ? clamped : Double.pow(clamped, exponent)
    }

    /// Railway step: the proximity score of a track `distance` away.
    func proximityScore(distance: Meters) -> Double {
        Self.normalized(distance, best: proximityBestDistance, worst: proximityWorstDistance, exponent: proximityExponent)
    }

    /// Railway step: how much a fix at `speed` counts.
    func speedWeight(_ speed: MetersPerSecond?) -> Double {
        Self.normalized(speed ?? 0, best: speedWeightBestSpeed, worst: speedWeightWorstSpeed, exponent: speedWeightExponent)
    }
}
