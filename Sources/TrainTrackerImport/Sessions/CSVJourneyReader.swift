import Foundation
import TrainTrackerCore

/// Reads a journey from CSV with a header row. Columns are matched loosely (case, spaces,
/// underscores and units in brackets do not matter): latitude, longitude and timestamp are
/// required; accuracy, speed, course and altitude are optional. A device, session, track
/// or user column splits the file into one journey per value. An activity column (Android's
/// `STILL`, `WALKING`, `IN_VEHICLE`..., or Core Motion's names) with its confidence gives
/// activity-recognition samples.
enum CSVJourneyReader {
    /// Accepted names of each column, normalised (lower case, letters and digits only).
    static let aliases: [(field: String, names: [String])] = [
        ("latitude", ["latitude", "lat", "latdeg", "y"]),
        ("longitude", ["longitude", "lon", "lng", "long", "londeg", "x"]),
        ("timestamp", ["timestamp", "time", "datetime", "date", "utc", "timeutc", "recordedat", "isotime"]),
        ("accuracy", ["horizontalaccuracy", "accuracy", "hacc", "acc", "accuracym"]),
        ("speed", ["speed", "speedms", "velocity"]),
        ("course", ["course", "heading", "bearing", "coursedeg"]),
        ("altitude", ["altitude", "alt", "elevation", "ele", "altitudem"]),
        ("track", ["deviceid", "device", "sessionid", "session", "trackid", "track", "tripid", "userid", "user"]),
        ("activity", ["activity1", "activity", "motionactivity", "activitytype"]),
        ("activityConfidence", ["activity1conf", "activityconfidence", "activityconf", "confidence"]),
    ]

    /// Android's and Core Motion's activity names, normalised, as kinds.
    static let activityKinds: [String: MotionKind] = [
        "still": .stationary, "stationary": .stationary, "walking": .walking, "onfoot": .walking, "running": .running,
        "onbicycle": .cycling, "cycling": .cycling, "invehicle": .automotive, "automotive": .automotive,
        "unknown": .unknown, "tilting": .unknown,
    ]

    /// A header name in its comparable form: `Speed (m/s)` → `speedms`.
    static func normalise(_ name: String) -> String {
        String(
            name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init))
    }

    static func read(data: Data, path: String, utcOffset: Seconds) throws(ImportError) -> [ImportedTrack] {
        let table = try CSVTable(data: data, path: path)
        let normalised = table.header.map(normalise)
        var columns: [String: Int] = [:]
        for (field, names) in aliases {
            if let index = names.lazy.compactMap({ normalised.firstIndex(of: $0) }).first { columns[field] = index }
        }
        for required in ["latitude", "longitude", "timestamp"] where columns[required] == nil {
            throw ImportError(
                file: path, field: required,
                problem:
                    "missing column (looked for \(aliases.first { $0.field == required }?.names.joined(separator: ", ") ?? required))"
            )
        }
        var tracks: [String: [Location]] = [:]
        var activities: [String: [(reading: ActivityReading, confidence: Double)]] = [:]
        var trackOrder: [String] = []
        for row in table.rows.indices {
            guard let latitude = try table.number(row, columns["latitude"]),
                let longitude = try table.number(row, columns["longitude"])
            else {
                throw ImportError(
                    file: path, location: table.line(row), field: columns["latitude"].map { table.header[$0] }, problem: "empty")
            }
            guard Coordinate(latitude: latitude, longitude: longitude).isValid else {
                throw ImportError(
                    file: path, location: table.line(row), field: columns["latitude"].map { table.header[$0] },
                    problem: "not a position (\(latitude), \(longitude))")
            }
            let timeColumn = columns["timestamp"] ?? 0
            let timeText = try table.requiredText(row, timeColumn)
            guard let time = JourneyFile.timestamp(timeText, utcOffset: utcOffset) else {
                throw ImportError(
                    file: path, location: table.line(row), field: table.header[timeColumn], problem: "not a time '\(timeText)'")
            }
            func measure(_ kind: FixMeasure, _ field: String) throws(ImportError) -> Double? {
                guard let value = try table.number(row, columns[field]) else { return nil }
                guard let checked = kind.checked(value) else {
                    throw ImportError(
                        file: path, location: table.line(row), field: columns[field].map { table.header[$0] },
                        problem: "not \(kind.expectation) '\(table.text(row, columns[field]) ?? "")'")
                }
                return checked
            }
            let track = table.text(row, columns["track"]) ?? ""
            if tracks[track] == nil { trackOrder.append(track) }
            // An activity name the recogniser does not use is skipped, not an error: a sample is data.
            if let name = table.text(row, columns["activity"]), let kind = activityKinds[normalise(name)] {
                let confidence = (try? table.number(row, columns["activityConfidence"])) ?? nil
                activities[track, default: []].append((ActivityReading(timestamp: time, kind: kind), confidence ?? 50))
            }
            tracks[track, default: []].append(
                Location(
                    coordinate: Coordinate(latitude: latitude, longitude: longitude), timestamp: time,
                    horizontalAccuracy: try measure(.accuracy, "accuracy"), speed: try measure(.speed, "speed"),
                    course: try measure(.course, "course"), altitude: try measure(.altitude, "altitude")))
        }
        guard !trackOrder.isEmpty else { throw ImportError(file: path, problem: "no rows") }
        let trackColumn = columns["track"].map { table.header[$0] }
        return trackOrder.map { key in
            ImportedTrack(
                file: path, name: trackColumn.map { "\($0) \(key)" }, key: trackColumn == nil ? nil : key,
                locations: tracks[key] ?? [],
                activities: activities[key] ?? [])
        }
    }
}
