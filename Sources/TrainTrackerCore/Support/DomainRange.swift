/// The ranges outside numbers (from phones, feeds, files and HTTP bodies) must fall in before
/// they become domain values, and conversions that never trap, whatever `Double` comes in.
///
/// Every reader turns outside numbers into domain values through these, so one table says
/// what the project accepts:
///
///     guard let speed = reported.within(DomainRange.speed) else { skip("speed") }
///     guard let direction = Int(wholeNumber: value), (0...1).contains(direction) else { fail() }
public enum DomainRange {
    /// Latitude, degrees north.
    public static let latitude: ClosedRange<Degrees> = -90...90
    /// Longitude, degrees east.
    public static let longitude: ClosedRange<Degrees> = -180...180
    /// Ground speed a phone may report: up to 1,000 m/s, faster than any airliner. Core
    /// Location's "invalid" (a negative speed) is read as "no speed" before this check.
    public static let speed: ClosedRange<MetersPerSecond> = 0...1_000
    /// Course, degrees clockwise from north (360 is north again).
    public static let course: ClosedRange<Degrees> = 0...360
    /// Horizontal accuracy: up to 100 km (a position from a cell tower far away).
    public static let horizontalAccuracy: ClosedRange<Meters> = 0...100_000
    /// Altitude: from below the deepest mine to above any aircraft.
    public static let altitude: ClosedRange<Meters> = -12_000...100_000
    /// Times: 1900-01-01 00:00:00 to 2199-12-31 23:59:59 UTC, in seconds since 1970.
    public static let secondsSince1970: ClosedRange<Double> = -2_208_988_800...7_258_118_399
    /// A clock's offset from UTC: the ±18 h that time libraries accept (real zones span
    /// −12 h to +14 h).
    public static let utcOffset: ClosedRange<Seconds> = -64_800...64_800
    /// The largest magnitude a `Double` holds every whole number up to (2^53).
    public static let exactWholeNumbers: Double = 9_007_199_254_740_992
}

extension Double {
    /// This value when it is finite and inside `range`, else `nil`.
    ///
    ///     (1e20).within(DomainRange.speed)   // nil
    ///     (12.5).within(DomainRange.speed)   // 12.5
    ///
    /// - Complexity: O(1).
    public func within(_ range: ClosedRange<Double>) -> Double? {
        isFinite && range.contains(self) ? self : nil
    }
}

extension Int {
    /// The whole number `value` holds, or `nil` when it has a fraction, is not finite or is
    /// beyond ±2^53 (where a `Double` no longer tells neighbouring integers apart).
    ///
    ///     Int(wholeNumber: 3.0)     // 3
    ///     Int(wholeNumber: 0.5)     // nil
    ///     Int(wholeNumber: 1e300)   // nil
    ///
    /// - Complexity: O(1).
    public init?(wholeNumber value: Double) {
        guard value.isFinite, abs(value) <= DomainRange.exactWholeNumbers, let exact = Int(exactly: value) else {
            return nil
        }
        self = exact
    }

    /// `value` rounded down and held inside `range`; `NaN` becomes the lower bound. For
    /// values computed from checked inputs that must still never trap (grid cells, pixels).
    ///
    ///     Int(flooring: 1e300, within: -1_000...1_000)   // 1000
    ///
    /// - Complexity: O(1).
    public init(flooring value: Double, within range: ClosedRange<Int>) {
        guard !value.isNaN else {
            self = range.lowerBound
            return
        }
        let floored = value.rounded(.down)
        if floored <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if floored >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            self = Int(floored)
        }
    }
}
