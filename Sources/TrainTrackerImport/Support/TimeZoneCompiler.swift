import Foundation
import TrainTrackerCore

/// Compiles an IANA time zone's rules (through the system's zone database) into the core's
/// `TimeZoneRules`, for the years a feed covers, so that the core needs no Foundation.
public enum TimeZoneCompiler {
    /// How many years either side of a feed's dates the rules cover: rides recorded a year
    /// after a feed expired still find their daylight saving.
    public static let marginYears = 3

    /// `identifier`'s rules from `first` to `last` (widened by `marginYears`), or `nil` for a
    /// name the zone database does not know.
    ///
    ///     TimeZoneCompiler.rules(for: "America/Los_Angeles", from: day2024, through: day2025)
    ///     // -07:00 until 2021-11-07, then -08:00, -07:00 ... twice a year
    ///
    /// - Complexity: O(t) for the t transitions in the range.
    public static func rules(for identifier: String, from first: CivilDay, through last: CivilDay) -> TimeZoneRules? {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        let start = Date(timeIntervalSince1970: Double(first.adding(-365 * marginYears).daysSince1970) * 86_400)
        let end = Date(timeIntervalSince1970: Double(last.adding(365 * marginYears + 1).daysSince1970) * 86_400)
        var transitions: [TimeZoneRules.Transition] = []
        var moment = start
        // (A zone changes its offset a few times a year at most; the bound guards against a
        // database that would answer the same moment for ever.)
        while transitions.count < 1_000, let next = zone.nextDaylightSavingTimeTransition(after: moment), next < end,
            next > moment
        {
            transitions.append(
                TimeZoneRules.Transition(
                    at: Timestamp(secondsSince1970: next.timeIntervalSince1970),
                    offset: Seconds(zone.secondsFromGMT(for: next))))
            moment = next
        }
        return TimeZoneRules(
            identifier: identifier, initialOffset: Seconds(zone.secondsFromGMT(for: start)), transitions: transitions)
    }

    /// `identifier`'s rules around the calendar's dates (or around today's decade without them).
    public static func rules(for identifier: String, around calendar: ServiceCalendar) -> TimeZoneRules? {
        let range = calendar.dateRange ?? (CivilDay(daysSince1970: 18_262)...CivilDay(daysSince1970: 25_567))
        return rules(for: identifier, from: range.lowerBound, through: range.upperBound)
    }
}
