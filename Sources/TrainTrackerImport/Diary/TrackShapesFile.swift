import Foundation
import TrainTrackerCore

/// Reads track shapes from GeoJSON: every LineString and MultiLineString of a FeatureCollection
/// (or of one Feature), such as HSL's `rail-metro-shapes.geojson`, for cutting a rail-lines
/// file's tracks (`RailwayNetwork.init(lines:shapes:)`). Other geometries are passed over.
public enum TrackShapesFile {
    /// The lines of the GeoJSON file at `path`, as `[longitude, latitude]` positions become
    /// coordinates.
    ///
    /// - Throws: `ImportError` naming the file, the feature and the problem: not GeoJSON, a
    ///   position that is not one, or no line at all.
    public static func shapes(path: String) throws(ImportError) -> [[Coordinate]] {
        guard let object = try JSONFile.value(path: path) as? [String: Any], let type = object["type"] as? String else {
            throw ImportError(file: path, field: "type", problem: "not a GeoJSON object")
        }
        let features: [Any]
        switch type {
        case "FeatureCollection":
            guard let list = object["features"] as? [Any] else {
                throw ImportError(file: path, field: "features", problem: "expected an array of features")
            }
            features = list
        case "Feature": features = [object]
        default: throw ImportError(file: path, field: "type", problem: "expected a FeatureCollection or Feature, got '\(type)'")
        }
        var shapes: [[Coordinate]] = []
        for (index, feature) in features.enumerated() {
            let location = "feature \(index + 1)"
            guard let geometry = (feature as? [String: Any])?["geometry"] as? [String: Any] else {
                throw ImportError(file: path, location: location, field: "geometry", problem: "missing")
            }
            switch geometry["type"] as? String {
            case "LineString":
                shapes.append(try line(geometry["coordinates"], path: path, location: location))
            case "MultiLineString":
                guard let parts = geometry["coordinates"] as? [Any] else {
                    throw ImportError(file: path, location: location, field: "coordinates", problem: "expected an array of lines")
                }
                for part in parts { shapes.append(try line(part, path: path, location: location)) }
            default: continue
            }
        }
        guard !shapes.isEmpty else { throw ImportError(file: path, field: "features", problem: "no LineString") }
        return shapes
    }

    /// The shapes of the file at `path`, none without one (`--track` not given).
    ///
    /// - Throws: as `shapes(path:)`.
    public static func shapes(at path: String?) throws(ImportError) -> [[Coordinate]] {
        guard let path else { return [] }
        return try shapes(path: path)
    }

    /// The warning that the shapes of the file at `path` fitted none of `railways`, which are
    /// drawn straight; `nil` without shapes or when every line fitted.
    public static func straightWarning(path: String?, railways: [String]) -> String? {
        guard let path, !railways.isEmpty else { return nil }
        return "warning: \(path): no line fits \(railways.joined(separator: ", ")); drawn straight between stations"
    }

    private static func line(_ value: Any?, path: String, location: String) throws(ImportError) -> [Coordinate] {
        guard let positions = value as? [Any], positions.count >= 2 else {
            throw ImportError(file: path, location: location, field: "coordinates", problem: "a line needs two positions or more")
        }
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(positions.count)
        for (index, position) in positions.enumerated() {
            guard let numbers = position as? [NSNumber], numbers.count >= 2 else {
                throw ImportError(
                    file: path, location: "\(location), position \(index + 1)", field: "coordinates",
                    problem: "expected [longitude, latitude]")
            }
            let coordinate = Coordinate(latitude: numbers[1].doubleValue, longitude: numbers[0].doubleValue)
            guard coordinate.isValid else {
                throw ImportError(
                    file: path, location: "\(location), position \(index + 1)", field: "coordinates",
                    problem: "not a position (\(numbers[1]), \(numbers[0]))")
            }
            coordinates.append(coordinate)
        }
        return coordinates
    }
}
