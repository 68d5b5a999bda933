/// A moment in time: seconds since 1970-01-01 00:00:00 UTC.
///
/// The core stays free of Foundation, so it carries its own timestamp with parsing
/// and formatting of the text forms the Eki session files use.
public struct Timestamp: Hashable, Comparable, Sendable, Codable {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    public var secondsSince1970: Double

    /// Creates a timestamp from seconds since 1970-01-01 00:00:00 UTC.
    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// Seconds from `earlier` to this timestamp (negative when `earlier` is later).
    public func seconds(since earlier: Timestamp) -> Seconds {
        secondsSince1970 - earlier.secondsSince1970
    }

    /// This timestamp moved by `seconds`.
    public func adding(_ seconds: Seconds) -> Timestamp {
        Timestamp(secondsSince1970: secondsSince1970 + seconds)
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }
}

extension Timestamp {
    /// Parses `YYYY-MM-DD HH:MM:SS[.fff]` (UTC, the Eki session format) and ISO 8601
    /// forms with `T`, an optional fraction and `Z` or a `±HH:MM` offset.
    ///
    ///     Timestamp(parsing: "2025-03-01 08:12:05.250")
    ///     Timestamp(parsing: "2025-03-01T17:12:05+09:00")
    ///
    /// Returns `nil` for anything else, including impossible dates such as month 13 and
    /// offsets beyond ±18 h or with 60 minutes or more.
    /// - Complexity: O(n) in the length of the text.
    public init?(parsing text: some StringProtocol) {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2),
            scanner.skip(" ") || scanner.skip("T"),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        guard let civilDay = CivilDay(year: year, month: month, day: day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") || scanner.skip(",") {
            var scale = 0.1
            var sawDigit = false
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                sawDigit = true
            }
            guard sawDigit else { return nil }
        }
        var offsetSeconds = 0
        if scanner.skip("Z") || scanner.isAtEnd {
            offsetSeconds = 0
        } else if let sign = scanner.sign() {
            guard let offsetHours = scanner.number(digits: 2) else { return nil }
            _ = scanner.skip(":")
            let offsetMinutes = scanner.number(digits: 2) ?? 0
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            // "+99:99" names no clock.
            guard offsetMinutes < 60, DomainRange.utcOffset.contains(Double(offsetSeconds)) else { return nil }
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        let seconds = civilDay.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        self.init(secondsSince1970: Double(seconds) + fraction)
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2025-03-01T08:12:05.250Z`.
    public var iso8601: String {
        let (date, time, milliseconds) = components
        return "\(date)T\(time).\(Self.pad(milliseconds, 3))Z"
    }

    /// The Eki session text form, `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
    public var ekiText: String {
        let (date, time, milliseconds) = components
        return "\(date) \(time).\(Self.pad(milliseconds, 3))"
    }

    /// `HH:MM:SS` of this timestamp shifted by `utcOffset` seconds.
    public func timeOfDay(utcOffset: Seconds = 0) -> String {
        adding(utcOffset).components.time
    }

    /// The time from seconds since 1970, as a phone or file gives them: seconds, or
    /// milliseconds when the number is beyond 10^11 (a time after 5138 in seconds, after 1973
    /// in milliseconds). `nil` outside `DomainRange.secondsSince1970` or not finite.
    ///
    ///     Timestamp(epoch: 1_758_355_200)       // 2025-09-20T08:00:00Z
    ///     Timestamp(epoch: 1_758_355_200_000)   // the same, in milliseconds
    public init?(epoch number: Double) {
        let seconds = abs(number) > Self.millisecondEpochThreshold ? number / 1000 : number
        guard let checked = seconds.within(DomainRange.secondsSince1970) else { return nil }
        self.init(secondsSince1970: checked)
    }

    /// Epoch numbers beyond this are milliseconds.
    static let millisecondEpochThreshold: Double = 100_000_000_000

    /// Whether the time is finite and within `DomainRange.secondsSince1970` (1900 to 2199).
    public var isInDomainRange: Bool { secondsSince1970.within(DomainRange.secondsSince1970) != nil }

    /// The date, time and milliseconds; a time outside the years 0001 to 9999 (or not finite)
    /// is written as the nearest of them, so formatting never traps.
    private var components: (date: String, time: String, milliseconds: Int) {
        let (year, month, day, seconds, milliseconds) = numericComponents
        let date = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
        let time = "\(Self.pad(seconds / 3600, 2)):\(Self.pad(seconds / 60 % 60, 2)):\(Self.pad(seconds % 60, 2))"
        return (date, time, milliseconds)
    }

    /// The civil date, the second of the day and the millisecond, clamped as `components`.
    private var numericComponents: (year: Int, month: Int, day: Int, second: Int, millisecond: Int) {
        let totalMilliseconds = Int(flooring: secondsSince1970 * 1000, within: Self.formattableMilliseconds)
        var days = totalMilliseconds / 86_400_000
        var remainder = totalMilliseconds % 86_400_000
        if remainder < 0 {
            remainder += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilDay(daysSince1970: days).date
        return (year, month, day, remainder / 1000, remainder % 1000)
    }

    /// Writes `iso8601`'s 24 bytes of text as UTF-8 at `target`, digit by digit (no `String` made).
    package func writeISO8601(to target: UnsafeMutablePointer<UInt8>) {
        let (year, month, day, second, millisecond) = numericComponents
        var position = 0
        func put(_ byte: UInt8) {
            target[position] = byte
            position += 1
        }
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                put(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        put(UInt8(ascii: "-"))
        digits(month, 2)
        put(UInt8(ascii: "-"))
        digits(day, 2)
        put(UInt8(ascii: "T"))
        digits(second / 3600, 2)
        put(UInt8(ascii: ":"))
        digits(second / 60 % 60, 2)
        put(UInt8(ascii: ":"))
        digits(second % 60, 2)
        put(UInt8(ascii: "."))
        digits(millisecond, 3)
        put(UInt8(ascii: "Z"))
    }

    /// 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    private static let formattableMilliseconds = -62_135_596_800_000...253_402_300_799_999

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Reads fixed-width numbers out of ASCII text.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func digit() -> Int? {
        guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { return nil }
        defer { position += 1 }
        return Int(bytes[position] - UInt8(ascii: "0"))
    }

    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
