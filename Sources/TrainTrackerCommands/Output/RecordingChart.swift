import TrainTrackerCore
import TrainTrackerLab

/// Draws `evaluate --recording` as an SVG: per route, bars of the railway, next-stop and
/// train shares of each algorithm; below, the railway share per hour of the day, with how
/// many fixes each hour holds.
enum RecordingChart {
    private static let measures: [(name: String, colour: String, value: @Sendable (AlgorithmScore) -> Double)] = [
        ("railway", "#2E86DE", { $0.railwayAccuracy }), ("next stop", "#F39C12", { $0.nextStopAccuracy }),
        ("train", "#8E44AD", { $0.trainAccuracy }),
    ]

    static func svg(title: String, reports: [RecordingEvaluation.Report]) -> String {
        let routes = ["all"] + Set(reports.flatMap(\.routes.keys)).sorted()
        let bar = 10.0
        // Each route's group is as wide as its bars, or as its name and its count of fixes
        // (about 6.5 px a character at 11 px), so that neighbouring names never overlap.
        let longestLabel = routes.map { max($0.count, "\(fixes(of: $0, in: reports)) fixes".count) }.max() ?? 0
        let groupWidth = max(
            Double(reports.count * measures.count) * (bar + 1) + Double(reports.count) * 4 + 20,
            Double(longestLabel) * Self.characterWidth + 12)
        let (left, top, plot) = (50.0, 50.0, 200.0)
        let hourTop = top + plot + 90
        let width = max(left + groupWidth * Double(routes.count) + 40, left + 24 * 30 + 40, 720)
        let height = hourTop + plot + 70
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
        svg += axis(left: left, top: top, plot: plot, width: width - left - 20)
        for (group, route) in routes.enumerated() {
            var x = left + Double(group) * groupWidth + 10
            for (index, report) in reports.enumerated() {
                guard let summary = route == "all" ? report.all : report.routes[route] else { continue }
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
            let fixes = fixes(of: route, in: reports)
            let middle = left + Double(group) * groupWidth + groupWidth / 2
            svg += "<text x=\"\(middle)\" y=\"\(top + plot + 16)\" text-anchor=\"middle\">\(route.xmlEscaped)</text>"
            svg +=
                "<text x=\"\(middle)\" y=\"\(top + plot + 30)\" text-anchor=\"middle\" fill=\"#666666\">\(fixes) fixes</text>\n"
        }
        svg +=
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
        return svg + "\n</svg>\n"
    }

    /// The width of a character of the 11 px labels, about.
    static let characterWidth = 6.5

    /// The fixes the first report scored on `route`.
    private static func fixes(of route: String, in reports: [RecordingEvaluation.Report]) -> Int {
        reports.first.flatMap { route == "all" ? $0.all : $0.routes[route] }?.score.fixes ?? 0
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
