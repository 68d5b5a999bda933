/// Draws a load run as an SVG timeline: the fixes acknowledged each second, stacked by
/// server, and a mark under each second in which attempts failed (a server down), so a
/// killed instance and the other taking over are seen at a glance.
enum LoadTimeline {
    /// The servers' colours, in order: a cyan and greys, far from every phase and story
    /// colour and from the speed green (`docs/colours.md`).
    static let serverColours = ["#17A2B8", "#595959", "#A6A6A6", "#0B5563"]

    static func svg(summary: LoadSummary, servers: [String]) -> String {
        let seconds = max(1, summary.perSecond.count)
        let most = max(1, summary.perSecond.map { $0.reduce(0, +) }.max() ?? 1)
        let (left, top, plotWidth, plotHeight) = (64.0, 40.0, 720.0, 240.0)
        let barWidth = plotWidth / Double(seconds)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(left + plotWidth + 24))" height="\(Int(top + plotHeight + 80 + 16 * Double(servers.count)))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#FFFFFF"/>
            <text x="\(left)" y="22" font-size="14" font-weight="bold">Fixes acknowledged each second, by server</text>

            """
        for step in 0...4 {
            let value = most * step / 4
            let y = top + plotHeight * (1 - Double(value) / Double(most))
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + plotWidth)\" y2=\"\(y)\" stroke=\"#DDDDDD\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\" fill=\"#666666\">\(value)</text>\n"
        }
        for (second, counts) in summary.perSecond.enumerated() {
            var base = top + plotHeight
            for (server, count) in counts.enumerated() where count > 0 {
                let height = plotHeight * Double(count) / Double(most)
                base -= height
                svg +=
                    "<rect x=\"\(left + barWidth * Double(second))\" y=\"\(base)\" width=\"\(max(0.5, barWidth - 0.5))\" "
                    + "height=\"\(height)\" fill=\"\(colour(of: server))\"><title>second \(second): \(count) fixes by server "
                    + "\(server + 1)</title></rect>\n"
            }
            let failed = second < summary.failedPerSecond.count ? summary.failedPerSecond[second] : 0
            if failed > 0 {
                let x = left + barWidth * (Double(second) + 0.5)
                svg +=
                    "<path d=\"M\(x - 4) \(top + plotHeight + 6) l8 8 m0 -8 l-8 8\" stroke=\"#000000\" stroke-width=\"1.5\">"
                    + "<title>second \(second): \(failed) attempts failed and were sent to another server</title></path>\n"
            }
        }
        let axis = top + plotHeight + 30
        svg += "<text x=\"\(left)\" y=\"\(axis)\" fill=\"#333333\">0 s</text>"
        svg += "<text x=\"\(left + plotWidth)\" y=\"\(axis)\" text-anchor=\"end\" fill=\"#333333\">\(seconds) s</text>\n"
        svg +=
            "<text x=\"\(left + plotWidth / 2)\" y=\"\(axis)\" text-anchor=\"middle\" fill=\"#333333\">× attempts failed "
            + "(a server down) and sent on</text>\n"
        for (index, server) in servers.enumerated() {
            let y = axis + 18 + 16 * Double(index)
            svg += "<rect x=\"\(left)\" y=\"\(y - 9)\" width=\"10\" height=\"10\" fill=\"\(colour(of: index))\"/>"
            svg += "<text x=\"\(left + 16)\" y=\"\(y)\">server \(index + 1): \(server.xmlEscaped)</text>\n"
        }
        return svg + "</svg>\n"
    }

    private static func colour(of server: Int) -> String { serverColours[server % serverColours.count] }
}
