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
