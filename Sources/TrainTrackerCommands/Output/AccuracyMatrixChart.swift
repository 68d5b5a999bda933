import Foundation
import TrainTrackerCore

/// Draws one measure of an evaluation as an SVG heat map: a row per algorithm and scenario,
/// a column per condition, each cell coloured from red (poor) to green (the target met) and
/// labelled with its value.
enum AccuracyMatrixChart {
    private static let cellWidth = 118.0
    private static let cellHeight = 22.0
    private static let labelWidth = 250.0

    static func svg(title: String, measure: EvaluationMeasure, reports: [EvaluationReport]) -> String {
        let conditions = reports.map(\.condition).uniqued()
        let algorithms = reports.map(\.algorithm).uniqued()
        let groups = ["all"] + Set(reports.flatMap { $0.scores.compactMap(\.scenario) }).sorted()
        let top = 70.0
        let width = max(
            labelWidth + cellWidth * Double(conditions.count) + 20, 10 + AccuracyChart.textWidth(title, size: 14) + 20)
        let height = top + cellHeight * Double(algorithms.count * groups.count) + 40
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            <text x="10" y="22" font-size="14" font-weight="bold">\(escaped(title))</text>

            """
        for (column, condition) in conditions.enumerated() {
            let x = labelWidth + cellWidth * (Double(column) + 0.5)
            svg += "<text x=\"\(x)\" y=\"\(top - 8)\" text-anchor=\"middle\" fill=\"#333333\">\(escaped(condition))</text>\n"
        }
        var row = 0
        for algorithm in algorithms {
            for group in groups {
                let y = top + cellHeight * Double(row)
                let weight = group == "all" ? " font-weight=\"bold\"" : ""
                svg += "<text x=\"10\" y=\"\(y + 15)\"\(weight)>\(escaped(algorithm)) · \(escaped(group))</text>\n"
                for (column, condition) in conditions.enumerated() {
                    guard let report = reports.first(where: { $0.algorithm == algorithm && $0.condition == condition })
                    else { continue }
                    let score = report.summary(of: group)
                    guard score.sessions > 0 else { continue }
                    let x = labelWidth + cellWidth * Double(column)
                    let value = measure.value(score)
                    svg +=
                        "<rect x=\"\(x + 1)\" y=\"\(y + 1)\" width=\"\(cellWidth - 2)\" height=\"\(cellHeight - 2)\" "
                        + "fill=\"\(color(value, measure: measure))\"><title>\(escaped(algorithm)) \(escaped(group)) "
                        + "\(escaped(condition)): \(escaped(measure.text(score)))</title></rect>"
                    svg +=
                        "<text x=\"\(x + cellWidth / 2)\" y=\"\(y + 15)\" text-anchor=\"middle\"\(weight)>"
                        + "\(escaped(measure.text(score)))</text>\n"
                }
                row += 1
            }
        }
        svg +=
            "<text x=\"10\" y=\"\(height - 14)\" fill=\"#666666\">green: 99 % or more (30 s or less); "
            + "yellow: 95 %; red: 80 % or less (120 s or more)</text>\n"
        return svg + "</svg>\n"
    }

    /// Red at 80 % (or 120 s, or 3 stations), yellow at 95 %, green from 99 % (or 30 s, or 1
    /// station) on.
    private static func color(_ value: Double?, measure: EvaluationMeasure) -> String {
        guard let value else { return "#EEEEEE" }
        // 0 is as poor as it gets, 1 the target met.
        let goodness: Double
        if measure == .lockTime {
            goodness = min(max((120 - value) / 90, 0), 1)
        } else if measure == .lockStations {
            // Locked by the first stop: the target; three stops later: poor.
            goodness = min(max((3 - value) / 2, 0), 1)
        } else if value >= 0.95 {
            goodness = 0.5 + min((value - 0.95) / 0.04, 1) * 0.5
        } else {
            goodness = max((value - 0.8) / 0.15, 0) * 0.5
        }
        // Hue from 0 (red) to 120 (green), as RGB.
        let red = goodness < 0.5 ? 1 : 2 * (1 - goodness)
        let green = goodness < 0.5 ? 2 * goodness : 1
        let component = { (share: Double) in 155 + Int(displaying: share * 100) }
        return "rgb(\(component(red)),\(component(green)),140)"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
    }
}
