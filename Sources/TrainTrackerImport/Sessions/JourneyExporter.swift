import Foundation
import TrainTrackerCore

/// Writes a session with its tracking results as GPX 1.1 or GeoJSON, so results open in
/// any map tool: every fix with the answer after it, and each railway the tracker named
/// as a line along its track between the first and last fix it was named for.
public struct JourneyExporter: Sendable {
    /// The network the results refer to.
    public let network: RailwayNetwork

    /// An exporter over `network`.
    public init(network: RailwayNetwork) { self.network = network }

    /// The stretch of each named railway's track the session covered, most named first.
    func matchedLines(_ replayed: [ReplayedFix]) -> [(railway: Railway, coordinates: [Coordinate])] {
        var spans: [String: (count: Int, first: Coordinate, last: Coordinate)] = [:]
        for item in replayed {
            guard let id = item.result.best?.railwayID else { continue }
            let here = item.fix.location.coordinate
            let span = spans[id]
            spans[id] = ((span?.count ?? 0) + 1, span?.first ?? here, here)
        }
        return spans.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.compactMap { id, span in
            guard let railway = network.railway(id: id),
                let start = railway.track.polyline.projection(of: span.first)?.alongTrack,
                let end = railway.track.polyline.projection(of: span.last)?.alongTrack
            else { return nil }
            return (railway, railway.track.polyline.slice(from: start, to: end))
        }
    }

    private func stationName(_ id: String?) -> String? { id.map { network.station(id: $0)?.name ?? $0 } }

    // MARK: GPX

    /// The GPX 1.1 document: a track of the fixes (speed, course, accuracy and the answer in
    /// `tt:` extensions, the answer also as `<desc>`), and a route (`<rte>`, untimed) along
    /// each named railway.
    public func gpx(session: String, replayed: [ReplayedFix]) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="TrainTracker" xmlns="http://www.topografix.com/GPX/1/1" xmlns:tt="urn:traintracker:gpx:1">
            <metadata><name>\(escape(session))</name>\(replayed.first.map { "<time>\($0.fix.location.timestamp.iso8601)</time>" } ?? "")</metadata>
            <trk><name>\(escape(session))</name><type>journey</type><trkseg>

            """
        for item in replayed {
            let location = item.fix.location
            xml += "<trkpt lat=\"\(location.coordinate.latitude)\" lon=\"\(location.coordinate.longitude)\">"
            if let altitude = location.altitude { xml += "<ele>\(altitude)</ele>" }
            xml += "<time>\(location.timestamp.iso8601)</time>"
            if let best = item.result.best {
                xml += "<desc>\(escape("\(best.phase.label): \(stationName(best.focusStationID) ?? "")"))</desc>"
            }
            xml += "<extensions><tt:id>\(escape(item.fix.id))</tt:id>"
            if let speed = location.speed { xml += "<tt:speed>\(speed)</tt:speed>" }
            if let course = location.course { xml += "<tt:course>\(course)</tt:course>" }
            if let accuracy = location.horizontalAccuracy { xml += "<tt:hAcc>\(accuracy)</tt:hAcc>" }
            if let best = item.result.best {
                xml +=
                    "<tt:railway>\(escape(best.railwayID))</tt:railway><tt:direction>\(escape(best.directionName))</tt:direction>"
                xml += "<tt:station>\(escape(best.focusStationID))</tt:station><tt:phase>\(best.phase.rawValue)</tt:phase>"
            }
            xml += "</extensions></trkpt>\n"
        }
        xml += "</trkseg></trk>\n"
        for (railway, coordinates) in matchedLines(replayed) {
            xml += "<rte><name>\(escape(railway.name))</name><type>railway</type>"
            xml +=
                "<extensions><tt:railway>\(escape(railway.id))</tt:railway><tt:color>\(escape(railway.color))</tt:color></extensions>\n"
            for coordinate in coordinates {
                xml += "<rtept lat=\"\(coordinate.latitude)\" lon=\"\(coordinate.longitude)\"/>\n"
            }
            xml += "</rte>\n"
        }
        return xml + "</gpx>\n"
    }

    private func escape(_ text: String) -> String { text.xmlEscaped }

    // MARK: GeoJSON

    /// The GeoJSON FeatureCollection: a Point per fix with the answer as properties, and a
    /// LineString per named railway.
    public func geoJSON(session: String, replayed: [ReplayedFix]) throws -> Data {
        var collection = GeoJSONWriter()
        for item in replayed {
            let location = item.fix.location
            var properties = JSONObjectWriter()
            properties.string("session", session)
            properties.string("locationID", item.fix.id)
            properties.string("timestamp", location.timestamp.iso8601)
            // What the phone did not measure is left out.
            if let speed = location.speed { properties.number("speed", speed) }
            if let course = location.course { properties.number("course", course) }
            if let accuracy = location.horizontalAccuracy { properties.number("accuracy", accuracy) }
            if let altitude = location.altitude { properties.number("altitude", altitude) }
            let best = item.result.best
            properties.string("railway", best?.railwayID)
            properties.string("direction", best?.directionName)
            properties.string("station", best?.focusStationID)
            properties.string("phase", best?.phase.rawValue)
            properties.string("label", best.map { "\($0.phase.label): \(stationName($0.focusStationID) ?? "")" })
            collection.point(location.coordinate, properties: properties)
        }
        for (railway, coordinates) in matchedLines(replayed) {
            var properties = JSONObjectWriter()
            properties.string("railway", railway.id)
            properties.string("name", railway.name)
            properties.string("stroke", railway.color)
            properties.string("kind", "matched railway")
            collection.lineString(coordinates, properties: properties)
        }
        return Data(collection.finish().utf8)
    }
}
