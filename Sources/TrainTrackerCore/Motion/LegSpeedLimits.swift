/// The fastest each kind of diary leg goes: a speed above its leg's limit is one the positions
/// claim and the vehicle cannot reach (a metro that jumps 1.5 km in 30 s under ground).
///
///     let limits = LegSpeedLimits()
///     limits.limit(for: .rail, line: nil)   // 45 m/s
public struct LegSpeedLimits: Hashable, Sendable {
    /// Standing: the drift of a phone at rest.
    /// Set by hand on 2026-11-24; the reason is not recorded.
    public var stay: MetersPerSecond = 2
    /// On foot or by bike.
    /// Set by hand on 2026-11-24; the reason is not recorded.
    public var walking: MetersPerSecond = 12
    /// A road vehicle on a motorway (130 km/h); a vehicle leg gets the faster of this and `rail`.
    /// Set by hand on 2026-11-24 from the vehicle's top speed given above; not measured.
    public var road: MetersPerSecond = 36
    /// A commuter or regional train (160 km/h).
    /// Set by hand on 2026-11-24 from the vehicle's top speed given above; not measured.
    public var rail: MetersPerSecond = 45
    /// A metro (90 km/h).
    /// Set by hand on 2026-11-24 from the vehicle's top speed given above; not measured.
    public var metro: MetersPerSecond = 25

    /// The defaults.
    public init() {}

    /// The limit of a leg of `mode`, named `line` if it is rail.
    public func limit(for mode: LegMode, line: RailLegName?) -> MetersPerSecond {
        switch mode {
        case .stay: stay
        case .walking: walking
        // A vehicle leg may be rail the diary could not tell.
        case .vehicle: max(road, rail)
        case .rail: line?.kind == "metro" ? metro : rail
        }
    }

    /// Each fix's speed in `speeds` (one per fix of the day, in time order, at `times`) held
    /// to the limit of the leg it falls in; a fix on the boundary of two legs takes the faster.
    ///
    /// - Complexity: O(n + l) for n fixes and l legs.
    public func limited(_ speeds: [MetersPerSecond], at times: [Timestamp], legs: [(leg: DiaryLeg, line: RailLegName?)])
        -> [MetersPerSecond]
    {
        var index = 0
        return zip(speeds, times).map { speed, time in
            while index < legs.count, legs[index].leg.end < time { index += 1 }
            var limit = index < legs.count ? limit(for: legs[index].leg.mode, line: legs[index].line) : road
            // The boundary fix ends one leg and starts the next.
            if index + 1 < legs.count, legs[index].leg.end == time {
                limit = max(limit, self.limit(for: legs[index + 1].leg.mode, line: legs[index + 1].line))
            }
            return min(speed, limit)
        }
    }
}
