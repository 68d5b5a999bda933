import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerImport

/// Journey files that are cut short, hold impossible times or are not files: one error
/// naming the file, the line or point and the field; never a crash, never half a journey.
extension JourneyFileTests {
    static let fourPointGPX = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>Ride</name><trkseg>
            <trkpt lat="35.6" lon="139.7"><time>2025-09-20T08:00:00Z</time></trkpt>
            <trkpt lat="35.6001" lon="139.7"><time>2025-09-20T08:00:01Z</time></trkpt>
            <trkpt lat="35.6002" lon="139.7"><time>2025-09-20T08:00:02Z</time></trkpt>
            <trkpt lat="35.6003" lon="139.7"><time>2025-09-20T08:00:03Z</time></trkpt>
          </trkseg></trk>
        </gpx>

        """

    /// Found by fuzzing: a byte that is not UTF-8 in an element name made Foundation's XML
    /// parser trap (the whole tool crashed); it is refused naming the line and byte.
    @Test func aGPXThatIsNotUTF8IsRefusedNotACrash() throws {
        let directory = try TemporaryDirectory()
        var bytes = Array(Self.fourPointGPX.utf8)
        let third = try #require(Self.fourPointGPX.range(of: "<trkpt lat=\"35.6002\""))
        bytes.insert(0xD5, at: Self.fourPointGPX.utf8.distance(from: Self.fourPointGPX.startIndex, to: third.lowerBound) + 1)
        let path = directory.path("broken.gpx")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImportError(file: path, location: "line 6", problem: "not UTF-8 text (byte 292)")) {
            try JourneyFile.read(path: path)
        }
    }

    @Test func aWholeGPXReadsEveryPoint() throws {
        let directory = try TemporaryDirectory()
        let path = try write(Self.fourPointGPX, "ride.gpx", in: directory)
        #expect(try JourneyFile.read(path: path).first?.locations.count == 4)
    }

    /// Cut after the second point, inside the third point's time, and after the track but
    /// before `</gpx>`: the parser stops at the end of the data without an error.
    @Test(arguments: [
        ("08:00:01Z</time></trkpt>", "trkseg"), ("<time>2025-09-20T08:00:02", "time"), ("</trkseg></trk>", "gpx"),
    ])
    func aGPXCutShortIsRefusedNotHalfImported(cutAfter marker: String, open: String) throws {
        let directory = try TemporaryDirectory()
        let end = try #require(Self.fourPointGPX.range(of: marker)).upperBound
        let path = try write(String(Self.fourPointGPX[..<end]), "cut.gpx", in: directory)
        #expect {
            _ = try JourneyFile.read(path: path)
        } throws: { error in
            let error = try #require(error as? ImportError)
            return error.file == path && error.problem == "ends inside <\(open)> (the file is cut short)"
        }
    }

    @Test(arguments: [
        (
            "lat,lon,time,speed\n35.6,139.7,2025-09-20T08:00:00Z,1\n35.6,13", "line 3",
            "ends after 2 of 4 fields (the file is cut short)"
        ),
        (
            "lat,lon,time,speed\n35.6,139.7,2025-09-20T08:00:00Z,1\n\n\n35.6,13", "line 5",
            "ends after 2 of 4 fields (the file is cut short)"
        ),
        (
            "lat,lon,time,note\n35.6,139.7,2025-09-20T08:00:00Z,\"first\n35.6,139.7,2025", "line 2",
            "a quote opened here is never closed (the file is cut short or malformed)"
        ),
    ])
    func aCSVCutShortIsNamedByItsLastLine(text: String, line: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let path = try write(text, "cut.csv", in: directory)
        #expect(throws: ImportError(file: path, location: line, problem: problem)) { try JourneyFile.read(path: path) }
    }

    @Test func aCompleteLastLineWithoutALineBreakIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            "lat,lon,time\n35.6,139.7,2025-09-20T08:00:00Z\n35.6,139.7,2025-09-20T08:00:01Z", "ride.csv", in: directory)
        #expect(try JourneyFile.read(path: path).first?.locations.count == 2)
    }

    @Test func rowsAfterBlankLinesAreNamedByTheirOwnLine() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            "lat,lon,time,speed\n\n35.6,139.7,2025-09-20T08:00:00Z,1\n\n\n35.6,139.7,2025-09-20T08:00:01Z,fast\n", "ride.csv",
            in: directory)
        #expect(throws: ImportError(file: path, location: "line 6", field: "speed", problem: "not a number 'fast'")) {
            _ = try JourneyFile.read(path: path)
        }
    }

    @Test func aGeoJSONCutShortSaysSo() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [139.7, 35.6]}, "properties": {"time": "2025-09-20T08:00:00Z"}}"#,
            "cut.geojson", in: directory)
        #expect(
            throws: ImportError(
                file: path, problem: "not valid JSON: it ends inside a string, an array or an object (the file is cut short)")
        ) {
            _ = try JourneyFile.read(path: path)
        }
    }

    /// Times beyond 2199 (1e20 seconds, or 1e16 read as milliseconds: the year 318857) are
    /// not times; they used to trap or be stored.
    @Test(arguments: ["1e20", "1e16", "1e300", "-5"])
    func anImpossibleTimeIsNamedInEveryFormat(time: String) throws {
        let directory = try TemporaryDirectory()
        let csv = try write("lat,lon,time\n35.6,139.7,\(time)\n", "ride.csv", in: directory)
        #expect(throws: ImportError(file: csv, location: "line 2", field: "time", problem: "not a time '\(time)'")) {
            _ = try JourneyFile.read(path: csv)
        }
        let gpx = try write(
            "<gpx><trk><trkseg><trkpt lat=\"35.6\" lon=\"139.7\"><time>\(time)</time></trkpt></trkseg></trk></gpx>", "ride.gpx",
            in: directory)
        #expect(
            throws: ImportError(file: gpx, location: "track 1, point 1", field: "time", problem: "not a time '\(time)'")
        ) {
            _ = try JourneyFile.read(path: gpx)
        }
        let geojson = try write(
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [139.7, 35.6]}, "properties": {"time": "\#(time)"}}"#,
            "ride.geojson", in: directory)
        #expect(
            throws: ImportError(file: geojson, location: "feature 1", field: "time", problem: "not a time '\(time)'")
        ) {
            _ = try JourneyFile.read(path: geojson)
        }
    }

    /// A speed, course, accuracy or altitude out of range is named where it is read; a
    /// negative speed or course is Core Location's "unknown".
    @Test(arguments: [
        ("speed", "1e20", "not a speed of 0 to 1000 m/s"), ("course", "361", "not a course of 0 to 360 degrees"),
        ("accuracy", "-5", "not an accuracy of 0 to 100000 m"), ("altitude", "1e300", "not an altitude of -12000 to 100000 m"),
    ])
    func aMeasureOutOfRangeIsNamedInEveryFormat(field: String, value: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        let csv = try write("lat,lon,time,\(field)\n35.6,139.7,2025-09-20T08:00:00Z,\(value)\n", "ride.csv", in: directory)
        #expect(throws: ImportError(file: csv, location: "line 2", field: field, problem: "\(problem) '\(value)'")) {
            _ = try JourneyFile.read(path: csv)
        }
        let element = field == "altitude" ? "ele" : field
        let gpx = try write(
            "<gpx><trk><trkseg><trkpt lat=\"35.6\" lon=\"139.7\"><time>2025-09-20T08:00:00Z</time><\(element)>\(value)</\(element)></trkpt></trkseg></trk></gpx>",
            "ride.gpx", in: directory)
        #expect(
            throws: ImportError(file: gpx, location: "track 1, point 1", field: element, problem: "\(problem) '\(value)'")
        ) {
            _ = try JourneyFile.read(path: gpx)
        }
        let geojson = try write(
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [139.7, 35.6]}, "properties": {"time": "2025-09-20T08:00:00Z", "\#(field)": \#(value)}}"#,
            "ride.geojson", in: directory)
        #expect {
            _ = try JourneyFile.read(path: geojson)
        } throws: { error in
            let error = try #require(error as? ImportError)
            return error.location == "feature 1" && error.field == field && error.problem.hasPrefix(problem)
        }
    }

    @Test func aNegativeSpeedOrCourseIsNoneAsCoreLocationWritesIt() throws {
        let directory = try TemporaryDirectory()
        let path = try write("lat,lon,time,speed,course\n35.6,139.7,2025-09-20T08:00:00Z,-1,-1\n", "ride.csv", in: directory)
        let fix = try #require(try JourneyFile.read(path: path).first?.locations.first)
        #expect(fix.speed == nil && fix.course == nil)
    }

    @Test func aNumericGeoJSONTimeOutOfRangeIsNamed() throws {
        let directory = try TemporaryDirectory()
        let path = try write(
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [139.7, 35.6]}, "properties": {"time": 1e20}}"#,
            "ride.geojson", in: directory)
        #expect {
            _ = try JourneyFile.read(path: path)
        } throws: { error in
            let error = try #require(error as? ImportError)
            return error.file == path && error.field == "time" && error.problem.hasPrefix("not a time")
        }
    }

    @Test func aDirectoryIsNamedAsOneNotAsMissing() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("ride.gpx")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(throws: ImportError(file: folder, problem: "is a directory")) { try JourneyFile.read(path: folder) }
        #expect(throws: ImportError(file: directory.path("none.gpx"), problem: "no such file")) {
            _ = try JourneyFile.read(path: directory.path("none.gpx"))
        }
    }

    @Test func aFileLargerThanTheLimitIsNotRead() throws {
        let directory = try TemporaryDirectory()
        let path = try write(String(repeating: "x", count: 1_048_577), "big.csv", in: directory)
        #expect(throws: ImportError(file: path, problem: "larger than 1 MiB; not read")) {
            try InputFile.read(path, maximumBytes: 1_048_576)
        }
        #expect(InputFile.maximumBytes == 512 * 1_048_576)
    }
}
