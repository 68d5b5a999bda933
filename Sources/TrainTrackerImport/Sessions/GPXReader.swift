import Foundation
import TrainTrackerCore

/// Reads GPX 1.1 tracks: `<trk>` → `<trkseg>` → `<trkpt lat lon>` with `<time>`, `<ele>`,
/// and speed, course and accuracy from the common extensions (`<speed>`, `<course>`,
/// `gpxtpx:speed`, `gpxtpx:course`, `<hAcc>`, `<horizontalAccuracy>`), whatever their prefix;
/// and the file's timed waypoints (`<wpt>` with `<time>` and `<name>`, `<desc>` or `<cmt>`), a
/// GPX logger's annotations.
enum GPXReader {
    /// A waypoint with a time and a text: a note a rider made while logging.
    struct Waypoint: Sendable {
        var time: Timestamp
        var text: String
        /// Its place among the file's waypoints, from 1.
        var number: Int
    }

    static func read(data: Data, path: String, utcOffset: Seconds) throws(ImportError) -> [ImportedTrack] {
        try document(data: data, path: path, utcOffset: utcOffset).tracks
    }

    /// The tracks and the timed, named waypoints of a GPX document. A waypoint without a time
    /// or a text (a point of interest, not a note) is passed over.
    static func document(data: Data, path: String, utcOffset: Seconds) throws(ImportError) -> (
        tracks: [ImportedTrack], waypoints: [Waypoint]
    ) {
        // GPX is UTF-8: anything else is refused before it is read.
        if let (line, offset) = InputFile.firstInvalidUTF8(in: data) {
            throw ImportError(file: path, location: "line \(line)", problem: "not UTF-8 text (byte \(offset))")
        }
        var scanner = XMLScanner(Array(data))
        let reader = Reader(path: path, utcOffset: utcOffset)
        do {
            while reader.error == nil, let event = try scanner.next() {
                switch event {
                case .start(let name, let attributes): reader.start(name, attributes: attributes)
                case .text(let text): reader.text += text
                case .end(let name): reader.end(name)
                }
            }
        } catch {
            throw ImportError(file: path, location: "line \(error.line)", problem: "not valid XML: \(error.problem)")
        }
        if let error = reader.error { throw error }
        guard reader.sawGPX else { throw ImportError(file: path, problem: "not a GPX file (no <gpx> element)") }
        // A file cut short ends with elements still open.
        if let open = scanner.openElements.last {
            let local = open.split(separator: ":").last.map(String.init) ?? open
            throw ImportError(
                file: path, location: "line \(scanner.line)", problem: "ends inside <\(local)> (the file is cut short)")
        }
        let tracks = reader.tracks.filter { !$0.locations.isEmpty }
        guard !tracks.isEmpty else { throw ImportError(file: path, problem: "no track points (<trkpt>)") }
        return (tracks, reader.waypoints)
    }

    /// Turns the document's events into tracks; the first problem stops it.
    private final class Reader {
        let path: String
        var tracks: [ImportedTrack] = []
        var waypoints: [Waypoint] = []
        var error: ImportError?
        var sawGPX = false
        private var inTrack = false
        private var point: (latitude: Double, longitude: Double, fields: [String: String])?
        private var pointNumber = 0
        /// The fields of the waypoint being read, and how many have been.
        private var waypoint: [String: String]?
        private var waypointNumber = 0
        var text = ""
        private var depthName: [String] = []

        let utcOffset: Seconds

        init(path: String, utcOffset: Seconds) {
            self.path = path
            self.utcOffset = utcOffset
        }

        private var location: String { "track \(tracks.count), point \(pointNumber)" }

        private func fail(_ error: ImportError) {
            if self.error == nil { self.error = error }
        }

        func start(_ name: String, attributes: [String: String]) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            depthName.append(local)
            text = ""
            switch local {
            case "gpx": sawGPX = true
            case "trk":
                inTrack = true
                pointNumber = 0
                tracks.append(ImportedTrack(file: path, name: nil, locations: []))
            case "trkpt" where inTrack:
                pointNumber += 1
                guard let latitudeText = attributes["lat"], let latitude = Double(latitudeText) else {
                    return fail(
                        ImportError(
                            file: path, location: location, field: "lat", problem: "not a number '\(attributes["lat"] ?? "")'"))
                }
                guard let longitudeText = attributes["lon"], let longitude = Double(longitudeText) else {
                    return fail(
                        ImportError(
                            file: path, location: location, field: "lon", problem: "not a number '\(attributes["lon"] ?? "")'"))
                }
                guard Coordinate(latitude: latitude, longitude: longitude).isValid else {
                    return fail(
                        ImportError(
                            file: path, location: location, field: "lat", problem: "not a position (\(latitude), \(longitude))"))
                }
                point = (latitude, longitude, [:])
            case "wpt" where !inTrack && point == nil:
                waypointNumber += 1
                waypoint = [:]
            default: break
            }
        }

        func end(_ name: String) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            defer {
                depthName.removeLast()
                text = ""
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if var fields = waypoint {
                if local == "wpt" {
                    waypoint = nil
                    finishWaypoint(fields)
                } else if !value.isEmpty, fields[local] == nil {
                    fields[local] = value
                    waypoint = fields
                }
                return
            }
            if var current = point {
                if local == "trkpt" {
                    point = nil
                    finishPoint(current)
                } else if !value.isEmpty {
                    current.fields[local] = value
                    point = current
                }
                return
            }
            if local == "name", inTrack, depthName.dropLast().last == "trk", !tracks.isEmpty {
                tracks[tracks.count - 1].name = value
            }
            if local == "trk" { inTrack = false }
        }

        /// Keeps a waypoint with a time and a text; a time that is not one is an error.
        private func finishWaypoint(_ fields: [String: String]) {
            guard let timeText = fields["time"], let note = fields["name"] ?? fields["desc"] ?? fields["cmt"] else { return }
            guard let time = JourneyFile.timestamp(timeText, utcOffset: utcOffset) else {
                return fail(
                    ImportError(
                        file: path, location: "waypoint \(waypointNumber)", field: "time", problem: "not a time '\(timeText)'"))
            }
            waypoints.append(Waypoint(time: time, text: note, number: waypointNumber))
        }

        private func finishPoint(_ point: (latitude: Double, longitude: Double, fields: [String: String])) {
            guard let timeText = point.fields["time"] else {
                return fail(
                    ImportError(file: path, location: location, field: "time", problem: "missing; a journey needs timestamps"))
            }
            guard let time = JourneyFile.timestamp(timeText, utcOffset: utcOffset) else {
                return fail(
                    ImportError(file: path, location: location, field: "time", problem: "not a time '\(timeText)'"))
            }
            func number(_ names: [String], _ kind: FixMeasure) -> Double?? {
                guard let (name, text) = names.lazy.compactMap({ name in point.fields[name].map { (name, $0) } }).first else {
                    return .some(nil)
                }
                guard let value = Double(text), value.isFinite else {
                    fail(ImportError(file: path, location: location, field: name, problem: "not a number '\(text)'"))
                    return nil
                }
                guard let checked = kind.checked(value) else {
                    fail(
                        ImportError(file: path, location: location, field: name, problem: "not \(kind.expectation) '\(text)'"))
                    return nil
                }
                return checked
            }
            guard let altitude = number(["ele"], .altitude), let speed = number(["speed"], .speed),
                let course = number(["course", "heading"], .course),
                let accuracy = number(["hAcc", "horizontalAccuracy", "accuracy"], .accuracy)
            else { return }
            tracks[tracks.count - 1].locations.append(
                Location(
                    coordinate: Coordinate(latitude: point.latitude, longitude: point.longitude), timestamp: time,
                    horizontalAccuracy: accuracy, speed: speed, course: course, altitude: altitude))
        }
    }
}
