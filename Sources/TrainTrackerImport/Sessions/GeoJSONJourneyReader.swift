import Foundation
import TrainTrackerCore

/// Reads a journey from GeoJSON: a FeatureCollection of Point features whose properties
/// hold the time (`time` or `timestamp`) and optionally `accuracy`, `speed`, `course` and
/// `altitude`; or a LineString feature with a `coordTimes` or `times` array property.
/// LineStrings without times are passed over when the file holds a timed journey.
enum GeoJSONJourneyReader {
    static func read(data: Data, path: String, utcOffset: Seconds) throws(ImportError) -> ImportedTrack {
        guard let object = try JSONFile.value(of: data, path: path) as? [String: Any], let type = object["type"] as? String else {
            throw ImportError(file: path, field: "type", problem: "not a GeoJSON object")
        }
        let features: [[String: Any]]
        switch type {
        case "FeatureCollection":
            guard let list = object["features"] as? [[String: Any]] else {
                throw ImportError(file: path, field: "features", problem: "expected an array of features")
            }
            features = list
        case "Feature":
            features = [object]
        default:
            throw ImportError(file: path, field: "type", problem: "expected a FeatureCollection or Feature, got '\(type)'")
        }
        var locations: [Location] = []
        var name: String?
        var untimedLine: ImportError?
        for (index, feature) in features.enumerated() {
            let location = "feature \(index + 1)"
            let properties = feature["properties"] as? [String: Any] ?? [:]
            guard let geometry = feature["geometry"] as? [String: Any], let kind = geometry["type"] as? String else {
                throw ImportError(file: path, location: location, field: "geometry", problem: "missing")
            }
            switch kind {
            case "Point":
                let coordinate = try position(geometry["coordinates"], path: path, location: location, field: "coordinates")
                let timeValue = properties["time"] ?? properties["timestamp"]
                guard let timeValue else {
                    throw ImportError(
                        file: path, location: location, field: "time", problem: "missing; a journey needs timestamps")
                }
                let time = try timestamp(timeValue, path: path, location: location, field: "time", utcOffset: utcOffset)
                func number(_ keys: [String], _ kind: FixMeasure) throws(ImportError) -> Double? {
                    guard let key = keys.first(where: { properties[$0] != nil && !(properties[$0] is NSNull) }) else {
                        return nil
                    }
                    guard let value = properties[key] as? NSNumber, value.doubleValue.isFinite else {
                        throw ImportError(file: path, location: location, field: key, problem: "not a number")
                    }
                    guard let checked = kind.checked(value.doubleValue) else {
                        throw ImportError(
                            file: path, location: location, field: key, problem: "not \(kind.expectation) '\(value)'")
                    }
                    return checked
                }
                locations.append(
                    Location(
                        coordinate: coordinate.coordinate, timestamp: time,
                        horizontalAccuracy: try number(["accuracy", "horizontalAccuracy"], .accuracy),
                        speed: try number(["speed"], .speed), course: try number(["course", "heading"], .course),
                        altitude: try number(["altitude"], .altitude) ?? coordinate.altitude))
            case "LineString":
                guard let points = geometry["coordinates"] as? [Any] else {
                    throw ImportError(
                        file: path, location: location, field: "coordinates", problem: "expected an array of positions")
                }
                guard let times = (properties["coordTimes"] ?? properties["times"]) as? [Any], times.count == points.count else {
                    // An untimed line (a railway drawn beside the journey, say) is no journey.
                    untimedLine =
                        untimedLine
                        ?? ImportError(
                            file: path, location: location, field: "coordTimes",
                            problem: "missing; a journey needs a time per position")
                    continue
                }
                name = name ?? properties["name"] as? String
                for (pointIndex, point) in points.enumerated() {
                    let position = try position(
                        point, path: path, location: "\(location), position \(pointIndex + 1)", field: "coordinates")
                    let time = try timestamp(
                        times[pointIndex], path: path, location: "\(location), position \(pointIndex + 1)", field: "coordTimes",
                        utcOffset: utcOffset)
                    locations.append(Location(coordinate: position.coordinate, timestamp: time, altitude: position.altitude))
                }
            default:
                continue  // other geometries carry no journey
            }
        }
        guard !locations.isEmpty else {
            throw untimedLine ?? ImportError(file: path, problem: "no Point features or timed LineStrings")
        }
        return ImportedTrack(file: path, name: name, locations: locations)
    }

    private static func position(_ value: Any?, path: String, location: String, field: String) throws(ImportError) -> (
        coordinate: Coordinate, altitude: Double?
    ) {
        guard let numbers = value as? [NSNumber], numbers.count >= 2 else {
            throw ImportError(file: path, location: location, field: field, problem: "expected [longitude, latitude]")
        }
        let coordinate = Coordinate(latitude: numbers[1].doubleValue, longitude: numbers[0].doubleValue)
        guard coordinate.isValid else {
            throw ImportError(
                file: path, location: location, field: field,
                problem: "not a position (\(coordinate.latitude), \(coordinate.longitude))")
        }
        guard numbers.count > 2 else { return (coordinate, nil) }
        guard let altitude = FixMeasure.altitude.checked(numbers[2].doubleValue) else {
            throw ImportError(
                file: path, location: location, field: field, problem: "not \(FixMeasure.altitude.expectation) '\(numbers[2])'")
        }
        return (coordinate, altitude)
    }

    private static func timestamp(
        _ value: Any, path: String, location: String, field: String, utcOffset: Seconds
    ) throws(ImportError) -> Timestamp {
        if let text = value as? String, let time = JourneyFile.timestamp(text, utcOffset: utcOffset) { return time }
        if let number = value as? NSNumber, let time = JourneyFile.timestamp(number.stringValue) { return time }
        throw ImportError(file: path, location: location, field: field, problem: "not a time '\(value)'")
    }
}
