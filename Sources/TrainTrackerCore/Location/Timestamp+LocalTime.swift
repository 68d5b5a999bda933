extension Timestamp {
    /// Parses the forms `init(parsing:)` reads; a text without a zone (`Z` or `±HH:MM`) is a
    /// local time `utcOffset` seconds ahead of UTC, as phones and notes apps write them.
    ///
    ///     Timestamp(parsing: "2025-09-22 08:12:05.250", utcOffset: 32_400)  // 23:12:05.250Z the day before
    ///     Timestamp(parsing: "2025-09-22T08:12:05Z", utcOffset: 32_400)     // 08:12:05Z: the zone wins
    ///
    /// Returns `nil` for anything else and for a time outside `DomainRange.secondsSince1970`.
    /// - Complexity: O(n) in the length of the text.
    public init?(parsing text: some StringProtocol, utcOffset: Seconds) {
        guard let parsed = Timestamp(parsing: text) else { return nil }
        let local = parsed.adding(Self.hasZone(text) ? 0 : -utcOffset)
        guard local.isInDomainRange else { return nil }
        self = local
    }

    /// Whether a date-time text ends in `Z` or carries a `±HH:MM` / `±HHMM` offset after its time.
    package static func hasZone(_ text: some StringProtocol) -> Bool {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return true }
        guard let timeStart = text.firstIndex(where: { $0 == "T" || $0 == " " }) else { return false }
        return text[timeStart...].contains { $0 == "+" || $0 == "-" }
    }
}
