import Algorithms

/// A time zone's offsets from UTC over time: an IANA zone's rules (daylight saving
/// included) compiled into a list of transitions, so that the core can tell local time
/// without Foundation.
///
/// The importers compile the zone a feed names (GTFS `agency_timezone`, `Asia/Tokyo` for
/// mini-tokyo-3d) for the years around the feed's dates; before the first transition the
/// `initialOffset` holds, after the last the last transition's offset.
///
///     let pacific = TimeZoneRules(
///         identifier: "America/Los_Angeles", initialOffset: -25_200,
///         transitions: [.init(at: Timestamp(secondsSince1970: 1_730_624_400), offset: -28_800)])
///     pacific.offset(at: Timestamp(secondsSince1970: 1_732_900_000))   // -28_800: 29 Nov 2024, PST
public struct TimeZoneRules: Sendable, Hashable, Codable {
    /// One change of offset.
    public struct Transition: Sendable, Hashable, Codable {
        /// From this moment on ...
        public var at: Timestamp
        /// ... the clock runs this many seconds ahead of UTC.
        public var offset: Seconds

        /// A change to `offset` at `at`.
        public init(at: Timestamp, offset: Seconds) {
            self.at = at
            self.offset = offset
        }
    }

    /// The IANA name (`America/Los_Angeles`), or `nil` for a fixed offset given by hand.
    public var identifier: String?
    /// The offset before the first transition, in seconds ahead of UTC.
    public var initialOffset: Seconds
    /// The changes of offset, in time order.
    public var transitions: [Transition]

    /// Rules from an offset before any transition and the transitions (sorted here; offsets
    /// outside `DomainRange.utcOffset`, and transitions at non-finite times, are left out).
    public init(identifier: String? = nil, initialOffset: Seconds, transitions: [Transition] = []) {
        self.identifier = identifier
        self.initialOffset = initialOffset.within(DomainRange.utcOffset) ?? 0
        self.transitions =
            transitions
            .filter { $0.at.secondsSince1970.isFinite && $0.offset.within(DomainRange.utcOffset) != nil }
            .sorted { $0.at < $1.at }
    }

    /// A clock a fixed number of seconds ahead of UTC all year.
    public static func fixed(_ offset: Seconds, identifier: String? = nil) -> TimeZoneRules {
        TimeZoneRules(identifier: identifier, initialOffset: offset)
    }

    /// UTC itself.
    public static let utc = TimeZoneRules.fixed(0, identifier: "UTC")

    /// Whether the offset never changes.
    public var isFixed: Bool { transitions.allSatisfy { $0.offset == initialOffset } }

    /// Seconds the local clock runs ahead of UTC at `time`.
    ///
    /// - Complexity: O(log t) for t transitions.
    public func offset(at time: Timestamp) -> Seconds {
        let index = transitions.partitioningIndex { $0.at > time }
        return index == 0 ? initialOffset : transitions[index - 1].offset
    }

    /// The moment a local wall-clock time names, given as seconds since 1970 on the local clock
    /// (`YYYY-MM-DD HH:MM:SS` read as if it were UTC). A time the clock skipped (spring
    /// forward) is read with the offset before the change, so it lands after it; a time the
    /// clock showed twice (fall back) is the first of the two.
    ///
    /// - Complexity: O(log t) for t transitions.
    public func moment(ofLocal local: Double) -> Timestamp {
        let earlier = offset(at: Timestamp(secondsSince1970: local - Self.widest))
        let later = offset(at: Timestamp(secondsSince1970: local + Self.widest))
        let first = Timestamp(secondsSince1970: local - earlier)
        let second = Timestamp(secondsSince1970: local - later)
        // The reading whose offset agrees with itself; the earlier when both do (fall back),
        // the one with the old offset when neither does (a skipped time).
        if offset(at: first) == earlier { return first }
        return offset(at: second) == later ? second : first
    }

    /// The service day `time` belongs to by its local date (midnight to midnight).
    public func day(of time: Timestamp) -> CivilDay { CivilDay(time, utcOffset: offset(at: time)) }

    /// Where the clock of service day `day` starts: GTFS counts a service day's times from
    /// "noon minus 12 h" on the local clock, which on the day daylight saving starts or ends
    /// is an hour off midnight. Seconds since 1970 (UTC).
    ///
    /// - Complexity: O(log t) for t transitions.
    public func serviceDayOrigin(_ day: CivilDay) -> Seconds {
        let noon = Double(day.daysSince1970) * 86_400 + 43_200
        return Double(day.daysSince1970) * 86_400 - offset(at: moment(ofLocal: noon))
    }

    /// Wider than any offset: 18 h.
    private static let widest: Seconds = 64_800
}
