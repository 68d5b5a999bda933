import Testing
import TrainTrackerCore

/// Pacific time around the end of daylight saving 2024 (3 November, 02:00 PDT = 09:00 UTC) and
/// its start 2025 (9 March, 02:00 PST = 10:00 UTC), as the importers compile it.
@Suite struct TimeZoneRulesTests {
    let pacific = TimeZoneRules(
        identifier: "America/Los_Angeles", initialOffset: -25_200,
        transitions: [
            .init(at: Timestamp(secondsSince1970: 1_741_514_400), offset: -25_200),  // 2025-03-09 10:00Z
            .init(at: Timestamp(secondsSince1970: 1_730_624_400), offset: -28_800),  // 2024-11-03 09:00Z (sorted in)
        ])

    @Test func theOffsetFollowsTheRulesForTheDate() {
        #expect(pacific.offset(at: Timestamp(secondsSince1970: 1_730_624_399)) == -25_200)
        #expect(pacific.offset(at: Timestamp(secondsSince1970: 1_730_624_400)) == -28_800)
        #expect(pacific.offset(at: Timestamp(secondsSince1970: 1_732_900_000)) == -28_800, "29 November: PST")
        #expect(pacific.offset(at: Timestamp(secondsSince1970: 1_741_514_400)) == -25_200)
        #expect(!pacific.isFixed)
        #expect(TimeZoneRules.fixed(32_400).isFixed)
    }

    @Test(arguments: [
        // 2024-11-29 14:10:27 local (PST) is 22:10:27Z.
        (local: "2024-11-29T14:10:27Z", utc: "2024-11-29T22:10:27Z"),
        // 2024-10-01 08:00 local (PDT) is 15:00Z.
        (local: "2024-10-01T08:00:00Z", utc: "2024-10-01T15:00:00Z"),
        // 01:30 on 3 November happens twice: the first (PDT) is meant.
        (local: "2024-11-03T01:30:00Z", utc: "2024-11-03T08:30:00Z"),
        // 02:30 on 9 March 2025 never happens: read with the old offset, it lands after the change.
        (local: "2025-03-09T02:30:00Z", utc: "2025-03-09T10:30:00Z"),
    ])
    func aLocalTimeNamesOneMoment(local: String, utc: String) throws {
        let wall = try #require(Timestamp(parsing: local)).secondsSince1970
        #expect(pacific.moment(ofLocal: wall) == Timestamp(parsing: utc))
    }

    @Test func serviceDaysStartAtNoonMinusTwelveHours() throws {
        // An ordinary day starts at local midnight.
        let ordinary = try #require(CivilDay(year: 2024, month: 11, day: 29))
        #expect(pacific.serviceDayOrigin(ordinary) == Timestamp(parsing: "2024-11-29T08:00:00Z")?.secondsSince1970)
        // The day daylight saving ends: noon is PST, so the day's clock starts at 01:00 PDT, an hour after midnight.
        let change = try #require(CivilDay(year: 2024, month: 11, day: 3))
        #expect(pacific.serviceDayOrigin(change) == Timestamp(parsing: "2024-11-03T08:00:00Z")?.secondsSince1970)
        // The service day of a time is its local date.
        #expect(pacific.day(of: try #require(Timestamp(parsing: "2024-11-30T07:59:00Z"))) == ordinary)
    }

    @Test func offsetsOutsideTheDomainAreLeftOut() {
        let rules = TimeZoneRules(
            initialOffset: 1e9, transitions: [.init(at: Timestamp(secondsSince1970: .nan), offset: 3_600)])
        #expect(rules.initialOffset == 0)
        #expect(rules.transitions.isEmpty)
    }
}
