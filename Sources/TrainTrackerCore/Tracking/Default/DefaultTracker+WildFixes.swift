extension DefaultTracker {
    /// Faster than anyone rides between two fixes (a Shinkansen runs at up to 89 m/s): a fix
    /// farther from the last than this allows is a phone's wild fix (Helsinki's phones show
    /// Wi-Fi positions 27 km off with an accuracy of 36 m, again and again within a ride).
    static let fastestTravel: MetersPerSecond = 120
    /// Allowed between any two fixes on top of their accuracies and `fastestTravel`: a fused
    /// provider's jump from cell towers to satellites.
    static let jumpAllowance: Meters = 2_000
    /// A wild fix is taken after all once this many fixes in a row agree with one another and
    /// not with the fixes before (the phone really is there: a first fix that was wild, or a
    /// restored tracker on a new ride).
    static let jumpConfirmations = 3

    /// Whether `location` lies farther from `earlier` than anyone could have gone since.
    ///
    /// - Complexity: O(1).
    static func isImpossibleJump(to location: Location, from earlier: Location) -> Bool {
        let elapsed = abs(location.timestamp.seconds(since: earlier.timestamp))
        let reach =
            fastestTravel * elapsed + jumpAllowance + (location.horizontalAccuracy ?? 0) + (earlier.horizontalAccuracy ?? 0)
        return earlier.coordinate.distance(to: location.coordinate) > reach
    }

    /// Whether to leave `location` out: it is a wild fix, unless it is the last of
    /// `jumpConfirmations` in a row that agree with one another. Keeps the wild fixes seen.
    mutating func isWild(_ location: Location) -> Bool {
        guard let last = lastFix, Self.isImpossibleJump(to: location, from: last) else {
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
