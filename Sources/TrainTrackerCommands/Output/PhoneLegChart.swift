import TrainTrackerCore
import TrainTrackerLab

/// Draws the metro and train legs of a manual log as an SVG: a row per leg, a mark per fix
/// along the time since the logged departure, coloured by what the answer named (the line and
/// its direction, the line the wrong way, another line, nothing); fixes before the warm-up
/// faint. Hovering a mark shows the answer.
enum PhoneLegChart {
    /// A leg to draw: its label and how each fix went.
    struct Leg {
        var label: String
        var verdicts: [PhoneFixVerdict]
    }

    private static let outcomes: [(outcome: PhoneFixVerdict.Outcome, name: String, colour: String)] = [
        (.right, "line and direction", "#27AE60"), (.wrongDirection, "line, wrong direction", "#F39C12"),
        (.wrongLine, "another line", "#C0392B"), (.none, "no answer", "#AAAAAA"),
    ]
    /// The time axis runs from a minute before departure to this long after it.
    private static let longest: Seconds = 30 * 60
    private static let pixelsPerSecond = 0.5

    static func svg(title: String, legs: [Leg]) -> String {
        let (left, top, rowHeight) = (400.0, 60.0, 14.0)
        let start = -PhoneRailLegs.lead
        let width = left + (longest - start) * pixelsPerSecond + 30
        let height = top + Double(legs.count) * rowHeight + 40
        func x(_ seconds: Seconds) -> Double { left + (min(seconds, longest) - start) * pixelsPerSecond }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="10">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            <text x="10" y="20" font-size="14" font-weight="bold">\(title.xmlEscaped)</text>

            """
        var legendX = 10.0
        for entry in outcomes {
            svg += "<circle cx=\"\(legendX + 5)\" cy=\"36\" r=\"4\" fill=\"\(entry.colour)\"/>"
            svg += "<text x=\"\(legendX + 13)\" y=\"40\">\(entry.name)</text>\n"
            legendX += 30 + Double(entry.name.count) * 5.5
        }
        svg +=
            "<text x=\"\(legendX + 10)\" y=\"40\" fill=\"#666666\">faint: the first \(Int(PhoneRailLegs.warmUp)) s, not scored</text>\n"
        for minute in stride(from: 0, through: Int(longest / 60), by: 5) {
            let position = x(Double(minute) * 60)
            svg +=
                "<line x1=\"\(position)\" y1=\"\(top - 6)\" x2=\"\(position)\" y2=\"\(height - 30)\" stroke=\"#DDDDDD\"/>"
                + "<text x=\"\(position)\" y=\"\(height - 16)\" text-anchor=\"middle\" fill=\"#666666\">\(minute) min</text>\n"
        }
        svg +=
            "<line x1=\"\(x(PhoneRailLegs.warmUp))\" y1=\"\(top - 6)\" x2=\"\(x(PhoneRailLegs.warmUp))\" y2=\"\(height - 30)\" "
            + "stroke=\"#999999\" stroke-dasharray=\"3 3\"/>\n"
        for (row, leg) in legs.enumerated() {
            let y = top + Double(row) * rowHeight + rowHeight / 2
            svg += "<text x=\"\(left - 8)\" y=\"\(y + 3)\" text-anchor=\"end\">\(leg.label.xmlEscaped)</text>"
            for verdict in leg.verdicts {
                let colour = outcomes.first { $0.outcome == verdict.outcome }?.colour ?? "#AAAAAA"
                let elapsed = abs(verdict.secondsFromDeparture)
                let sign = verdict.secondsFromDeparture < 0 ? "−" : ""
                let minutes = Int(displaying: (elapsed / 60).rounded(.down))
                let seconds = Int(displaying: elapsed.truncatingRemainder(dividingBy: 60))
                svg +=
                    "<circle cx=\"\(x(verdict.secondsFromDeparture))\" cy=\"\(y)\" r=\"3.5\" fill=\"\(colour)\" "
                    + "fill-opacity=\"\(verdict.scored ? 1 : 0.3)\"><title>\(sign)\(minutes) min \(seconds) s: "
                    + "\((verdict.named ?? "no answer").xmlEscaped)</title></circle>"
            }
            svg += "\n"
        }
        return svg + "</svg>\n"
    }
}
