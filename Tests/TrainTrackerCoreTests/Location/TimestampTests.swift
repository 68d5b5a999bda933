import Testing
import TrainTrackerCore

@Suite struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01 00:00:00.000", 0.0),
        ("2025-09-20 08:00:00.000", 1_758_355_200.0),
        ("2025-09-20T08:00:00Z", 1_758_355_200.0),
        ("2025-09-20T17:00:00+09:00", 1_758_355_200.0),
        ("2025-09-20T03:30:00-04:30", 1_758_355_200.0),
        ("2025-09-20 08:00:00.250", 1_758_355_200.25),
        ("2024-02-29T12:00:00Z", 1_709_208_000.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parsesEkiAndISO8601Forms(text: String, seconds: Double) throws {
        let timestamp = try #require(Timestamp(parsing: text))
        #expect(abs(timestamp.secondsSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: [
        "", "yesterday", "2025-13-01 00:00:00", "2025-02-30 00:00:00", "2025-09-20", "2025-09-20 25:00:00",
        "2025-09-20T08:00:00Q", "2025-09-20T08:00:00.Z", "2025-09-20 08:00:00 trailing",
    ])
    func rejectsTextThatIsNotATime(text: String) {
        #expect(Timestamp(parsing: text) == nil)
    }

    @Test func formatsRoundTrip() throws {
        let timestamp = Timestamp(secondsSince1970: 1_758_355_925.125)
        #expect(timestamp.iso8601 == "2025-09-20T08:12:05.125Z")
        #expect(timestamp.ekiText == "2025-09-20 08:12:05.125")
        #expect(timestamp.timeOfDay(utcOffset: 9 * 3600) == "17:12:05")
        let parsed = try #require(Timestamp(parsing: timestamp.ekiText))
        #expect(abs(parsed.secondsSince1970 - timestamp.secondsSince1970) < 1e-6)
    }
}
