/// The days each service of a timetable runs on: a weekly rule, optionally bounded by dates
/// with days added and removed (GTFS `calendar.txt` and `calendar_dates.txt`), or a weekly
/// rule alone (mini-tokyo-3d's `Weekday`, `SaturdayHoliday`...).
///
/// A day outside every date range the calendar knows (an expired feed) is served as a
/// typical day of its weekday: each service runs on it if it ran on most days of that
/// weekday within the range.
///
///     let calendar = ServiceCalendar(services: ["Weekday": ServiceDays(weekdays: .mondayToFriday)])
///     calendar.runs("Weekday", on: CivilDay(daysSince1970: 20_353))   // true: 2025-09-22, a Monday
public struct ServiceCalendar: Sendable, Hashable, Codable {
    private let services: [String: ServiceDays]
    /// Per service, the weekdays it mostly ran on within the calendar's dates (for days outside them).
    private let typicalWeek: [String: Weekdays]
    /// The first and last day any service's dates cover.
    public let dateRange: ClosedRange<CivilDay>?

    /// A calendar on which every service runs every day.
    public init() { self.init(services: [:]) }

    /// A calendar of `services` by name.
    ///
    /// - Complexity: O(s · d) for s services and d days in their date ranges.
    public init(services: [String: ServiceDays]) {
        self.services = services
        let dateRange = services.values.compactMap(\.dateRange).reduce(nil) { range, next in
            range.map { min($0.lowerBound, next.lowerBound)...max($0.upperBound, next.upperBound) } ?? next
        }
        self.dateRange = dateRange
        typicalWeek = services.compactMapValues { Self.typicalWeek(of: $0, within: dateRange) }
    }

    /// The weekdays `days` mostly runs on within `dateRange`.
    private static func typicalWeek(of days: ServiceDays, within dateRange: ClosedRange<CivilDay>?) -> Weekdays? {
        guard let dateRange else { return nil }
        var counts = Array(repeating: (runs: 0, all: 0), count: 7)
        var day = dateRange.lowerBound
        while day <= dateRange.upperBound {
            counts[day.weekday].all += 1
            if days.runs(on: day) { counts[day.weekday].runs += 1 }
            day = day.adding(1)
        }
        var week = Weekdays()
        for weekday in 0..<7 where counts[weekday].all > 0 && 2 * counts[weekday].runs > counts[weekday].all {
            week.insert(Weekdays(rawValue: 1 << weekday))
        }
        return week
    }

    /// Whether `service` runs on `day`. A service the calendar does not know runs every day.
    ///
    /// - Complexity: O(1).
    public func runs(_ service: String, on day: CivilDay) -> Bool {
        guard let days = services[service] else { return true }
        if let dateRange, !dateRange.contains(day), let week = typicalWeek[service] {
            return week.contains(day.weekdays)
        }
        return days.runs(on: day)
    }

    /// Encodes the services' days by name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(services)
    }

    /// Decodes what `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        self.init(services: try decoder.singleValueContainer().decode([String: ServiceDays].self))
    }

    /// The weekly rules mini-tokyo-3d's (and ODPT's) calendar names stand for: `Weekday`
    /// Monday to Friday, `SaturdayHoliday` and `Weekend` Saturday and Sunday, `Saturday`,
    /// `Holiday` and `Sunday` the one day; any other name, every day. National holidays are
    /// not known: a holiday is served as its weekday.
    public static func weekly(named names: some Sequence<String>) -> ServiceCalendar {
        var services: [String: ServiceDays] = [:]
        for name in Set(names) {
            let weekdays: Weekdays? =
                switch name {
                case "Weekday": .mondayToFriday
                case "SaturdayHoliday", "Weekend": [.saturday, .sunday]
                case "Saturday": .saturday
                case "Holiday", "Sunday": .sunday
                default: nil
                }
            if let weekdays { services[name] = ServiceDays(weekdays: weekdays) }
        }
        return ServiceCalendar(services: services)
    }
}

/// The days one service runs on.
public struct ServiceDays: Sendable, Hashable, Codable {
    /// The weekdays of its weekly rule.
    public var weekdays: Weekdays
    /// The dates the weekly rule applies between; always when `nil`.
    public var dateRange: ClosedRange<CivilDay>?
    /// Days it runs on besides the rule.
    public var added: Set<CivilDay>
    /// Days it does not run on despite the rule.
    public var removed: Set<CivilDay>

    /// A service running on `weekdays` within `dateRange`, plus `added`, less `removed`.
    public init(
        weekdays: Weekdays, dateRange: ClosedRange<CivilDay>? = nil, added: Set<CivilDay> = [], removed: Set<CivilDay> = []
    ) {
        self.weekdays = weekdays
        self.dateRange = dateRange
        self.added = added
        self.removed = removed
    }

    /// Whether the service runs on `day`.
    public func runs(on day: CivilDay) -> Bool {
        if added.contains(day) { return true }
        if removed.contains(day) { return false }
        return (dateRange?.contains(day) ?? true) && weekdays.contains(day.weekdays)
    }
}

/// A set of weekdays.
public struct Weekdays: OptionSet, Sendable, Hashable, Codable {
    /// Bit 0 is Monday, bit 6 Sunday.
    public let rawValue: UInt8
    /// The set with these bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Monday.
    public static let monday = Weekdays(rawValue: 1 << 0)
    /// Tuesday.
    public static let tuesday = Weekdays(rawValue: 1 << 1)
    /// Wednesday.
    public static let wednesday = Weekdays(rawValue: 1 << 2)
    /// Thursday.
    public static let thursday = Weekdays(rawValue: 1 << 3)
    /// Friday.
    public static let friday = Weekdays(rawValue: 1 << 4)
    /// Saturday.
    public static let saturday = Weekdays(rawValue: 1 << 5)
    /// Sunday.
    public static let sunday = Weekdays(rawValue: 1 << 6)
    /// Monday to Friday.
    public static let mondayToFriday: Weekdays = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// Every day.
    public static let all = Weekdays(rawValue: 0x7F)
}

/// A calendar day, counted from 1970-01-01 (proleptic Gregorian).
public struct CivilDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var daysSince1970: Int

    /// The day `daysSince1970` days after 1970-01-01.
    public init(daysSince1970: Int) { self.daysSince1970 = daysSince1970 }

    /// Encodes the day number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(daysSince1970)
    }

    /// Decodes a day number.
    public init(from decoder: any Decoder) throws {
        daysSince1970 = try decoder.singleValueContainer().decode(Int.self)
    }

    /// The day of a date, or `nil` for an impossible one (month 13, 31 April, 29 February 2025).
    ///
    ///     CivilDay(year: 1970, month: 1, day: 2)?.daysSince1970   // 1
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.length(ofMonth: month, year: year) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        daysSince1970 = era * 146_097 + dayOfEra - 719_468
    }

    /// The day a GTFS date such as `20170715` names, or `nil` if it names none.
    public init?(gtfs text: some StringProtocol) {
        guard text.count == 8, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(String(text)) else { return nil }
        self.init(year: value / 10_000, month: value / 100 % 100, day: value % 100)
    }

    /// The service day `time` falls on, on a clock `utcOffset` seconds ahead of UTC.
    public init(_ time: Timestamp, utcOffset: Seconds) {
        let local = time.secondsSince1970 + utcOffset
        // Held to ±10^9 days (2.7 million years): never a trap, whatever the time.
        daysSince1970 = Int(flooring: local / 86_400, within: -1_000_000_000...1_000_000_000)
    }

    /// The day `days` later.
    public func adding(_ days: Int) -> CivilDay { CivilDay(daysSince1970: daysSince1970 + days) }

    /// 0 for Monday through 6 for Sunday.
    public var weekday: Int { ((daysSince1970 % 7) + 7 + 3) % 7 }

    /// The weekday as a one-day set.
    public var weekdays: Weekdays { Weekdays(rawValue: 1 << weekday) }

    /// Year, month and day.
    public var date: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day as GTFS writes it, e.g. `20170715` (what `init?(gtfs:)` reads).
    public var gtfs: String {
        let (year, month, day) = date
        return String(year) + String(month).leftPadded(2) + String(day).leftPadded(2)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = date
        return "\(year)-\(String(month).leftPadded(2))-\(String(day).leftPadded(2))"
    }

    /// Midnight of this day on a clock `utcOffset` seconds ahead of UTC.
    public func midnight(utcOffset: Seconds) -> Timestamp {
        Timestamp(secondsSince1970: Double(daysSince1970) * 86_400 - utcOffset)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: CivilDay, rhs: CivilDay) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }

    private static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
