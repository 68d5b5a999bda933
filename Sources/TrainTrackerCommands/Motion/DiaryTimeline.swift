import Foundation
import TrainTrackerCore

/// Draws each phone's day as two bands on one time axis: the logged vehicle legs (rail or
/// road) above, the diary's legs below, so a missed or misjudged leg is seen at a glance.
enum DiaryTimeline {
    /// Leg colours: rail teal, road ochre, walking pale teal, a stay light; none is a phase
    /// colour, the speed green or a server colour (`docs/colours.md`).
    static let colours: [String: String] = ["rail": "#01665E", "road": "#BF812D", "walking": "#80CDC1", "stay": "#F0F0F0"]

    struct Day {
        var device: Int
        var logged: [LoggedLeg]
        var legs: [DiaryLeg]
        var names: [RailLegName?]
    }

    static func svg(days: [Day], utcOffset: Seconds) -> String {
        // The recorded day sets the axis: a logged leg dated years away is not drawn.
        let times = days.flatMap { $0.legs.flatMap { [$0.start, $0.end] } }
        guard let first = times.min(), let last = times.max() else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
        let (left, top, width, rowHeight) = (80.0, 56.0, 900.0, 54.0)
        let span = max(1, last.seconds(since: first))
        func x(_ time: Timestamp) -> Double { left + width * time.seconds(since: first) / span }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(left + width + 24))" height="\(Int(top + rowHeight * Double(days.count) + 60))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            <text x="\(left)" y="22" font-size="14" font-weight="bold">Travel diary against the manual log, phone by phone</text>
            <text x="\(left)" y="40" fill="#333333">upper band: logged vehicle legs; lower band: the diary's legs (hover for times and lines)</text>

            """
        let hour: Seconds = 3_600
        var tick = ((first.secondsSince1970 + utcOffset) / hour).rounded(.up) * hour - utcOffset
        while tick <= last.secondsSince1970 {
            let time = Timestamp(secondsSince1970: tick)
            svg +=
                "<line x1=\"\(x(time))\" y1=\"\(top - 6)\" x2=\"\(x(time))\" y2=\"\(top + rowHeight * Double(days.count))\" stroke=\"#E5E5E5\"/>"
            svg +=
                "<text x=\"\(x(time))\" y=\"\(top + rowHeight * Double(days.count) + 16)\" text-anchor=\"middle\" fill=\"#666666\">"
            svg += "\(time.timeOfDay(utcOffset: utcOffset).prefix(5))</text>\n"
            tick += hour
        }
        for (row, day) in days.enumerated() {
            let y = top + rowHeight * Double(row)
            svg += "<text x=\"\(left - 8)\" y=\"\(y + 26)\" text-anchor=\"end\">phone \(day.device)</text>\n"
            for leg in day.logged where leg.end >= first && leg.start <= last {
                let kind = leg.kind.rawValue
                let title =
                    "logged \(leg.label): \(leg.start.timeOfDay(utcOffset: utcOffset))–\(leg.end.timeOfDay(utcOffset: utcOffset))"
                    + [leg.from, leg.to].compactMap { $0 }.joined(separator: " → ").prefixedIfNotEmpty(", ")
                svg += bar(x(leg.start), y + 4, x(leg.end), 18, colours[kind] ?? "#000000", title)
            }
            for (leg, name) in zip(day.legs, day.names) {
                let kind = leg.mode == .vehicle ? "road" : leg.mode.rawValue
                let title =
                    "\(leg.mode.rawValue): \(leg.start.timeOfDay(utcOffset: utcOffset))–\(leg.end.timeOfDay(utcOffset: utcOffset))"
                    + (name.map { ", " + $0.description } ?? "")
                svg += bar(x(leg.start), y + 26, x(leg.end), 18, colours[kind] ?? "#000000", title)
            }
        }
        let legendY = top + rowHeight * Double(days.count) + 40
        for (index, kind) in ["rail", "road", "walking", "stay"].enumerated() {
            let legendX = left + 120 * Double(index)
            svg +=
                "<rect x=\"\(legendX)\" y=\"\(legendY - 9)\" width=\"10\" height=\"10\" fill=\"\(colours[kind] ?? "")\" stroke=\"#BBBBBB\"/>"
            svg += "<text x=\"\(legendX + 16)\" y=\"\(legendY)\">\(kind == "road" ? "road vehicle" : kind)</text>\n"
        }
        return svg + "</svg>\n"
    }

    private static func bar(_ from: Double, _ y: Double, _ to: Double, _ height: Double, _ colour: String, _ title: String)
        -> String
    {
        "<rect x=\"\(from)\" y=\"\(y)\" width=\"\(max(1, to - from))\" height=\"\(height)\" fill=\"\(colour)\" stroke=\"#FFFFFF\" "
            + "stroke-width=\"0.5\"><title>\(title.xmlEscaped)</title></rect>\n"
    }
}

extension String {
    fileprivate func prefixedIfNotEmpty(_ prefix: String) -> String { isEmpty ? "" : prefix + self }
}
