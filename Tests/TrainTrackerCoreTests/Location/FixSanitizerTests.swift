import Testing
import TrainTrackerCore

@Suite struct FixSanitizerTests {
    func row(_ id: String, _ time: String, latitude: Double? = 35.6, longitude: Double? = 139.7, accuracy: Double? = 10) -> RawFix
    {
        RawFix(
            id: id, latitude: latitude, longitude: longitude, timestamp: time, horizontalAccuracy: accuracy, speed: 5, course: 90)
    }

    @Test func cleanFixesPassUnchanged() {
        let (fixes, report) = FixSanitizer.clean([row("a", "2025-09-20 08:00:00"), row("b", "2025-09-20 08:00:01")])
        #expect(fixes.map(\.id) == ["a", "b"])
        #expect(report.isClean)
        #expect(report.summary == "all fixes valid")
    }

    @Test func emptyInputGivesNoFixes() {
        let (fixes, report) = FixSanitizer.clean([])
        #expect(fixes.isEmpty && report.isClean)
    }

    @Test(arguments: [
        (Double.nan, 139.7), (35.6, Double.nan), (91.0, 139.7), (-90.5, 139.7), (35.6, 181.0), (Double.infinity, 0.0),
    ])
    func invalidCoordinatesAreSkippedAndCounted(latitude: Double, longitude: Double) {
        let rows = [row("a", "2025-09-20 08:00:00"), row("b", "2025-09-20 08:00:01", latitude: latitude, longitude: longitude)]
        let (fixes, report) = FixSanitizer.clean(rows)
        #expect(fixes.map(\.id) == ["a"])
        #expect(report.invalidCoordinate == 1)
        #expect(report.summary == "skipped 1 fix (1 invalid coordinate)")
    }

    @Test func missingCoordinatesAreSkipped() {
        let (fixes, report) = FixSanitizer.clean([row("a", "2025-09-20 08:00:00", latitude: nil)])
        #expect(fixes.isEmpty)
        #expect(report.invalidCoordinate == 1)
    }

    @Test func negativeAndNaNAccuracyAreSkipped() {
        let rows = [
            row("a", "2025-09-20 08:00:00", accuracy: -1), row("b", "2025-09-20 08:00:01", accuracy: .nan),
            row("c", "2025-09-20 08:00:02", accuracy: nil),
        ]
        let (fixes, report) = FixSanitizer.clean(rows)
        #expect(fixes.map(\.id) == ["c"])
        #expect(report.invalidAccuracy == 2)
    }

    @Test func unreadableTimestampsAreSkipped() {
        let (fixes, report) = FixSanitizer.clean([row("a", "soon"), row("b", "2025-09-20 08:00:01")])
        #expect(fixes.map(\.id) == ["b"])
        #expect(report.unreadableTimestamp == 1)
    }

    @Test func duplicateIDsKeepTheFirst() {
        let (fixes, report) = FixSanitizer.clean([row("a", "2025-09-20 08:00:00"), row("a", "2025-09-20 08:00:05")])
        #expect(fixes.count == 1)
        #expect(fixes.first?.location.timestamp == Timestamp(parsing: "2025-09-20 08:00:00"))
        #expect(report.duplicateID == 1)
    }

    @Test func outOfOrderFixesAreOrderedAndCounted() {
        let rows = [row("c", "2025-09-20 08:00:02"), row("a", "2025-09-20 08:00:00"), row("b", "2025-09-20 08:00:01")]
        let (fixes, report) = FixSanitizer.clean(rows)
        #expect(fixes.map(\.id) == ["a", "b", "c"])
        #expect(report.reordered == 2)
        #expect(report.skipped == 0)
    }

    @Test func duplicateTimestampsKeepTheFirstStored() {
        let rows = [row("a", "2025-09-20 08:00:00"), row("b", "2025-09-20 08:00:00"), row("c", "2025-09-20 08:00:01")]
        let (fixes, report) = FixSanitizer.clean(rows)
        #expect(fixes.map(\.id) == ["a", "c"])
        #expect(report.duplicateTimestamp == 1)
    }

    @Test func invalidSpeedAndCourseBecomeMissingButTheFixIsKept() throws {
        let raw = RawFix(id: "a", latitude: 35.6, longitude: 139.7, timestamp: "2025-09-20 08:00:00", speed: -1, course: -1)
        let (fixes, report) = FixSanitizer.clean([raw])
        let fix = try #require(fixes.first)
        #expect(fix.location.speed == nil && fix.location.course == nil)
        #expect(report.isClean)
    }

    @Test func summaryNamesEveryReason() {
        let rows = [
            row("a", "2025-09-20 08:00:01"), row("a", "2025-09-20 08:00:02"), row("b", "2025-09-20 08:00:00"),
            row("c", "bad"), row("d", "2025-09-20 08:00:03", latitude: 100),
        ]
        let (_, report) = FixSanitizer.clean(rows)
        #expect(
            report.summary
                == "skipped 3 fixes (1 invalid coordinate, 1 unreadable timestamp, 1 duplicate id); reordered 1 out-of-order fix")
    }
}
