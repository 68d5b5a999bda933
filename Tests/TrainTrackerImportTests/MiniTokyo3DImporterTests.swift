import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerImport

@Suite(.tags(.sharedData)) struct MiniTokyo3DImporterTests {
    /// The whole dataset with timetables, loaded once (about 5 s in a debug build).
    static let tokyo = Result { () throws(ImportError) in try MiniTokyo3DImporter.load(path: SharedPaths.miniTokyo3D) }
    static let reference = Result { () throws(StorageError) in try RailwayDatabase.load(path: SharedPaths.tokyoRailways) }

    @Test func theImportedNetworkAgreesWithTheEkiRailwayFile() throws {
        let dataset = try Self.tokyo.get()
        let reference = try Self.reference.get()
        let network = dataset.network
        #expect(network.railways.count == 179)
        #expect(network.stations.count == 2_583)
        #expect(Set(network.railways.map(\.id)) == Set(reference.railways.map(\.id)))
        #expect(Set(network.stations.map(\.id)) == Set(reference.stations.map(\.id)))
        for railway in network.railways {
            let other = try #require(reference.railway(id: railway.id))
            #expect(railway.stationIDs == other.stationIDs, "\(railway.id) station order")
            #expect(railway.isLoop == other.isLoop)
            #expect((railway.ascendingName, railway.descendingName) == (other.ascendingName, other.descendingName))
            let ratio = railway.track.polyline.length / other.track.polyline.length
            #expect(
                ratio > 0.95 && ratio < 1.05,
                "\(railway.id): \(railway.track.polyline.length) m vs \(other.track.polyline.length) m")
        }
    }

    /// The source data places 14 of 2,583 stations 155–367 m from their own railway's drawn
    /// track (station buildings off the line, termini beyond the track's end); the Eki file
    /// has the same 14. Every other station lies within 150 m, and no station lies farther
    /// from the imported track than from the Eki file's by more than 5 m.
    @Test func stationsLieWithin150MetresOfTheirOwnTrackWhereTheSourceDataAllows() throws {
        let network = try Self.tokyo.get().network
        let reference = try Self.reference.get()
        var far: [String] = []
        for railway in network.railways {
            let other = try #require(reference.railway(id: railway.id))
            for station in network.stations(of: railway) {
                let distance = try #require(railway.track.polyline.distance(to: station.coordinate))
                let referenceDistance = try #require(other.track.polyline.distance(to: station.coordinate))
                #expect(
                    distance <= max(150, referenceDistance + 5), "\(station.id): \(distance) m, Eki file \(referenceDistance) m")
                if distance > 150 { far.append(station.id) }
            }
        }
        #expect(far.count <= 14, "stations far from their track: \(far)")
    }

    @Test func subwaysAndUndergroundStationsAreMarked() throws {
        let network = try Self.tokyo.get().network
        let ginza = try #require(network.railway(id: "TokyoMetro.Ginza"))
        #expect(ginza.track.undergroundLength / ginza.track.polyline.length > 0.8)
        #expect(network.station(id: "TokyoMetro.Ginza.Ginza")?.isUnderground == true)
        let tokaido = try #require(network.railway(id: "JR-East.Tokaido"))
        #expect(tokaido.track.undergroundLength / tokaido.track.polyline.length < 0.1)
        #expect(network.station(id: "JR-East.Tokaido.Odawara")?.isUnderground == false)
    }

    @Test func aSubSublineRunsAlongItsBaseTrack() throws {
        // The Kodomonokuni Line leaves the Den-en-toshi Line at Nagatsuta along a `sub` subline.
        let network = try Self.tokyo.get().network
        let branch = try #require(network.railway(id: "Tokyu.Kodomonokuni"))
        let base = try #require(network.railway(id: "Tokyu.DenEnToshi"))
        let start = try #require(branch.track.polyline.coordinates.first)
        #expect((base.track.polyline.distance(to: start) ?? .infinity) < 30)
        #expect(branch.track.polyline.length < 5_000)
    }

    @Test func timetablesHoldEveryTrainWithItsStopsTypeAndThroughService() throws {
        let timetable = try Self.tokyo.get().timetable
        let network = try Self.tokyo.get().network
        // Count the trains in the files independently of the importer.
        let folder = URL(fileURLWithPath: SharedPaths.miniTokyo3D).appendingPathComponent("train-timetables")
        var expected = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            expected += (try JSONSerialization.jsonObject(with: data) as? [Any])?.count ?? 0
        }
        #expect(timetable.trains.count == expected)
        #expect(timetable.trainTypes.contains { $0.id == "Tokyu.Express" && $0.name == "Express" })

        let toyoko = try #require(network.railway(id: "Tokyu.Toyoko"))
        let toyokoTrains = timetable.trains.filter { $0.railwayID == toyoko.id }
        #expect(toyokoTrains.allSatisfy { $0.stops.allSatisfy { toyoko.stationIDs.contains($0.stationID) } })
        let express = try #require(toyokoTrains.first { $0.trainTypeID == "Tokyu.Express" && $0.stops.count > 5 })
        #expect(express.stops.count < toyoko.stationIDs.count, "an express passes stations")
        #expect(!express.stops.contains { $0.stationID == "Tokyu.Toyoko.Tsunashima" && false })
        let local = try #require(
            toyokoTrains.first { $0.trainTypeID == "Tokyu.Local" && $0.stops.count == toyoko.stationIDs.count })
        #expect(
            local.stops.map(\.stationID)
                == (local.directionName == toyoko.ascendingName ? toyoko.stationIDs : toyoko.stationIDs.reversed()))
        // Times run forward along a train.
        let times = local.stops.compactMap { $0.departure ?? $0.arrival }
        #expect(times == times.sorted())
        // Through service: a Toyoko train continuing onto another railway names a train that exists.
        let ids = Set(timetable.trains.map(\.id))
        let through = try #require(toyokoTrains.first { !$0.nextTrainIDs.isEmpty })
        #expect(through.nextTrainIDs.allSatisfy(ids.contains))
    }

    /// The Sobu Rapid 2221F of Saturdays leaves Tokyo at 23:37 and reaches Chiba at 00:18; the
    /// weekday one leaves at 00:01, the last train of the weekday's night. No train's times go
    /// back by more than a few minutes (the source has a few such slips), and every train starts
    /// between 03:00 and 27:00 of its service day.
    @Test func aTrainPastMidnightIsTimedOnItsServiceDay() throws {
        let timetable = try Self.tokyo.get().timetable
        let saturday = try #require(timetable.trains.first { $0.id == "JR-East.SobuRapid.2221F.SaturdayHoliday" })
        #expect(saturday.stops.first?.departure == Seconds(23 * 3_600 + 37 * 60))
        #expect(saturday.stops.last?.arrival == Seconds(24 * 3_600 + 18 * 60))
        let weekday = try #require(timetable.trains.first { $0.id == "JR-East.SobuRapid.2221F.Weekday" })
        #expect(weekday.stops.first?.departure == Seconds(24 * 3_600 + 1 * 60))
        for train in timetable.trains {
            let times = train.stops.flatMap { [$0.arrival, $0.departure].compactMap { $0 } }
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 > -3_600 }, "\(train.id)")
            #expect((3 * 3_600..<(27 * 3_600)).contains(times.first ?? 3 * 3_600), "\(train.id)")
        }
    }

    @Test func timesPastMidnightAreKept() {
        #expect(TimetableStop.seconds(fromClock: "24:05") == 86_700)
        #expect(TimetableStop.seconds(fromClock: "05:37") == 20_220)
        #expect(TimetableStop.seconds(fromClock: "5:37:30") == 20_250)
        #expect(TimetableStop.seconds(fromClock: "25:61") == nil)
        #expect(TimetableStop.seconds(fromClock: "noon") == nil)
    }
}

/// Malformed mini-tokyo-3d files: one error naming the file, the record and the field.
@Suite(.tags(.sharedData)) struct MiniTokyo3DErrorTests {
    /// A copy of the small files of the dataset (no timetables) that a test may damage.
    func copyOfDataset() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in ["railways.json", "stations.json", "coordinates.json"] {
            try FileManager.default.copyItem(
                atPath: URL(fileURLWithPath: SharedPaths.miniTokyo3D).appendingPathComponent(name).path,
                toPath: directory.path(name))
        }
        return directory
    }

    func edit(_ directory: TemporaryDirectory, _ name: String, _ change: (inout [[String: Any]]) -> Void) throws {
        let path = directory.path(name)
        var records = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]])
        change(&records)
        try JSONSerialization.data(withJSONObject: records).write(to: URL(fileURLWithPath: path))
    }

    @Test func aFileThatIsNotTheExpectedShapeIsNamed() throws {
        let directory = try copyOfDataset()
        try Data(#"{"railways": 3}"#.utf8).write(to: URL(fileURLWithPath: directory.path("railways.json")))
        #expect(throws: ImportError(file: directory.path("railways.json"), problem: "expected an array")) {
            try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    @Test func notJSONAtAllIsNamed() throws {
        let directory = try copyOfDataset()
        try Data("railways, stations".utf8).write(to: URL(fileURLWithPath: directory.path("stations.json")))
        #expect(throws: ImportError(file: directory.path("stations.json"), problem: "not valid JSON")) {
            try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    @Test func aStationWithABadPositionIsNamedByRecordAndField() throws {
        let directory = try copyOfDataset()
        try edit(directory, "stations.json") { $0[0]["coord"] = ["east", 35.6] }
        #expect(
            throws: ImportError(
                file: directory.path("stations.json"), location: "record 1, coord[0]", problem: "expected a number")
        ) {
            try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    @Test func aRailwayListingAnUnknownStationIsNamed() throws {
        let directory = try copyOfDataset()
        try edit(directory, "railways.json") { records in
            var stations = records[0]["stations"] as? [String] ?? []
            stations.append("Nowhere.Station")
            records[0]["stations"] = stations
        }
        let railway = "JR-East.Yamanote"
        #expect(
            throws: ImportError(
                file: directory.path("railways.json"), location: "railway '\(railway)'", field: "stations",
                problem: "unknown station 'Nowhere.Station'")
        ) {
            try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    @Test func aSublineOnAMissingBaseIsNamed() throws {
        let directory = try copyOfDataset()
        let path = directory.path("coordinates.json")
        var root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var tracks = try #require(root["railways"] as? [[String: Any]])
        let index = try #require(tracks.firstIndex { $0["id"] as? String == "Tokyu.Kodomonokuni" })
        var sublines = try #require(tracks[index]["sublines"] as? [[String: Any]])
        sublines[0]["start"] = ["railway": "Base.Nowhere", "offset": 0]
        tracks[index]["sublines"] = sublines
        root["railways"] = tracks
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImportError(file: path, location: "railway 'Tokyu.Kodomonokuni'", problem: "no track for 'Base.Nowhere'"))
        {
            try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    /// A train's calendar comes from its id; variants numbered `.1`, `.2` keep their calendar
    /// (a name no calendar knew made 708 Tokyo trains run every day).
    @Test(arguments: [
        ("JR-East.Yamanote.1603G.Weekday", "JR-East.Yamanote.1603G", "Weekday"),
        ("JR-East.Yamanote.1603G.Weekday.2", "JR-East.Yamanote.1603G", "Weekday"),
        ("Tokyu.Toyoko.1234K.SaturdayHoliday.1", "Tokyu.Toyoko.1234K", "SaturdayHoliday"),
        ("Tokyu.Toyoko.1234K.Holiday", "Tokyu.Toyoko.1234K", "Holiday"),
        ("Odd.Train.9", "Other.Number", "Daily"),
        ("Tokyu.Toyoko.1234K.Weekday.x2", "Tokyu.Toyoko.1234K", "Weekday.x2"),
    ])
    func aTrainsCalendarComesFromItsID(id: String, number: String, service: String) {
        #expect(MiniTokyo3DImporter.service(ofTrain: id, number: number) == service)
    }

    @Test func everyTokyoTrainRunsOnACalendarTheTimetableKnows() throws {
        let timetable = try MiniTokyo3DImporter.load(path: SharedPaths.miniTokyo3D).timetable
        #expect(Set(timetable.trains.map(\.service)) == ["Weekday", "SaturdayHoliday", "Saturday", "Holiday"])
        // A weekday variant runs on weekdays only: not on Sunday 2025-09-21.
        let variant = try #require(timetable.trains.first { $0.id.hasSuffix(".Weekday.2") })
        let sunday = CivilDay(Timestamp(secondsSince1970: 1_758_452_400), utcOffset: 32_400)
        #expect(!timetable.calendar.runs(variant.service, on: sunday))
    }
}
