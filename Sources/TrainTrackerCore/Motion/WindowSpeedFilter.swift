/// The speeds reported lately, and the stop detector fed with them: what the window and the
/// decay filters share.
struct RecentSpeeds: Sendable {
    private(set) var readings: [(time: Timestamp, speed: MetersPerSecond)] = []
    private var stops = StopDetector()

    /// Takes a fix, forgets readings older than `maximumAge`, and returns whether the phone
    /// is standing.
    mutating func take(_ location: Location, maximumAge: Seconds) -> Bool {
        let now = location.timestamp
        if let speed = location.speed { readings.append((now, speed)) }
        readings.removeAll { now.seconds(since: $0.time) > maximumAge }
        return stops.update(speed: location.speed, at: now)
    }
}

/// The mean of the speeds reported in the last 15 s (at least 3 of them, else the newest
/// alone), with the quick stop detector: standing reads as 0.
public struct WindowSpeedFilter: SpeedFilter {
    /// How old a reading may be.
    /// Set by hand on 2026-11-22; the filters were compared on simulated seed 2026's rides
    /// (docs/motion.md, "Measured"), their constants not tuned.
    public var maximumAge: Seconds = 15
    /// How many readings the mean needs.
    /// Set by hand on 2026-11-22; the filters were compared on simulated seed 2026's rides
    /// (docs/motion.md, "Measured"), their constants not tuned.
    public var minimumCount = 3
    private var recent = RecentSpeeds()

    /// A 15 s window of at least 3 readings.
    public init() {}

    /// Takes in `location` and returns the speed estimate after it.
    public mutating func update(_ location: Location) -> SpeedEstimate {
        guard !recent.take(location, maximumAge: maximumAge) else { return SpeedEstimate(speed: 0, isStopped: true) }
        let readings = recent.readings
        guard readings.count >= minimumCount else { return SpeedEstimate(speed: readings.last?.speed ?? 0, isStopped: false) }
        return SpeedEstimate(speed: readings.reduce(0) { $0 + $1.speed } / Double(readings.count), isStopped: false)
    }
}
