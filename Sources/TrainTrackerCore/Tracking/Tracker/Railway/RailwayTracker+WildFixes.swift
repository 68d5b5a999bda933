extension RailwayTracker {
    /// Faster than anyone rides between two fixes (a Shinkansen runs at up to 89 m/s): a fix
    /// farther from the last than this allows is a phone's wild fix (Helsinki's phones show
    /// Wi-Fi positions 27 km off with an accuracy of 36 m, again and again within a ride).
    /// Set by hand on 2026-11-25 for Helsinki phone 3's Wi-Fi positions 27 km off; the Caltrain
    /// recording and seed 1709 scored exactly as before.
    static let fastestTravel: MetersPerSecond = 120
    /// Allowed between any two fixes on top of their accuracies and `fastestTravel`: a fused
    /// provider's jump from cell towers to satellites.
    /// Set by hand on 2026-11-25 with `fastestTravel`; the reason for 2 km is not recorded.
    static let jumpAllowance: Meters = 2_000
    /// A wild fix is taken after all once this many fixes in a row agree with one another and
    /// not with the fixes before (the phone really is there: a first fix that was wild, or a
    /// restored tracker on a new ride).
    /// Set by hand on 2026-11-25 with `fastestTravel`; the reason for three is not recorded.
    static let jumpConfirmations = 3
    /// Harder than any train (or a car on the way to the station) speeds up: from the speed a
    /// phone measured at the last fix, no one gets farther in `t` seconds than that speed's
    /// run plus this acceleration's. Commuter trains start at about 1 m/s².
    /// (Chosen by hand on 2026-11-28, on simulated seeds 6363 and 7474, reported on fresh seed
    /// 9191.)
    static let hardestAcceleration = 3.0  // m/s²
    /// ... plus this, and the fixes' accuracies. A standing phone's fixes 300 m to 1.5 km off
    /// (a big station's reflections, which claim an accuracy of 20–80 m) are then wild, where
    /// `jumpAllowance` lets them in. Set by hand; a minute after the last fix the flat bound is
    /// the tighter one again.
    /// Chosen on simulated seeds 6363 and 7474 (2026-11-28).
    static let startAllowance: Meters = 100

    /// Whether `location` lies farther from `earlier` than anyone could have gone since:
    /// anyone at all, or, given the `speed` the phone measured at `earlier`, anyone going that
    /// fast.
    ///
    /// - Complexity: O(1).
    static func isImpossibleJump(to location: Location, from earlier: Location, speed: MetersPerSecond? = nil) -> Bool {
        let elapsed = abs(location.timestamp.seconds(since: earlier.timestamp))
        var travel = fastestTravel * elapsed + jumpAllowance
        if let speed, speed.isFinite, speed >= 0 {
            travel = min(travel, speed * elapsed + hardestAcceleration * elapsed * elapsed / 2 + startAllowance)
        }
        let reach = travel + (location.horizontalAccuracy ?? 0) + (earlier.horizontalAccuracy ?? 0)
        return earlier.coordinate.distance(to: location.coordinate) > reach
    }

    /// The speed that bounds the next fix: the last fix's own measured speed (a satellite
    /// Doppler reading), or the tracker's, if higher; none when the phone measured none. A
    /// speed worked out from positions is no bound: Helsinki's phones, which give none, move
    /// between Wi-Fi positions 10–40 s apart faster than their last two fixes showed (a bound
    /// from such speeds cost them 1.9 points of next stop), and a jittery phone's positions
    /// say nothing of its speed.
    var measuredSpeed: MetersPerSecond? {
        guard let measured = lastFix?.speed, measured.isFinite, measured >= 0 else { return nil }
        return max(measured, lastSpeed)
    }

    /// Whether to leave `location` out: it is a wild fix, unless it is the last of
    /// `jumpConfirmations` in a row that agree with one another. Keeps the wild fixes seen.
    mutating func isWild(_ location: Location) -> Bool {
        guard let last = lastFix, Self.isImpossibleJump(to: location, from: last, speed: measuredSpeed) else {
            wildFixes = []
            return false
        }
        if let previous = wildFixes.last, Self.isImpossibleJump(to: location, from: previous) { wildFixes = [] }
        wildFixes.append(location)
        guard wildFixes.count >= Self.jumpConfirmations else { return true }
        wildFixes = []
        return false
    }
}
