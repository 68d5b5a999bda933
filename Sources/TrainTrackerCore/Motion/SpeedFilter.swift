/// What a speed filter makes of the fixes so far.
public struct SpeedEstimate: Hashable, Sendable {
    /// The smoothed ground speed.
    public var speed: MetersPerSecond
    /// Whether the phone is standing still.
    public var isStopped: Bool

    /// An estimate.
    public init(speed: MetersPerSecond, isStopped: Bool) {
        self.speed = speed
        self.isStopped = isStopped
    }
}

/// A speed filter fed one fix at a time, in time order.
///
///     var filter = SpeedFilterName.kalman.makeFilter()
///     for fix in fixes { print(filter.update(fix).speed) }
public protocol SpeedFilter: Sendable {
    /// Takes the next fix and returns the estimate after it.
    mutating func update(_ location: Location) -> SpeedEstimate
}

/// The speed filters, by the name the command line uses.
public enum SpeedFilterName: String, CaseIterable, Hashable, Sendable {
    /// `RawSpeedFilter`: the reported speed as it is, for reference.
    case raw
    /// `ExponentialSpeedFilter`: the time-agnostic baseline.
    case exponential
    /// `WindowSpeedFilter`: the mean over the last 15 s.
    case window
    /// `DecaySpeedFilter`: weights falling with each reading's age.
    case decay
    /// `KalmanSpeedFilter`: constant velocity, weighted by each fix's accuracy.
    case kalman

    /// A new filter of this kind with its default settings; every one but `raw` is bounded
    /// by what the positions and physics allow (`SpeedBound`).
    public func makeFilter() -> any SpeedFilter {
        switch self {
        case .raw: RawSpeedFilter()
        case .exponential: BoundedSpeedFilter(ExponentialSpeedFilter())
        case .window: BoundedSpeedFilter(WindowSpeedFilter())
        case .decay: BoundedSpeedFilter(DecaySpeedFilter())
        case .kalman: KalmanSpeedFilter()
        }
    }
}

/// Quick, robust stop detection from the reported speeds: stopped once three readings in a
/// row, spanning at least two seconds, are below 0.5 m/s (a train that stops is stopped two or
/// three seconds later; a lone 0.0 while moving, or two, never is), or two in a row at least
/// eight seconds apart (a phone sampling every ten seconds); moving again on two readings in a
/// row above 1 m/s. Readings in between neither start nor break a stop.
public struct StopDetector: Hashable, Sendable, Codable {
    /// Below this a reading counts as standing.
    /// Set by hand on 2026-11-22 with the speed filters; not tuned, and the reason is not recorded.
    public var stillSpeed: MetersPerSecond = 0.5
    /// Above this a reading counts as moving.
    /// Set by hand on 2026-11-22 with the speed filters; not tuned, and the reason is not recorded.
    public var movingSpeed: MetersPerSecond = 1
    /// Standing readings needed in a row ...
    /// (Set by hand on 2026-11-22 with the speed filters; not tuned, and the reason is not
    /// recorded.)
    public var stillReadings = 3
    /// ... and the time they must span.
    /// Set by hand on 2026-11-22 with the speed filters; not tuned, and the reason is not recorded.
    public var stillSpan: Seconds = 2
    /// Two standing readings this far apart also make a stop (a phone sampling sparsely).
    /// Set by hand on 2026-11-22 with the speed filters for a phone sampling every ten seconds; not
    /// tuned.
    public var sparseSpan: Seconds = 8

    private var stillSince: Timestamp?
    private var stillCount = 0
    private var movingCount = 0
    /// Whether the phone is standing.
    public private(set) var isStopped = false

    /// A detector with the defaults.
    public init() {}

    /// Takes a reading (ignores a missing one) and returns whether the phone is standing.
    public mutating func update(speed: MetersPerSecond?, at time: Timestamp) -> Bool {
        guard let speed else { return isStopped }
        if speed < stillSpeed {
            if stillCount == 0 { stillSince = time }
            stillCount += 1
            movingCount = 0
            let span = stillSince.map { time.seconds(since: $0) } ?? 0
            // Three readings over two seconds; with sparse fixes, two readings ten seconds apart.
            if (stillCount >= stillReadings && span >= stillSpan) || (stillCount >= 2 && span >= sparseSpan) {
                isStopped = true
            }
        } else if speed > movingSpeed {
            stillCount = 0
            stillSince = nil
            movingCount += 1
            if movingCount >= 2 { isStopped = false }
        } else {
            // Between the two: jitter of a phone at rest, or creeping; it neither starts nor
            // breaks a stop.
            movingCount = 0
        }
        return isStopped
    }
}

/// No smoothing: the latest reported speed, "stopped" below 0.5 m/s. The reference the
/// filters must beat.
public struct RawSpeedFilter: SpeedFilter {
    private var latest: MetersPerSecond = 0

    /// The reference.
    public init() {}

    /// Takes in `location` and returns the speed estimate after it.
    public mutating func update(_ location: Location) -> SpeedEstimate {
        latest = location.speed ?? latest
        return SpeedEstimate(speed: latest, isStopped: latest < 0.5)
    }
}
