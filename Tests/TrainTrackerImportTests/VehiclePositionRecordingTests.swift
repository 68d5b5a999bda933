import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerImport

@Suite(.tags(.sharedData)) struct VehiclePositionRecordingTests {
    /// Pacific time over the feed's dates, 2024-09-21 to 2025-05-31.
    let pacific = TimeZoneCompiler.rules(
        for: "America/Los_Angeles", from: CivilDay(daysSince1970: 19_987), through: CivilDay(daysSince1970: 20_239))

    @Test func theFeedsDatesAreTheDaysNamed() {
        #expect(CivilDay(daysSince1970: 19_987) == CivilDay(year: 2024, month: 9, day: 21))
        #expect(CivilDay(daysSince1970: 20_239) == CivilDay(year: 2025, month: 5, day: 31))
    }

    @Test func theSharedRecordingIsReadWholeOnThePacificClock() throws {
        let zone = try #require(pacific)
        let recording = try VehiclePositionRecording.read(path: SharedPaths.caltrainRecording, zone: zone)
        #expect(recording.positions.count == 28_230)
        #expect(recording.skipped.isEmpty)
        // The first row: trip 132 at 2024-11-29T14:10:27 local, PST (UTC-8).
        let first = try #require(recording.positions.first)
        #expect(first.tripID == "132")
        #expect(first.time == Timestamp(parsing: "2024-11-29T22:10:27Z"))
        #expect(abs(first.coordinate.latitude - 37.3414001) < 1e-9)
    }

    @Test func aCSVGivesLocalTimesOnItsZonesAndSkipsAndCountsMalformedRows() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("positions.csv")
        try """
        trip_id,latitude,longitude,timestamp,zone
        101,37.5,-122.3,2024-11-29T08:00:00,
        101,37.6,-122.3,2024-10-01T08:00:00,
        102,37.6,-122.3,2024-11-29T08:00:00,Asia/Tokyo
        103,37.6,-122.3,2024-11-29T08:00:00Z,
        104,37.6,-122.3,1732867200,
        ,37.6,-122.3,2024-11-29T08:00:00,
        105,91,-122.3,2024-11-29T08:00:00,
        106,37.6,nan,2024-11-29T08:00:00,
        107,37.6,-122.3,yesterday,
        108,37.6,-122.3,2024-11-29T08:00:00,Mars/Olympus
        109,0,0,2024-11-29T08:00:00,

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let recording = try VehiclePositionRecording.read(path: path, zone: try #require(pacific))
        let times = Dictionary(recording.positions.map { ($0.tripID, $0.time) }, uniquingKeysWith: { a, _ in a })
        #expect(recording.positions.count == 5)
        #expect(recording.positions[0].time == Timestamp(parsing: "2024-11-29T16:00:00Z"), "PST in winter")
        #expect(recording.positions[1].time == Timestamp(parsing: "2024-10-01T15:00:00Z"), "PDT in summer")
        #expect(times["102"] == Timestamp(parsing: "2024-11-28T23:00:00Z"), "the row's own zone")
        #expect(times["103"] == Timestamp(parsing: "2024-11-29T08:00:00Z"), "a time with its own offset")
        #expect(times["104"] == Timestamp(secondsSince1970: 1_732_867_200), "seconds since 1970")
        #expect(recording.skipped["no trip_id"] == 1)
        #expect(recording.skipped["latitude not a number from -90 to 90"] == 1)
        #expect(recording.skipped["longitude not a number from -180 to 180"] == 1)
        #expect(recording.skipped["time not ISO 8601 nor seconds since 1970"] == 2, "a bad time and an unknown zone")
        #expect(recording.skipped["position 0, 0 (no fix)"] == 1)
    }

    @Test func aFileThatIsNoRecordingIsRefusedWithItsNameAndTheProblem() throws {
        let directory = try TemporaryDirectory()
        let csv = directory.path("other.csv")
        try "trip,lat,lon,time\n1,2,3,4\n".write(toFile: csv, atomically: true, encoding: .utf8)
        #expect {
            try VehiclePositionRecording.read(path: csv, zone: .utc)
        } throws: { ($0 as? ImportError)?.description == "\(csv): field 'trip_id': missing column" }
        // An SQLite file without the table.
        let sqlite = directory.path("empty.sqlite")
        #expect {
            try VehiclePositionRecording.read(path: SharedPaths.tokyoRailways, zone: .utc)
        } throws: { ($0 as? ImportError)?.problem.hasPrefix("no table train_locations") == true }
        #expect {
            try VehiclePositionRecording.read(path: sqlite, zone: .utc)
        } throws: { ($0 as? ImportError)?.description == "\(sqlite): no such file" }
    }

    @Test func theGTFSFeedCarriesItsZoneWithDaylightSaving() throws {
        let dataset = try GTFSImporter.load(path: SharedPaths.caltrain2024)
        let zone = dataset.timetable.zone
        #expect(zone.identifier == "America/Los_Angeles")
        #expect(zone.offset(at: try #require(Timestamp(parsing: "2024-10-01T12:00:00Z"))) == -25_200)
        #expect(zone.offset(at: try #require(Timestamp(parsing: "2024-11-29T12:00:00Z"))) == -28_800)
        #expect(zone.offset(at: try #require(Timestamp(parsing: "2025-04-01T12:00:00Z"))) == -25_200)
        // Tokyo keeps one offset all year.
        #expect(MiniTokyo3DImporter.zone.isFixed && MiniTokyo3DImporter.zone.identifier == "Asia/Tokyo")
    }
}
