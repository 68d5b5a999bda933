import TrainTrackerCore

extension GTFSImporter {
    /// The service calendar from `calendar.txt` (weekly rules between dates) and
    /// `calendar_dates.txt` (days added, type 1, and removed, type 2); either may be missing.
    /// A service only in `calendar_dates.txt` runs on its added days alone.
    ///
    /// - Throws: `ImportError` naming the file, line and field of a bad date, weekday flag or
    ///   exception type.
    static func readCalendar(_ feed: GTFSFeed) throws(ImportError) -> ServiceCalendar {
        var services: [String: ServiceDays] = [:]
        if let table = try feed.table("calendar.txt") {
            let idColumn = try table.requiredColumn("service_id")
            let dayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            let dayColumns = try dayNames.map { name throws(ImportError) in try table.requiredColumn(name) }
            let startColumn = try table.requiredColumn("start_date")
            let endColumn = try table.requiredColumn("end_date")
            for row in table.rows.indices {
                var weekdays = Weekdays()
                for (bit, column) in dayColumns.enumerated() {
                    switch table.text(row, column) {
                    case "1": weekdays.insert(Weekdays(rawValue: 1 << bit))
                    case "0": break
                    default:
                        throw ImportError(
                            file: table.path, location: table.line(row), field: dayNames[bit], problem: "must be 0 or 1")
                    }
                }
                let start = try date(table, row, startColumn)
                let end = try date(table, row, endColumn)
                guard start <= end else {
                    throw ImportError(
                        file: table.path, location: table.line(row), field: "end_date", problem: "before start_date")
                }
                services[try table.requiredText(row, idColumn)] = ServiceDays(weekdays: weekdays, dateRange: start...end)
            }
        }
        if let table = try feed.table("calendar_dates.txt") {
            let idColumn = try table.requiredColumn("service_id")
            let dateColumn = try table.requiredColumn("date")
            let typeColumn = try table.requiredColumn("exception_type")
            for row in table.rows.indices {
                let id = try table.requiredText(row, idColumn)
                let day = try date(table, row, dateColumn)
                var days = services[id] ?? ServiceDays(weekdays: [], dateRange: day...day)
                // A service of calendar_dates.txt alone spans its days.
                if days.weekdays.isEmpty, let range = days.dateRange {
                    days.dateRange = min(range.lowerBound, day)...max(range.upperBound, day)
                }
                switch table.text(row, typeColumn) {
                case "1": days.added.insert(day)
                case "2": days.removed.insert(day)
                default:
                    throw ImportError(
                        file: table.path, location: table.line(row), field: "exception_type", problem: "must be 1 or 2")
                }
                services[id] = days
            }
        }
        return ServiceCalendar(services: services)
    }

    private static func date(_ table: CSVTable, _ row: Int, _ column: Int) throws(ImportError) -> CivilDay {
        let text = try table.requiredText(row, column)
        guard let day = CivilDay(gtfs: text) else {
            throw ImportError(
                file: table.path, location: table.line(row), field: table.header[column], problem: "not a date '\(text)'")
        }
        return day
    }
}
