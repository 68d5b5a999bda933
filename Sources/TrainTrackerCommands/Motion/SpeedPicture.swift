import Foundation
import TrainTrackerCore

/// Raw and smoothed speed over time, with the stopped intervals shaded, as SVG.
enum SpeedPicture {
    static func svg(title: String, rows: [SpeedRow]) -> String {
        let (width, height, left, top, bottom) = (1_000.0, 360.0, 56.0, 34.0, 40.0)
        let plotWidth = width - left - 16
        let plotHeight = height - top - bottom
        guard let first = rows.first?.fix.timestamp, let last = rows.last?.fix.timestamp else { return "" }
        let span = max(1, last.seconds(since: first))
        let fastest = rows.map { max($0.fix.speed ?? 0, $0.estimate.speed) }.max() ?? 1
        let ceiling = max(5, (fastest / 5).rounded(.up) * 5)
        func x(_ time: Timestamp) -> Double { left + plotWidth * time.seconds(since: first) / span }
        func y(_ speed: Double) -> Double { top + plotHeight * (1 - min(speed, ceiling) / ceiling) }
        func format(_ value: Double) -> String { String(format: "%.1f", value) }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="20" font-size="14">\(title.xmlEscaped)</text>

            """
        // Stopped intervals.
        var stopStart: Timestamp?
        for (index, row) in rows.enumerated() {
            let time = row.fix.timestamp
            if row.estimate.isStopped, stopStart == nil { stopStart = time }
            if let start = stopStart, !row.estimate.isStopped || index == rows.count - 1 {
                svg += "<rect x=\"\(format(x(start)))\" y=\"\(top)\" width=\"\(format(max(1, x(time) - x(start))))\" "
                svg += "height=\"\(plotHeight)\" fill=\"#f4c7c3\"/>\n"
                stopStart = nil
            }
        }
        // Axes and grid.
        var level = 0.0
        while level <= ceiling {
            svg += "<line x1=\"\(left)\" x2=\"\(left + plotWidth)\" y1=\"\(format(y(level)))\" y2=\"\(format(y(level)))\" "
            svg += "stroke=\"#ddd\"/><text x=\"\(left - 6)\" y=\"\(format(y(level) + 4))\" text-anchor=\"end\">"
            svg += "\(Int(displaying: level))</text>\n"
            level += ceiling <= 10 ? 1 : 5
        }
        svg += "<text x=\"14\" y=\"\(top + plotHeight / 2)\" transform=\"rotate(-90 14 \(top + plotHeight / 2))\" "
        svg += "text-anchor=\"middle\">speed, m/s</text>\n"
        let minutes = Int(displaying: (span / 60).rounded(.down))
        let step = max(1, minutes / 10)
        for minute in stride(from: 0, through: minutes, by: step) {
            let at = left + plotWidth * Double(minute * 60) / span
            svg += "<text x=\"\(format(at))\" y=\"\(height - bottom + 16)\" text-anchor=\"middle\">\(minute) min</text>\n"
        }
        // Raw readings as dots, the smoothed speed as a line.
        for row in rows {
            guard let speed = row.fix.speed else { continue }
            svg += "<circle cx=\"\(format(x(row.fix.timestamp)))\" cy=\"\(format(y(speed)))\" r=\"1.6\" fill=\"#999\"/>\n"
        }
        let points = rows.map { "\(format(x($0.fix.timestamp))),\(format(y($0.estimate.speed)))" }.joined(separator: " ")
        svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#1f6fb2\" stroke-width=\"1.6\"/>\n"
        svg += """
            <g transform="translate(\(Int(width) - 330), 12)"><circle cx="0" cy="4" r="3" fill="#999"/>\
            <text x="8" y="8">reported</text><line x1="80" x2="100" y1="4" y2="4" stroke="#1f6fb2" stroke-width="2"/>\
            <text x="106" y="8">smoothed</text><rect x="180" y="-2" width="14" height="12" fill="#f4c7c3"/>\
            <text x="200" y="8">stopped</text></g>
            </svg>

            """
        return svg
    }
}
