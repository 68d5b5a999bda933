import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerImport

/// A rail-lines file from outside: read, or refused naming the file, the line and the problem.
@Suite(.tags(.sharedData)) struct RailLinesFileTests {
    static let stations = """
        "stations": [
          {"code": "A", "name": "Alpha", "latitude": 60.10, "longitude": 24.90},
          {"code": "B", "name": "Bravo", "latitude": 60.11, "longitude": 24.91},
          {"code": "C", "name": "Charlie", "latitude": 60.12, "longitude": 24.92},
          {"code": "D", "name": "Delta", "latitude": 60.13, "longitude": 24.90}
        ]
        """

    func read(_ lines: String, stations: String = RailLinesFileTests.stations) throws -> (
        path: String, result: Result<[RailLine], ImportError>
    ) {
        let directory = try TemporaryDirectory()
        let path = directory.path("lines.json")
        try Data("{\(stations), \"lines\": [\(lines)]}".utf8).write(to: URL(fileURLWithPath: path))
        return (path, Result { () throws(ImportError) in try RailLinesFile.lines(path: path, stationList: nil) })
    }

    @Test func theHelsinkiLinesAreAllReadAndMakeANetwork() throws {
        let lines = try RailLinesFile.lines(
            path: SharedPaths.helsinkiLines,
            stationList: SharedPaths.data.appendingPathComponent("helsinki/trainStations.json").path)
        #expect(lines.map(\.name).sorted() == ["A", "E", "I", "K", "L", "P", "U", "metro", "metro"])
        // The metro's two branches, I/P's two halves, A, E, K, L, U.
        #expect(try RailwayNetwork(lines: lines).railways.count == 9)
    }

    @Test(arguments: [
        (
            #"{"name": "K", "kind": "train", "stations": ["A", "B", "A"], "bothWays": true}"#,
            "line 1 of \"lines\": field 'stations': station 'A' is listed twice"
        ),
        (
            #"{"name": "K", "kind": "train", "stations": ["A", "B", "B", "C"], "bothWays": true}"#,
            "line 1 of \"lines\": field 'stations': station 'B' is listed twice in a row"
        ),
        (
            #"{"name": "K", "kind": "train", "stations": ["A", "B"], "bothWays": true}, {"name": "K", "kind": "train", "stations": ["A", "C", "B"], "bothWays": true}"#,
            "line 2 of \"lines\": field 'name': line 1 has the same name and ends"
        ),
        (
            #"{"name": "K", "kind": "train", "stations": ["A", "Z"], "bothWays": true}"#,
            "line 1 of \"lines\": field 'stations': station 'Z' is not in this file"
        ),
        ("", "field 'lines': no lines"),
    ])
    func aBadLineIsRefusedNamingIt(_ lines: String, _ problem: String) throws {
        let (path, result) = try read(lines)
        guard case .failure(let error) = result else {
            Issue.record("read: \(lines)")
            return
        }
        #expect(error.description.hasPrefix(path) && error.description.contains(problem), "\(error.description)")
    }

    @Test func aRingMayPassAStationTwiceOnItsWayOutAndBack() throws {
        // A lollipop, as Helsinki's I passes Pasila: A B C D B A.
        let (_, result) = try read(
            #"{"name": "I", "kind": "train", "stations": ["A", "B", "C", "D", "B", "A"], "bothWays": false}"#)
        let lines = try result.get()
        #expect(try RailwayNetwork(lines: lines).railways.count == 2)
    }

    @Test func aStationCodeUsedTwiceIsRefused() throws {
        let stations = """
            "stations": [{"code": "A", "name": "Alpha", "latitude": 60.1, "longitude": 24.9},
                         {"code": "A", "name": "Again", "latitude": 60.2, "longitude": 24.9}]
            """
        let (_, result) = try read(
            #"{"name": "K", "kind": "train", "stations": ["A", "A"], "bothWays": true}"#, stations: stations)
        #expect(throws: ImportError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.description.contains("station 2: field 'code': code 'A' is used twice"), "\(error)")
        }
    }
}

/// Track shapes from outside (`--track`): read, or refused naming the file, feature and problem.
@Suite struct TrackShapesFileTests {
    func read(_ text: String) throws -> (path: String, result: Result<[[Coordinate]], ImportError>) {
        let directory = try TemporaryDirectory()
        let path = directory.path("shapes.geojson")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, Result { () throws(ImportError) in try TrackShapesFile.shapes(path: path) })
    }

    @Test func lineStringsAndMultiLineStringsAreShapesAndPointsArePassedOver() throws {
        let (_, result) = try read(
            #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], [24.91, 60.11]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [24.9, 60.1]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "MultiLineString",
                "coordinates": [[[24.9, 60.1], [24.92, 60.1]], [[25.0, 60.2], [25.1, 60.2], [25.2, 60.2]]]}}
            ]}
            """#)
        let shapes = try result.get()
        #expect(shapes.map(\.count) == [2, 2, 3])
        #expect(shapes[0][1] == Coordinate(latitude: 60.11, longitude: 24.91))
    }

    @Test(arguments: [
        (#"[1, 2]"#, "not a GeoJSON object"),
        (#"{"type": "Topology"}"#, "expected a FeatureCollection or Feature"),
        (#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1]]}}"#, "feature 1"),
        (#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], [24.9, 95]]}}"#, "position 2"),
        (#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], ["a", 60]]}}"#, "position 2"),
        (#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.9, 60.1]}}"#, "no LineString"),
        (#"{"type": "FeatureCollection", "features": [7]}"#, "geometry"),
    ])
    func aFileThatHoldsNoTrackIsRefusedNamingWhere(text: String, expected: String) throws {
        let (path, result) = try read(text)
        guard case .failure(let error) = result else {
            Issue.record("\(text) was read")
            return
        }
        #expect(error.description.contains(path) && error.description.contains(expected), "\(error.description)")
    }
}
