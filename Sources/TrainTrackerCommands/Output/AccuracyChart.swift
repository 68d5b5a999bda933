import TrainTrackerCore
import TrainTrackerLab

/// Draws an evaluation as an SVG bar chart: per scenario, the railway, focus and next-stop
/// accuracy of each algorithm.
enum AccuracyChart {
    private enum Measure: CaseIterable {
        case railway, focus, nextStop

        var name: String {
            switch self {
            case .railway: "railway"
            case .focus: "focus"
            case .nextStop: "next stop"
            }
        }

        var color: String {
            switch self {
            case .railway: "#2E86DE"
            case .focus: "#27AE60"
            case .nextStop: "#F39C12"
            }
        }

        func value(_ score: AlgorithmScore) -> Double {
            switch self {
            case .railway: score.railwayAccuracy
            case .focus: score.focusAccuracy
            case .nextStop: score.nextStopAccuracy
            }
        }
    }

    private static let measures = Measure.allCases

    static func svg(title: String, reports: [(algorithm: String, scores: [CaseScore])]) -> String {
        let groups = ["all"] + Set(reports.flatMap { $0.scores.compactMap(\.scenario) }).sorted()
        let barWidth = 9.0
        let gap = 3.0
        let groupWidth = Double(reports.count * measures.count) * (barWidth + 1) + Double(reports.count) * gap + 24
        let left = 48.0
        let top = 40.0
        let plotHeight = 220.0
        let legendNote = "algorithms, left to right: \(reports.map(\.algorithm).joined(separator: ", "))"
        let legendWidth = 90 * Double(measures.count) + 10 + textWidth(legendNote, size: 11)
        // Wide enough for the bars, the title and the legend, whichever is widest.
        let width = max(
            left + groupWidth * Double(groups.count) + 90, left + textWidth(title, size: 14) + 20, left + legendWidth + 20)
        let height = top + plotHeight + 110
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            <text x="\(left)" y="22" font-size="14" font-weight="bold">\(title.xmlEscaped)</text>

            """
        for percent in stride(from: 0, through: 100, by: 20) {
            let y = top + plotHeight * (1 - Double(percent) / 100)
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(width - 10)\" y2=\"\(y)\" stroke=\"#DDDDDD\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\" fill=\"#666666\">\(percent) %</text>\n"
        }
        for (groupIndex, group) in groups.enumerated() {
            var x = left + groupWidth * Double(groupIndex) + 12
            for (algorithmIndex, report) in reports.enumerated() {
                let scores = group == "all" ? report.scores : report.scores.filter { $0.scenario == group }
                let summary = AlgorithmScore(algorithm: report.algorithm, scores: scores)
                for measure in measures {
                    let value = measure.value(summary)
                    let barHeight = plotHeight * value
                    let opacity = algorithmIndex == 0 ? "1" : "0.55"
                    svg +=
                        "<rect x=\"\(x)\" y=\"\(top + plotHeight - barHeight)\" width=\"\(barWidth)\" height=\"\(barHeight)\" "
                        + "fill=\"\(measure.color)\" fill-opacity=\"\(opacity)\"><title>\(report.algorithm) \(group.xmlEscaped) \(measure.name): "
                        + "\(percentText(value))</title></rect>\n"
                    x += barWidth + 1
                }
                x += gap
            }
            let labelX = left + groupWidth * Double(groupIndex) + groupWidth / 2
            svg +=
                "<text transform=\"translate(\(labelX),\(top + plotHeight + 12)) rotate(35)\" fill=\"#333333\">\(group.xmlEscaped)</text>\n"
        }
        var legendX = left
        for measure in measures {
            svg += "<rect x=\"\(legendX)\" y=\"\(height - 18)\" width=\"10\" height=\"10\" fill=\"\(measure.color)\"/>"
            svg += "<text x=\"\(legendX + 14)\" y=\"\(height - 9)\">\(measure.name)</text>\n"
            legendX += 90
        }
        svg += "<text x=\"\(legendX + 10)\" y=\"\(height - 9)\" fill=\"#666666\">\(legendNote.xmlEscaped)</text>\n"
        return svg + "</svg>\n"
    }

    /// About how wide `text` is in pixels in a sans-serif font of `size` pixels (its average
    /// letter is some 0.6 of the size wide): enough room for it, not a measure.
    static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.6
    }

    private static func percentText(_ share: Double) -> String {
        let tenths = Int(displaying: share * 1000)
        return "\(tenths / 10).\(tenths % 10) %"
    }
}
