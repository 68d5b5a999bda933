import Testing

@testable import TrainTrackerCore

@Suite struct ServiceCalendarTests {
    func day(_ year: Int, _ month: Int, _ day: Int) throws -> CivilDay {
        try #require(CivilDay(year: year, month: month, day: day))
    }

    @Test func daysCountFrom1970AndKnowTheirWeekday() throws {
        #expect(try day(1970, 1, 1).daysSince1970 == 0)
        #expect(try day(1970, 1, 1).weekday == 3, "a Thursday")
        #expect(try day(2025, 9, 22).daysSince1970 == 20_353)
        #expect(try day(2025, 9, 22).weekday == 0, "a Monday")
        #expect(try day(2024, 2, 29).adding(1) == day(2024, 3, 1))
        #expect(try day(1969, 12, 31).weekday == 2, "before 1970 too")
        #expect(CivilDay(year: 2025, month: 2, day: 29) == nil)
        #expect(CivilDay(year: 2025, month: 13, day: 1) == nil)
        for number in stride(from: -1_000, to: 40_000, by: 97) {
            let date = CivilDay(daysSince1970: number).date
            #expect(CivilDay(year: date.year, month: date.month, day: date.day)?.daysSince1970 == number)
        }
        #expect(try day(2017, 7, 4).description == "2017-07-04")
        #expect(CivilDay(gtfs: "20170715") == (try day(2017, 7, 15)))
        #expect(CivilDay(gtfs: "2017-07-15") == nil)
    }

    @Test func theServiceDayFollowsTheTimetablesClock() throws {
        // 2025-09-22 23:30 in Tokyo is 14:30 UTC; 00:30 on the 23rd is 15:30 UTC on the 22nd.
        let tokyo: Seconds = 32_400
        let evening = try day(2025, 9, 22).midnight(utcOffset: tokyo).adding(23.5 * 3_600)
        #expect(CivilDay(evening, utcOffset: tokyo) == (try day(2025, 9, 22)))
        #expect(CivilDay(evening.adding(3_600), utcOffset: tokyo) == (try day(2025, 9, 23)))
        #expect(CivilDay(evening.adding(3_600), utcOffset: 0) == (try day(2025, 9, 22)))
    }

    @Test func weeklyNamesStandForTheirDays() throws {
        let calendar = ServiceCalendar.weekly(named: ["Weekday", "SaturdayHoliday", "Holiday", "Special"])
        let monday = try day(2025, 9, 22)
        let saturday = monday.adding(5)
        let sunday = monday.adding(6)
        #expect(calendar.runs("Weekday", on: monday) && !calendar.runs("Weekday", on: saturday))
        #expect(!calendar.runs("SaturdayHoliday", on: monday.adding(4)))
        #expect(calendar.runs("SaturdayHoliday", on: saturday) && calendar.runs("SaturdayHoliday", on: sunday))
        #expect(calendar.runs("Holiday", on: sunday) && !calendar.runs("Holiday", on: saturday))
        #expect(calendar.runs("Special", on: monday) && calendar.runs("Unknown", on: sunday), "unknown names run daily")
    }

    @Test func datesAddAndRemoveDaysAndAnExpiredCalendarServesATypicalWeek() throws {
        let start = try day(2017, 7, 15)  // a Saturday
        let end = try day(2017, 9, 30)
        let removedSunday = try day(2017, 7, 23)
        let holiday = try day(2017, 9, 4)  // Labor Day, a Monday
        let calendar = ServiceCalendar(services: [
            "Weekday": ServiceDays(weekdays: .mondayToFriday, dateRange: start...end, removed: [holiday]),
            "Weekend": ServiceDays(
                weekdays: [.saturday, .sunday], dateRange: start...end, added: [holiday], removed: [removedSunday]),
            "Fair": ServiceDays(weekdays: [], dateRange: try day(2017, 8, 5)...day(2017, 8, 5), added: [try day(2017, 8, 5)]),
        ])
        #expect(calendar.runs("Weekday", on: start.adding(2)) && !calendar.runs("Weekend", on: start.adding(2)))
        #expect(!calendar.runs("Weekday", on: holiday) && calendar.runs("Weekend", on: holiday))
        #expect(!calendar.runs("Weekend", on: removedSunday) && calendar.runs("Weekend", on: removedSunday.adding(7)))
        // Outside its dates, each service runs on the weekdays it mostly ran on.
        let monday2025 = try day(2025, 9, 22)
        #expect(calendar.runs("Weekday", on: monday2025) && !calendar.runs("Weekend", on: monday2025))
        #expect(calendar.runs("Weekend", on: monday2025.adding(6)) && !calendar.runs("Weekday", on: monday2025.adding(6)))
        #expect(!calendar.runs("Fair", on: monday2025.adding(5)), "a one-day service is not typical of any week")
        #expect(calendar.dateRange == start...end)
    }
}
