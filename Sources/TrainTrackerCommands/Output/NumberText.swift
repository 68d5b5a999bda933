import TrainTrackerCore

extension Int {
    /// `value` rounded to a whole number for printing, held within ±10^15 (`NaN` as 0), so a
    /// number computed from input never traps on its way to the screen.
    ///
    ///     Int(displaying: 12.6)    // 13
    ///     Int(displaying: 1e300)   // 1_000_000_000_000_000
    ///
    /// - Complexity: O(1).
    init(displaying value: Double) {
        self = value.isNaN ? 0 : Int(flooring: value.rounded(), within: -Self.displayLimit...Self.displayLimit)
    }

    /// The largest magnitude printed.
    static let displayLimit = 1_000_000_000_000_000
}
