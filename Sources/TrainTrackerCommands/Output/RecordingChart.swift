import TrainTrackerCore
import TrainTrackerLab

/// Draws `evaluate --recording` as an SVG: per route and per service day, bars of the
/// railway, next-stop and train shares of each algorithm; below, the railway share per hour
/// of the day, with how many fixes each hour holds; last, the arrival times: the share
/// within a minute by whole minutes before the true arrival, and the Transit ETA Accuracy
/// Benchmark's buckets.
enum RecordingChart {
    private static let measures: [(name: String, colour: String, value: @Sendable (AlgorithmScore) -> Double)] = [
        ("railway", "#2E86DE", { $0.railwayAccuracy }), ("next stop", "#F39C12", { $0.nextStopAccuracy }),
        ("train", "#8E44AD", { $0.trainAccuracy }),
    ]

    static func svg(title: String, reports: [RecordingEvaluation.Report]) -> String {
        let days = Set(reports.flatMap(\.days.keys)).sorted()
        let routes = ["all"] + Set(reports.flatMap(\.routes.keys)).sorted()
        let dayGroups = days.count > 1 ? days.map { Self.dayPrefix + $0 } : []
        let groupWidth = Self.groupWidth(of: routes + dayGroups, reports: reports)
        let (left, top, plot) = (50.0, 50.0, 200.0)
        let dayTop = top + plot + (dayGroups.isEmpty ? 0 : 110)
        let hourTop = dayTop + plot + 90
        let arrivalTop = hourTop + plot + 100
        let widest = Double(max(routes.count, dayGroups.count))
        // The legend's entries side by side (as drawn below) fit too.
        let legendWidth = reports.reduce(10.0) { sum, report in
            sum + measures.reduce(0.0) { $0 + 24 + Double(report.algorithm.count + $1.name.count) * Self.characterWidth }
        }
        let width = max(left + groupWidth * widest + 40, left + 24 * 30 + 40, 720, legendWidth + 10)
        let height = arrivalTop + plot + 70
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            <text x="10" y="22" font-size="14" font-weight="bold">\(title.xmlEscaped)</text>

            """
        var legendX = 10.0
        for (index, report) in reports.enumerated() {
            for measure in measures {
                svg +=
                    "<rect x=\"\(legendX)\" y=\"30\" width=\"10\" height=\"10\" fill=\"\(measure.colour)\" "
                    + "fill-opacity=\"\(index == 0 ? 1 : 0.45)\"/>"
                svg += "<text x=\"\(legendX + 14)\" y=\"39\">\(report.algorithm.xmlEscaped) \(measure.name)</text>\n"
                legendX += 24 + Double(report.algorithm.count + measure.name.count) * Self.characterWidth
            }
        }
        svg += bars(routes, reports: reports, left: left, top: top, plot: plot, groupWidth: groupWidth)
        if !dayGroups.isEmpty {
            svg +=
                "<text x=\"10\" y=\"\(dayTop - 14)\" font-weight=\"bold\">Per service day (each scored "
                + "with what was fitted on the others, where an algorithm is fitted)</text>\n"
            svg += bars(dayGroups, reports: reports, left: left, top: dayTop, plot: plot, groupWidth: groupWidth)
        }
        svg += hours(reports, left: left, top: hourTop, plot: plot)
        svg += arrivals(reports, left: left, top: arrivalTop, plot: plot)
        return svg + "\n</svg>\n"
    }

    /// The hours panel: the railway share per hour of the day, with the fixes each holds.
    private static func hours(_ reports: [RecordingEvaluation.Report], left: Double, top hourTop: Double, plot: Double)
        -> String
    {
        var svg =
            "<text x=\"10\" y=\"\(hourTop - 14)\" font-weight=\"bold\">Railway right per hour of the day "
            + "(timetable's clock); numbers: fixes scored</text>\n"
        svg += axis(left: left, top: hourTop, plot: plot, width: 24 * 30)
        for (index, report) in reports.enumerated() {
            for hour in 0..<24 {
                guard let tally = report.hours[hour], tally.fixes > 0 else { continue }
                let share = Double(tally.railway) / Double(tally.fixes)
                let x = left + Double(hour) * 30 + 3 + Double(index) * (24 / Double(reports.count))
                let w = 24 / Double(reports.count) - 1
                svg +=
                    "<rect x=\"\(x)\" y=\"\(hourTop + plot * (1 - share))\" width=\"\(w)\" height=\"\(plot * share)\" "
                    + "fill=\"#2E86DE\" fill-opacity=\"\(index == 0 ? 1 : 0.45)\"><title>\(report.algorithm.xmlEscaped) "
                    + "\(hour):00 · \(percent(share)) of \(tally.fixes)</title></rect>\n"
                if index == 0 {
                    svg +=
                        "<text x=\"\(left + Double(hour) * 30 + 15)\" y=\"\(hourTop + plot + 28)\" text-anchor=\"middle\" "
                        + "fill=\"#666666\" font-size=\"9\">\(tally.fixes)</text>"
                }
            }
        }
        for hour in stride(from: 0, to: 24, by: 2) {
            svg +=
                "<text x=\"\(left + Double(hour) * 30 + 15)\" y=\"\(hourTop + plot + 14)\" text-anchor=\"middle\">"
                + "\(String(format: "%02d", hour))</text>"
        }
        return svg
    }

    /// The longest line of a group's name (wrapped at `labelCharacters`) or of its count of
    /// fixes, or its bars, whichever is wider: neighbouring names never overlap.
    private static func groupWidth(of groups: [String], reports: [RecordingEvaluation.Report]) -> Double {
        let longestLabel =
            groups.map { group in
                max(wrapped(group).map(\.count).max() ?? 0, "\(fixes(of: group, in: reports)) fixes".count)
            }.max() ?? 0
        return max(
            Double(reports.count * measures.count) * (bar + 1) + Double(reports.count) * 4 + 20,
            Double(longestLabel) * Self.characterWidth + 12)
    }

    /// A group's name as lines of at most `labelCharacters` (a longer word alone on its line).
    static func wrapped(_ name: String) -> [String] {
        var lines: [String] = []
        for word in name.split(separator: " ") {
            if let last = lines.last, last.count + 1 + word.count <= labelCharacters {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(String(word))
            }
        }
        return lines.isEmpty ? [name] : lines
    }

    /// The most characters on a line of a group's name.
    static let labelCharacters = 18

    /// One bar panel: per group, each algorithm's railway, next-stop and train shares.
    private static func bars(
        _ groups: [String], reports: [RecordingEvaluation.Report], left: Double, top: Double, plot: Double,
        groupWidth: Double
    ) -> String {
        var svg = axis(left: left, top: top, plot: plot, width: groupWidth * Double(groups.count) + 20)
        for (group, route) in groups.enumerated() {
            var x = left + Double(group) * groupWidth + 10
            for (index, report) in reports.enumerated() {
                guard let summary = summary(of: route, in: report) else { continue }
                for measure in measures {
                    let value = measure.value(summary.score)
                    let height = plot * value
                    svg +=
                        "<rect x=\"\(x)\" y=\"\(top + plot - height)\" width=\"\(bar)\" height=\"\(height)\" "
                        + "fill=\"\(measure.colour)\" fill-opacity=\"\(index == 0 ? 1 : 0.45)\">"
                        + "<title>\(report.algorithm.xmlEscaped) · \(route.xmlEscaped) · \(measure.name): \(percent(value))</title></rect>\n"
                    x += bar + 1
                }
                x += 4
            }
            let middle = left + Double(group) * groupWidth + groupWidth / 2
            let lines = wrapped(route)
            for (number, line) in lines.enumerated() {
                svg +=
                    "<text x=\"\(middle)\" y=\"\(top + plot + 16 + Double(number) * 13)\" text-anchor=\"middle\">"
                    + "\(line.xmlEscaped)</text>"
            }
            svg +=
                "<text x=\"\(middle)\" y=\"\(top + plot + 30 + Double(lines.count - 1) * 13)\" text-anchor=\"middle\" "
                + "fill=\"#666666\">\(fixes(of: route, in: reports)) fixes</text>\n"
        }
        return svg
    }

    /// How a service day's group is named.
    private static let dayPrefix = "day "

    /// The summary of group `route` (a route, "all", or a day after `dayPrefix`).
    private static func summary(of route: String, in report: RecordingEvaluation.Report) -> RecordingEvaluation.Summary? {
        if route == "all" { return report.all }
        if route.hasPrefix(dayPrefix), let day = report.days[String(route.dropFirst(dayPrefix.count))] { return day }
        return report.routes[route]
    }

    /// The arrival panel: per algorithm, the share within a minute by minutes ahead (left)
    /// and the share right in each of the benchmark's buckets (right).
    private static func arrivals(_ reports: [RecordingEvaluation.Report], left: Double, top: Double, plot: Double) -> String {
        var svg =
            "<text x=\"10\" y=\"\(top - 14)\" font-weight=\"bold\">Arrival times: within a minute, by minutes "
            + "before the true arrival; right, the Transit ETA Accuracy Benchmark's buckets</text>\n"
        let rows = Array(Set(reports.flatMap { $0.arrivals.map(\.minutesAhead) })).sorted()
        let buckets = reports.first?.benchmark.buckets.map(\.label) ?? []
        let slot = 24 / Double(max(reports.count, 1))
        let groups = rows.map { ($0, false) } + buckets.map { ($0, true) }
        svg += axis(left: left, top: top, plot: plot, width: Double(groups.count) * 60 + 20)
        for (group, (label, isBucket)) in groups.enumerated() {
            let x0 = left + Double(group) * 60 + (isBucket ? 20 : 0)
            for (index, report) in reports.enumerated() {
                let share: Double?
                let count: Int
                if !isBucket, let row = report.arrivals.first(where: { $0.minutesAhead == label }) {
                    (share, count) = (row.withinMinute, row.fixes)
                } else if isBucket, let bucket = report.benchmark.buckets.first(where: { $0.label == label }) {
                    (share, count) = (bucket.share, bucket.predictions)
                } else {
                    continue
                }
                guard let share else { continue }
                let x = x0 + 8 + Double(index) * (slot * 1.8)
                svg +=
                    "<rect x=\"\(x)\" y=\"\(top + plot * (1 - share))\" width=\"\(slot * 1.8 - 1)\" "
                    + "height=\"\(plot * share)\" fill=\"\(isBucket ? "#16A085" : "#27AE60")\" "
                    + "fill-opacity=\"\(index == 0 ? 1 : 0.45)\"><title>\(report.algorithm.xmlEscaped) · \(label.xmlEscaped)"
                    + "\(isBucket ? "" : " min"): \(percent(share)) of \(count)</title></rect>\n"
            }
            let middle = x0 + 30
            svg +=
                "<text x=\"\(middle)\" y=\"\(top + plot + 14)\" text-anchor=\"middle\">\(label.xmlEscaped)"
                + "\(isBucket ? "" : " min")</text>\n"
        }
        let names = reports.enumerated().map { "\($0.element.algorithm.xmlEscaped)\($0.offset == 0 ? " (solid)" : " (pale)")" }
        svg +=
            "<text x=\"\(left)\" y=\"\(top + plot + 32)\" fill=\"#666666\">bars left to right: "
            + "\(names.joined(separator: ", "))</text>\n"
        return svg
    }

    /// The width of a measure's bar, in px.
    private static let bar = 10.0

    /// The width of a character of the 11 px labels, about.
    static let characterWidth = 6.5

    /// The fixes the first report scored on `route`.
    private static func fixes(of route: String, in reports: [RecordingEvaluation.Report]) -> Int {
        reports.first.flatMap { summary(of: route, in: $0) }?.score.fixes ?? 0
    }

    /// The 0–100 % scale with grid lines every 20 %.
    private static func axis(left: Double, top: Double, plot: Double, width: Double) -> String {
        var svg = ""
        for step in 0...5 {
            let y = top + plot - plot * Double(step) / 5
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + width)\" y2=\"\(y)\" stroke=\"#DDDDDD\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\" fill=\"#666666\">\(step * 20) %</text>\n"
        }
        return svg
    }
}
