import TrainTrackerCore

/// Draws a replayed session as an SVG picture: a map of the fixes coloured by the answer's
/// phase over the tracks and stations of the railways the tracker named, and a timeline
/// strip of the answer over time.
struct SessionPicture {
    let network: RailwayNetwork
    let formatter: ReplayFormatter

    private static let width = 960.0
    private static let mapHeight = 640.0
    private static let stripHeight = 150.0
    private static let margin = 16.0
    private static let phaseColors = ColourLanguage.phases

    /// The SVG document for `session`, given each fix with the tracker's result.
    func svg(session: SessionHeading, replayed: [ReplayedFix]) -> String {
        let height = Self.mapHeight + Self.stripHeight + 3 * Self.margin + 30
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(Self.width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#FAFAF7"/>
            <text x="\(Self.margin)" y="22" font-size="15" font-weight="bold">\(escape(formatter.sessionHeading(session)))</text>

            """
        guard !replayed.isEmpty else { return svg + "<text x=\"16\" y=\"60\">no fixes</text>\n</svg>\n" }
        let railways = namedRailways(replayed)
        let frame = MapFrame(
            coordinates: replayed.map(\.fix.location.coordinate),
            origin: (Self.margin, 30 + Self.margin), size: (Self.width - 2 * Self.margin, Self.mapHeight))
        svg += map(replayed: replayed, railways: railways, frame: frame)
        svg += strip(replayed: replayed, top: 30 + 2 * Self.margin + Self.mapHeight)
        return svg + "</svg>\n"
    }

    /// The railways that were the best answer at some fix, most frequent first.
    private func namedRailways(_ replayed: [ReplayedFix]) -> [Railway] {
        var counts: [String: Int] = [:]
        for result in replayed.map(\.result) {
            if let id = result.best?.railwayID { counts[id, default: 0] += 1 }
        }
        return counts.sorted { $0.value > $1.value }.compactMap { network.railway(id: $0.key) }
    }

    private func map(replayed: [ReplayedFix], railways: [Railway], frame: MapFrame) -> String {
        var svg = """
            <clipPath id="map"><rect x="\(frame.origin.x)" y="\(frame.origin.y)" width="\(frame.size.width)" \
            height="\(frame.size.height)"/></clipPath>
            <rect x="\(frame.origin.x)" y="\(frame.origin.y)" width="\(frame.size.width)" height="\(frame.size.height)" \
            fill="#FFFFFF" stroke="#CCCCCC"/>
            <g clip-path="url(#map)">

            """
        for railway in railways.reversed() {
            let points = railway.track.polyline.coordinates.map { frame.point($0) }
            let path = points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(format($0.element.x)),\(format($0.element.y))" }
            svg +=
                "<path d=\"\(path.joined(separator: " "))\" fill=\"none\" stroke=\"\(ColourLanguage.drawable(railway.color))\" stroke-width=\"5\" "
                + "stroke-opacity=\"0.45\" stroke-linejoin=\"round\"><title>\(escape(railway.name))</title></path>\n"
        }
        for item in replayed {
            let (fix, result) = (item.fix, item.result)
            let point = frame.point(fix.location.coordinate)
            let color = result.best.map { Self.phaseColors[$0.phase] ?? "#999999" } ?? "#BBBBBB"
            let title = formatter.timelineLine(at: fix.location.timestamp, best: result.best)
            svg +=
                "<circle cx=\"\(format(point.x))\" cy=\"\(format(point.y))\" r=\"2.2\" fill=\"\(color)\">"
                + "<title>\(escape(title))</title></circle>\n"
        }
        for railway in railways {
            for station in network.stations(of: railway) where frame.contains(station.coordinate) {
                let point = frame.point(station.coordinate)
                svg +=
                    "<circle cx=\"\(format(point.x))\" cy=\"\(format(point.y))\" r=\"4\" fill=\"#FFFFFF\" stroke=\"#333333\"/>\n"
                svg +=
                    "<text x=\"\(format(point.x + 6))\" y=\"\(format(point.y - 6))\" fill=\"#333333\">\(escape(station.name))</text>\n"
            }
        }
        svg += "</g>\n"
        // Legend: railways and phases.
        var y = frame.origin.y + 16
        for railway in railways.prefix(6) {
            svg +=
                "<rect x=\"\(frame.origin.x + 10)\" y=\"\(format(y - 8))\" width=\"18\" height=\"6\" fill=\"\(ColourLanguage.drawable(railway.color))\"/>"
            svg += "<text x=\"\(frame.origin.x + 34)\" y=\"\(format(y))\">\(escape(railway.name))</text>\n"
            y += 16
        }
        for phase in FocusPhase.allCases {
            svg +=
                "<circle cx=\"\(frame.origin.x + 19)\" cy=\"\(format(y - 4))\" r=\"4\" fill=\"\(Self.phaseColors[phase] ?? "")\"/>"
            svg += "<text x=\"\(frame.origin.x + 34)\" y=\"\(format(y))\">\(phase.label)</text>\n"
            y += 16
        }
        return svg
    }

    /// The timeline: a band per fix coloured by the answer's railway, phase ticks below, and
    /// the station names where the answer becomes "Now".
    private func strip(replayed: [ReplayedFix], top: Double) -> String {
        let left = Self.margin
        let width = Self.width - 2 * Self.margin
        let start = replayed[0].fix.location.timestamp
        let span = max(1, replayed[replayed.count - 1].fix.location.timestamp.seconds(since: start))
        func x(_ timestamp: Timestamp) -> Double { left + width * timestamp.seconds(since: start) / span }
        var svg = "<text x=\"\(left)\" y=\"\(format(top + 10))\" font-weight=\"bold\">Answer over time</text>\n"
        let bandTop = top + 18
        for (index, item) in replayed.enumerated() {
            let (fix, result) = (item.fix, item.result)
            let x0 = x(fix.location.timestamp)
            let x1 = index + 1 < replayed.count ? x(replayed[index + 1].fix.location.timestamp) : x0 + 1
            let railwayColor = result.best.map { ColourLanguage.drawable(network.railway(id: $0.railwayID)?.color) } ?? "#DDDDDD"
            let phaseColor = result.best.map { Self.phaseColors[$0.phase] ?? "#999999" } ?? "#DDDDDD"
            let w = format(max(x1 - x0, 0.5))
            svg += "<rect x=\"\(format(x0))\" y=\"\(format(bandTop))\" width=\"\(w)\" height=\"24\" fill=\"\(railwayColor)\"/>"
            svg +=
                "<rect x=\"\(format(x0))\" y=\"\(format(bandTop + 28))\" width=\"\(w)\" height=\"10\" fill=\"\(phaseColor)\"/>\n"
        }
        var lastNow: String?
        var labelRow = 0
        for item in replayed {
            let (fix, result) = (item.fix, item.result)
            guard let best = result.best, best.phase == .now else { continue }
            guard best.focusStationID != lastNow else { continue }
            lastNow = best.focusStationID
            let name = network.station(id: best.focusStationID)?.name ?? best.focusStationID
            let labelX = x(fix.location.timestamp)
            let labelY = bandTop + 54 + Double(labelRow % 4) * 13
            labelRow += 1
            svg +=
                "<line x1=\"\(format(labelX))\" y1=\"\(format(bandTop + 38))\" x2=\"\(format(labelX))\" "
                + "y2=\"\(format(labelY - 9))\" stroke=\"#888888\" stroke-width=\"0.5\"/>"
            let anchor = labelX > left + width - 80 ? "end" : "start"
            svg +=
                "<text x=\"\(format(labelX))\" y=\"\(format(labelY))\" font-size=\"9\" text-anchor=\"\(anchor)\">"
                + "\(escape(name))</text>\n"
        }
        let end = replayed[replayed.count - 1].fix.location.timestamp
        svg +=
            "<text x=\"\(left)\" y=\"\(format(bandTop + 118))\" fill=\"#666666\">\(start.timeOfDay(utcOffset: formatter.utcOffset)) \(ReplayFormatter.clockName(formatter.utcOffset))</text>"
        svg +=
            "<text x=\"\(left + width)\" y=\"\(format(bandTop + 118))\" text-anchor=\"end\" fill=\"#666666\">"
            + "\(end.timeOfDay(utcOffset: formatter.utcOffset))</text>\n"
        return svg
    }

    private func format(_ value: Double) -> String {
        let scaled = (value * 10).rounded() / 10
        return scaled == scaled.rounded() ? String(Int(displaying: scaled)) : String(scaled)
    }

    private func escape(_ text: String) -> String { text.xmlEscaped }
}

/// Maps coordinates into a rectangle of the picture, keeping metres square.
private struct MapFrame {
    let origin: (x: Double, y: Double)
    let size: (width: Double, height: Double)
    let projection: LocalProjection
    let scale: Double
    let center: PlanarVector

    init(coordinates: [Coordinate], origin: (x: Double, y: Double), size: (width: Double, height: Double)) {
        self.origin = origin
        self.size = size
        let first = coordinates[0]
        var south = first.latitude
        var north = first.latitude
        var west = first.longitude
        var east = first.longitude
        for coordinate in coordinates {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
            west = min(west, coordinate.longitude)
            east = max(east, coordinate.longitude)
        }
        projection = LocalProjection(origin: Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2))
        let corner = projection.vector(to: Coordinate(latitude: north, longitude: east))
        let padding = 700.0  // metres around the fixes, so nearby stations show
        let halfWidth = max(abs(corner.east), 200) + padding
        let halfHeight = max(abs(corner.north), 200) + padding
        scale = min(size.width / (2 * halfWidth), size.height / (2 * halfHeight))
        center = PlanarVector(east: 0, north: 0)
    }

    func point(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        let vector = projection.vector(to: coordinate) - center
        return (origin.x + size.width / 2 + vector.east * scale, origin.y + size.height / 2 - vector.north * scale)
    }

    func contains(_ coordinate: Coordinate) -> Bool {
        let point = point(coordinate)
        return point.x >= origin.x && point.x <= origin.x + size.width && point.y >= origin.y && point.y <= origin.y + size.height
    }
}
