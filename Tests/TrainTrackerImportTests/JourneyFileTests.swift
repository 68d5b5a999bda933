import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerImport

@Suite(.tags(.sharedData)) struct JourneyFileTests {
    func write(_ text: String, _ name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: CSV

    @Test func theHelsinkiPhoneDataSplitsIntoOneJourneyPerDevice() throws {
        let path = SharedPaths.data.appendingPathComponent("helsinki/device_data.csv").path
        let tracks = try JourneyFile.read(path: path, utcOffset: 3 * 3600)
        #expect(tracks.count == 8)
        #expect(tracks.reduce(0) { $0 + $1.locations.count } == 6_030)
        let first = try #require(tracks.first { $0.name == "device_id 2" }?.locations.first)
        #expect(first.coordinate == Coordinate(latitude: 60.186805, longitude: 24.821049))
        #expect(first.timestamp == Timestamp(parsing: "2016-08-26T06:00:00.206Z"), "09:00 local time is 06:00 UTC")
        #expect(abs((first.horizontalAccuracy ?? 0) - 33.608) < 0.001)
    }

    @Test func csvColumnsAreMatchedLooselyAndOptionalOnesMayBeMissing() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            """
            Time (UTC),Lat,Lng,Speed (m/s),Heading,H_Acc
            2025-09-20T08:00:00Z,35.6,139.7,12.5,90,8
            1758355201,35.6001,139.7,,,
            """, "ride.csv", in: directory)
        let track = try #require(try JourneyFile.read(path: path).first)
        #expect(track.locations.count == 2)
        #expect(track.locations[0].speed == 12.5 && track.locations[0].course == 90 && track.locations[0].horizontalAccuracy == 8)
        #expect(track.locations[1].timestamp == Timestamp(secondsSince1970: 1_758_355_201), "epoch seconds")
        #expect(track.locations[1].speed == nil)
    }

    @Test func aCSVRowWithABadNumberIsNamedByLineAndField() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            """
            latitude,longitude,timestamp,speed
            35.6,139.7,2025-09-20T08:00:00Z,12
            35.6,139.7,2025-09-20T08:00:01Z,fast
            """, "ride.csv", in: directory)
        #expect(throws: ImportError(file: path, location: "line 3", field: "speed", problem: "not a number 'fast'")) {
            try JourneyFile.read(path: path)
        }
    }

    @Test func aCSVWithoutATimeColumnIsRejected() throws {
        let directory = try TemporaryDirectory()
        let path = try write("lat,lon\n35.6,139.7\n", "ride.csv", in: directory)
        #expect(throws: ImportError.self) { try JourneyFile.read(path: path) }
        do {
            _ = try JourneyFile.read(path: path)
        } catch {
            #expect(error.field == "timestamp" && error.problem.hasPrefix("missing column"))
        }
    }

    // MARK: GPX

    @Test func gpxTracksWithExtensionsBecomeJourneys() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
              <trk><name>Morning ride</name><trkseg>
                <trkpt lat="35.6" lon="139.7"><ele>12</ele><time>2025-09-20T08:00:00Z</time>
                  <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>14.2</gpxtpx:speed><gpxtpx:course>181</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
                </trkpt>
                <trkpt lat="35.5999" lon="139.7"><time>2025-09-20T08:00:01Z</time></trkpt>
              </trkseg></trk>
              <trk><name>Evening ride</name><trkseg>
                <trkpt lat="35.7" lon="139.8"><time>2025-09-20T18:00:00+09:00</time></trkpt>
              </trkseg></trk>
            </gpx>
            """, "rides.gpx", in: directory)
        let tracks = try JourneyFile.read(path: path)
        #expect(tracks.map(\.name) == ["Morning ride", "Evening ride"])
        let point = try #require(tracks.first?.locations.first)
        #expect(point.speed == 14.2 && point.course == 181 && point.altitude == 12)
        #expect(tracks.last?.locations.first?.timestamp == Timestamp(parsing: "2025-09-20T09:00:00Z"))
    }

    @Test func aGPXWithoutTimestampsIsRejectedNamingThePoint() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            """
            <gpx version="1.1"><trk><trkseg>
              <trkpt lat="35.6" lon="139.7"><time>2025-09-20T08:00:00Z</time></trkpt>
              <trkpt lat="35.6" lon="139.7"></trkpt>
            </trkseg></trk></gpx>
            """, "no-time.gpx", in: directory)
        #expect(
            throws: ImportError(
                file: path, location: "track 1, point 2", field: "time", problem: "missing; a journey needs timestamps")
        ) {
            try JourneyFile.read(path: path)
        }
    }

    @Test func aGPXPointWithABadLatitudeIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            #"<gpx><trk><trkseg><trkpt lat="north" lon="139.7"><time>2025-09-20T08:00:00Z</time></trkpt></trkseg></trk></gpx>"#,
            "bad.gpx", in: directory)
        #expect(throws: ImportError(file: path, location: "track 1, point 1", field: "lat", problem: "not a number 'north'")) {
            try JourneyFile.read(path: path)
        }
    }

    @Test func xmlThatIsNotGPXIsRejected() throws {
        let directory = try TemporaryDirectory()
        let broken = try write("<gpx><trk>", "broken.gpx", in: directory)
        #expect(throws: ImportError.self) { try JourneyFile.read(path: broken) }
        let other = try write("<kml><Placemark/></kml>", "other.gpx", in: directory)
        #expect(throws: ImportError(file: other, problem: "not a GPX file (no <gpx> element)")) {
            try JourneyFile.read(path: other)
        }
    }

    // MARK: GeoJSON

    @Test func geoJSONPointsAndTimedLinesBecomeJourneys() throws {
        let directory = try TemporaryDirectory()
        let points = try write(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [139.7, 35.6, 10]},
               "properties": {"time": "2025-09-20T08:00:00Z", "speed": 11.5, "course": 45, "accuracy": 6}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [139.7001, 35.6]},
               "properties": {"timestamp": 1758355201}}
            ]}
            """, "points.geojson", in: directory)
        let track = try #require(try JourneyFile.read(path: points).first)
        #expect(track.locations.count == 2)
        #expect(
            track.locations[0].speed == 11.5 && track.locations[0].altitude == 10 && track.locations[0].horizontalAccuracy == 6)
        let line = try write(
            """
            {"type": "Feature", "properties": {"name": "ride", "coordTimes": ["2025-09-20T08:00:00Z", "2025-09-20T08:00:05Z"]},
             "geometry": {"type": "LineString", "coordinates": [[139.7, 35.6], [139.701, 35.6]]}}
            """, "line.geojson", in: directory)
        let lineTrack = try #require(try JourneyFile.read(path: line).first)
        #expect(lineTrack.name == "ride" && lineTrack.locations.count == 2)
    }

    @Test func jsonOfAnotherShapeIsRejectedNamingTheField() throws {
        let directory = try TemporaryDirectory()
        let array = try write("[1, 2, 3]", "array.geojson", in: directory)
        #expect(throws: ImportError(file: array, field: "type", problem: "not a GeoJSON object")) {
            try JourneyFile.read(path: array)
        }
        let polygon = try write(#"{"type": "Polygon", "coordinates": []}"#, "polygon.geojson", in: directory)
        #expect(
            throws: ImportError(file: polygon, field: "type", problem: "expected a FeatureCollection or Feature, got 'Polygon'")
        ) {
            try JourneyFile.read(path: polygon)
        }
        let untimed = try write(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [139.7, 35.6]}}]}"#,
            "untimed.geojson", in: directory)
        #expect(
            throws: ImportError(
                file: untimed, location: "feature 1", field: "time", problem: "missing; a journey needs timestamps")
        ) {
            try JourneyFile.read(path: untimed)
        }
    }

    @Test func anUnknownExtensionIsRejected() throws {
        let directory = try TemporaryDirectory()
        let path = try write("x", "ride.kml", in: directory)
        #expect(throws: ImportError(file: path, problem: "unknown journey format; expected .gpx, .csv or .geojson")) {
            try JourneyFile.read(path: path)
        }
    }
}
