/// The fastest a phone can have moved, by what its positions, a vehicle's acceleration and the
/// fastest ground transport allow: what every speed filter reports at most.
///
/// At most the distance between this fix and the one `supportSpan` or more before it, widened
/// by twice both accuracies, over the time between them (a pair no vehicle could join is
/// skipped: one of its fixes is wrong); at most `physicalAcceleration` per second above the
/// last report (over at most `accelerationSpan`); never above `physicalMaximum`.
///
/// - Complexity: O(1) amortised per fix (the fixes of the last `supportWindow` are kept).
public struct SpeedBound: Sendable {
    /// The hardest any vehicle a phone rides in keeps accelerating, m/s²: trains and buses
    /// manage 1–1.5, a car going from 0 to 100 km/h in 14 s about 2.
    /// Set by hand on 2026-11-24 from what the vehicles a phone rides can do; not measured.
    public var physicalAcceleration = 2.0
    /// The fastest ground transport a phone rides (a high-speed train, 360 km/h).
    /// Set by hand on 2026-11-24 from what the vehicles a phone rides can do; not measured.
    public var physicalMaximum: MetersPerSecond = 100
    /// The positions that bound the speed are at least this far apart in time.
    /// Set by hand on 2026-11-24; the reason is not recorded.
    public var supportSpan: Seconds = 5
    /// How long fixes are kept to bound the speed (the last `keptFixes` whatever their age).
    /// Both set by hand on 2026-11-24; the reason is not recorded.
    static let supportWindow: Seconds = 60
    static let keptFixes = 3
    /// The longest stretch of accelerating a rise in speed may be put down to, seconds.
    /// Set by hand on 2026-11-24; the reason is not recorded.
    static let accelerationSpan: Seconds = 15
    private var recent: [Location] = []
    private var recentStart = 0
    private var reported: (speed: MetersPerSecond, at: Timestamp)?

    /// The defaults: 2 m/s², 100 m/s, positions 5 s apart.
    public init() {}

    /// `speed` within every bound at `location`, and the bound the positions alone set
    /// (infinite while no earlier fix agrees with this one). Call once per fix, in time order;
    /// the speed returned is taken as reported.
    public mutating func bound(_ speed: MetersPerSecond, at location: Location) -> (
        speed: MetersPerSecond, byPositions: MetersPerSecond
    ) {
        let now = location.timestamp
        var bound = min(speed, physicalMaximum)
        var byPositions = MetersPerSecond.infinity
        if let reported, now > reported.at {
            // A rise over a long gap counts as at most `accelerationSpan` of accelerating: the
            // first fix after a tunnel does not jump to a speed no fix has shown.
            bound = min(
                bound, reported.speed + physicalAcceleration * min(now.seconds(since: reported.at), Self.accelerationSpan))
        }
        while recentStart < recent.count - Self.keptFixes, now.seconds(since: recent[recentStart].timestamp) > Self.supportWindow
        {
            recentStart += 1
        }
        // The newest fix at least `supportSpan` before this one that this one agrees with: a
        // pair no vehicle could join, even allowing for both accuracies, has a wrong fix in it.
        let accuracy = max(location.horizontalAccuracy ?? 30, 3)
        for earlier in recent[recentStart...].reversed() {
            let elapsed = now.seconds(since: earlier.timestamp)
            guard elapsed >= supportSpan else { continue }
            let slack = 2 * (max(earlier.horizontalAccuracy ?? 30, 3) + accuracy)
            let distance = location.coordinate.distance(to: earlier.coordinate)
            guard (distance - slack) / elapsed <= physicalMaximum else { continue }
            byPositions = (distance + slack) / elapsed
            bound = min(bound, byPositions)
            break
        }
        recent.append(location)
        if recentStart > 256 {
            recent.removeFirst(recentStart)
            recentStart = 0
        }
        let result = max(0, bound)
        reported = (result, now)
        return (result, byPositions)
    }
}

/// Another filter's estimate held within what the positions and physics allow (`SpeedBound`):
/// the exponential, window and decay filters smooth the phone's reported speeds, and a
/// reported speed can spike too.
public struct BoundedSpeedFilter<Filter: SpeedFilter>: SpeedFilter {
    /// The filter bounded.
    public var filter: Filter
    /// The bound.
    public var bound = SpeedBound()

    /// `filter`, bounded.
    public init(_ filter: Filter) {
        self.filter = filter
    }

    /// Takes in `location` and returns the bounded estimate after it.
    public mutating func update(_ location: Location) -> SpeedEstimate {
        let estimate = filter.update(location)
        let speed = bound.bound(estimate.speed, at: location).speed
        return SpeedEstimate(speed: estimate.isStopped ? 0 : speed, isStopped: estimate.isStopped)
    }
}
