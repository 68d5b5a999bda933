import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerImport

/// Peak lists made to crash the terrain lookup: positions and heights no map holds.
@Suite(.tags(.sharedData)) struct TerrainFilesTests {
    static let terrain = Result { () throws(ImportError) in
        try TerrainFiles.tiles(path: SharedPaths.data.appendingPathComponent("dem").path)
    }

    func peaks(_ feature: String) throws -> (path: String, directory: TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let path = directory.path("peaks.geojson")
        try #"{"type": "FeatureCollection", "features": [\#(feature)]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, directory)
    }

    @Test func aNamedPeakWithAHeightIsRead() throws {
        let (path, directory) = try peaks(
            #"{"type": "Feature", "properties": {"name": "Pic", "ele": 2900.5}, "geometry": {"type": "Point", "coordinates": [1.5, 42.6]}}"#
        )
        defer { withExtendedLifetime(directory) {} }
        let read = try TerrainFiles.peaks(path: path, terrain: try Self.terrain.get())
        #expect(read.map(\.elevation) == [2900.5])
    }

    /// A point at [1e300, 1e300] without a height was looked up in the terrain and trapped.
    @Test(arguments: [
        (#"[1e300, 1e300]"#, #""#, "coordinates", "not a position (1e+300, 1e+300)"),
        (#"[1.5, 95]"#, #", "ele": 100"#, "coordinates", "not a position (95.0, 1.5)"),
        (#"[1.5, 42.6]"#, #", "ele": 1e300"#, "ele", "not a height of -12000 to 100000 m '1e+300'"),
        (#"[1.5, 42.6]"#, #", "ele": "high""#, "ele", "not a height of -12000 to 100000 m 'high'"),
    ])
    func aPeakAtNoPositionOrHeightIsNamed(coordinates: String, elevation: String, field: String, problem: String) throws {
        let (path, directory) = try peaks(
            #"{"type": "Feature", "properties": {"name": "Far"\#(elevation)}, "geometry": {"type": "Point", "coordinates": \#(coordinates)}}"#
        )
        defer { withExtendedLifetime(directory) {} }
        #expect(throws: ImportError(file: path, location: "feature 1", field: field, problem: problem)) {
            _ = try TerrainFiles.peaks(path: path, terrain: try Self.terrain.get())
        }
    }

    @Test func aPeakFileThatIsAFolderOrCutShortIsNamed() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ImportError(file: directory.url.path, problem: "is a directory")) {
            _ = try TerrainFiles.peaks(path: directory.url.path, terrain: try Self.terrain.get())
        }
        let cut = directory.path("cut.geojson")
        try #"{"type": "FeatureCollection", "features": [{"type": "Feature""#.write(
            toFile: cut, atomically: true, encoding: .utf8)
        #expect(
            throws: ImportError(
                file: cut, problem: "not valid JSON: it ends inside a string, an array or an object (the file is cut short)")
        ) {
            _ = try TerrainFiles.peaks(path: cut, terrain: try Self.terrain.get())
        }
    }
}
