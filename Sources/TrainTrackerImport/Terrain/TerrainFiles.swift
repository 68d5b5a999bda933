import Foundation
import TrainTrackerCore

/// Reads SRTM tiles and peak lists.
public enum TerrainFiles {
    /// The largest tile: 3601 × 3601 heights of two bytes (1 arc-second).
    static let maximumTileBytes = 3_601 * 3_601 * 2

    /// Every tile in the folder at `path` (or the single file): `N42E001.hgt`, or zipped as
    /// `N42E001.hgt.zip`; the name gives the south-west corner.
    ///
    /// - Throws: `ImportError` naming the file: not found, no tiles, a name that is not a
    ///   tile's, a tile of the wrong size, an archive without an `.hgt` inside.
    public static func tiles(path: String) throws(ImportError) -> TileSet {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(file: path, problem: "no such file or folder")
        }
        let files: [String]
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { $0.lowercased().hasSuffix(".hgt") || $0.lowercased().hasSuffix(".hgt.zip") }.sorted()
                .map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
        } else {
            files = [path]
        }
        guard !files.isEmpty else { throw ImportError(file: path, problem: "no SRTM tiles (.hgt or .hgt.zip) in the folder") }
        var tiles: [ElevationTile] = []
        for file in files { tiles.append(try tile(file)) }
        return TileSet(tiles: tiles)
    }

    /// One tile file.
    static func tile(_ file: String) throws(ImportError) -> ElevationTile {
        let name = URL(fileURLWithPath: file).lastPathComponent
        guard let corner = corner(of: name) else {
            throw ImportError(file: file, problem: "not an SRTM tile name (like N42E001.hgt)")
        }
        var bytes: [UInt8]
        if name.lowercased().hasSuffix(".zip") {
            let archive = try ZipArchive(path: file)
            guard let entry = archive.entries.first(where: { $0.path.lowercased().hasSuffix(".hgt") }) else {
                throw ImportError(file: file, problem: "no .hgt file inside the archive")
            }
            bytes = [UInt8](try archive.data(of: entry, name: file, maximumBytes: maximumTileBytes))
        } else {
            bytes = [UInt8](try InputFile.read(file, maximumBytes: maximumTileBytes))
        }
        do {
            return try ElevationTile(latitude: corner.latitude, longitude: corner.longitude, bytes: bytes, name: file)
        } catch {
            throw ImportError(file: file, problem: error.description.replacingOccurrences(of: "\(file): ", with: ""))
        }
    }

    /// `N42E001` → (42, 1); `S12W077` → (−12, −77).
    static func corner(of name: String) -> (latitude: Int, longitude: Int)? {
        let upper = name.uppercased()
        guard upper.count >= 7 else { return nil }
        let characters = Array(upper)
        guard "NS".contains(characters[0]), "EW".contains(characters[3]),
            let latitude = Int(String(characters[1...2])), let longitude = Int(String(characters[4...6]))
        else { return nil }
        return (characters[0] == "N" ? latitude : -latitude, characters[3] == "E" ? longitude : -longitude)
    }

    /// Named peaks from GeoJSON points with a `name` (and `ele`, metres; otherwise the terrain's).
    ///
    /// - Throws: `ImportError` naming the file and the feature at fault: not a point, not a
    ///   position, an `ele` that is not a number within `DomainRange.altitude`.
    public static func peaks(path: String, terrain: TileSet) throws(ImportError) -> [Peak] {
        guard let object = try JSONFile.value(path: path) as? [String: Any], let features = object["features"] as? [[String: Any]]
        else {
            throw ImportError(file: path, problem: "not a GeoJSON FeatureCollection")
        }
        var peaks: [Peak] = []
        for (index, feature) in features.enumerated() {
            let properties = feature["properties"] as? [String: Any] ?? [:]
            guard let name = properties["name"] as? String else { continue }
            guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                let position = geometry["coordinates"] as? [NSNumber], position.count >= 2
            else { throw ImportError(file: path, location: "feature \(index + 1)", field: "geometry", problem: "not a point") }
            let coordinate = Coordinate(latitude: position[1].doubleValue, longitude: position[0].doubleValue)
            guard coordinate.isValid else {
                throw ImportError(
                    file: path, location: "feature \(index + 1)", field: "coordinates",
                    problem: "not a position (\(coordinate.latitude), \(coordinate.longitude))")
            }
            var elevation: Meters?
            if let value = properties["ele"], !(value is NSNull) {
                let number = (value as? NSNumber)?.doubleValue ?? (value as? String).flatMap { Double($0) }
                guard let height = number?.within(DomainRange.altitude) else {
                    throw ImportError(
                        file: path, location: "feature \(index + 1)", field: "ele",
                        problem: "not a height of -12000 to 100000 m '\(value)'")
                }
                elevation = height
            }
            guard let height = elevation ?? terrain.elevation(at: coordinate) else { continue }
            peaks.append(Peak(name: name, coordinate: coordinate, elevation: height))
        }
        return peaks
    }
}
