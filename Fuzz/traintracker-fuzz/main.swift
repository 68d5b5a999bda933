import Foundation
import NIOCore
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerRealtime
import TrainTrackerServer

#if TRAINTRACKER_FUZZ_OWN_MAIN
    import FuzzerDriver
#endif

// The readers of outside input under libFuzzer, one chosen by FUZZ_TARGET:
//   csv, gpx, geojson  journey files (JourneyFile.read)
//   gtfs               the first byte picks one file of a small GTFS feed to replace (or 7: the
//                      whole input as a zipped feed)
//   minitokyo3d        the first byte picks one file of a small mini-tokyo-3d dataset to replace
//   srtm               the first byte picks a raw tile, a zipped tile or a peaks GeoJSON
//   upload             the body of POST /v1/sessions/{id}/locations, its fixes then tracked
//   recording          a CSV recording of vehicle positions (VehiclePositionRecording), made
//                      into rides on Caltrain's 2024 feed (RecordedRides) and one of them tracked
//   raillines          a rail-lines JSON file (RailLinesFile), made into a network, a fix tracked
//   manuallog          a TrafficSense manual log (DiaryLogs.manualLog), its rail legs on the
//                      Helsinki lines (PhoneRailLegs)
//   realtime           a GTFS-realtime feed message (RealtimeFeedReader), resolved against
//                      Caltrain's 2024 timetable (LiveTrips) and told to a tracker on a ride
// FUZZ_WORK is a scratch folder `scripts/fuzz.sh` prepares with the base feed and dataset.
// A finding is a crash (a trap, a precondition) or a timeout; a thrown error is the reader
// doing its job.

enum Fuzz {
    static let target = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    static let work = URL(fileURLWithPath: ProcessInfo.processInfo.environment["FUZZ_WORK"] ?? "/tmp/traintracker-fuzz")

    static let gtfsFiles = [
        "routes.txt", "stops.txt", "trips.txt", "stop_times.txt", "shapes.txt", "calendar.txt", "directions.txt",
    ]
    static let miniTokyoFiles = [
        "railways.json", "stations.json", "coordinates.json", "train-types.json", "rail-directions.json",
        "train-timetables/keio-dobutsuen.json",
    ]
    static let demoModel = TrackerModel(dataset: TransitDataset(network: DemoNetwork.make()))

    static func run(_ bytes: [UInt8]) {
        switch target {
        case "csv", "gpx", "geojson":
            let file = work.appendingPathComponent("input." + target)
            write(bytes[...], to: file)
            _ = try? JourneyFile.read(path: file.path)
        case "gtfs": replacing(bytes, in: "gtfs", files: gtfsFiles, whole: "feed.zip") { _ = try? GTFSImporter.load(path: $0) }
        case "minitokyo3d":
            replacing(bytes, in: "minitokyo3d", files: miniTokyoFiles, whole: nil) { _ = try? MiniTokyo3DImporter.load(path: $0) }
        case "srtm": terrain(bytes)
        case "upload": upload(bytes)
        case "recording": recording(bytes)
        case "raillines": railLines(bytes)
        case "manuallog": manualLog(bytes)
        case "realtime": realtime(bytes)
        default:
            FileHandle.standardError.write(
                Data(
                    "FUZZ_TARGET must be csv, gpx, geojson, gtfs, minitokyo3d, srtm, upload, recording, raillines, manuallog or realtime\n"
                        .utf8))
            exit(2)
        }
    }

    /// The first byte picks a file of the folder `name` to replace with the rest; the file is
    /// put back afterwards. A pick past the files writes the rest to `whole` and reads that.
    static func replacing(_ bytes: [UInt8], in name: String, files: [String], whole: String?, load: (String) -> Void) {
        let folder = work.appendingPathComponent(name)
        guard let pick = bytes.first else { return }
        let index = Int(pick) % (files.count + (whole == nil ? 0 : 1))
        guard index < files.count else {
            let file = work.appendingPathComponent(whole ?? "")
            write(bytes.dropFirst(), to: file)
            load(file.path)
            return
        }
        let file = folder.appendingPathComponent(files[index])
        let original = try? Data(contentsOf: file)
        write(bytes.dropFirst(), to: file)
        load(folder.path)
        if let original { try? original.write(to: file) } else { try? FileManager.default.removeItem(at: file) }
    }

    static func terrain(_ bytes: [UInt8]) {
        guard let pick = bytes.first else { return }
        let folder = work.appendingPathComponent("srtm")
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch pick % 3 {
        case 0:
            write(bytes.dropFirst(), to: folder.appendingPathComponent("N42E001.hgt"))
            _ = try? TerrainFiles.tiles(path: folder.path)
        case 1:
            write(bytes.dropFirst(), to: folder.appendingPathComponent("N42E001.hgt.zip"))
            _ = try? TerrainFiles.tiles(path: folder.path)
        default:
            let file = folder.appendingPathComponent("peaks.geojson")
            write(bytes.dropFirst(), to: file)
            _ = try? TerrainFiles.peaks(path: file.path, terrain: TileSet(tiles: []))
        }
    }

    static func upload(_ bytes: [UInt8]) {
        guard let upload = try? LocationUpload(body: ByteBuffer(bytes: bytes), limits: UploadLimits(), maximumIDBytes: 128)
        else { return }
        var tracker = RailwayTracker(model: demoModel)
        for fix in upload.fixes { _ = tracker.process(fix.location).jsonLine(sessionID: "FUZZ", fix: fix) }
        _ = upload.skips.json
    }

    /// Caltrain's 2024 feed (linked into FUZZ_WORK by scripts/fuzz-seeds.py), read once.
    static let caltrain = try? GTFSImporter.load(path: work.appendingPathComponent("caltrain-2024-gtfs").path)
    /// Helsinki's rail lines (the repository's file and the shared station list, linked likewise).
    static let helsinkiLines = try? RailLinesFile.lines(
        path: work.appendingPathComponent("rail-lines-2016.json").path,
        stationList: work.appendingPathComponent("trainStations.json").path)

    static func recording(_ bytes: [UInt8]) {
        let file = work.appendingPathComponent("recording.csv")
        write(bytes[...], to: file)
        guard let dataset = caltrain, let read = try? VehiclePositionRecording.read(path: file.path, zone: dataset.timetable.zone)
        else { return }
        let rides = RecordedRides(positions: read.positions, dataset: dataset)
        guard let ride = rides.cases.first else { return }
        var tracker = RailwayTracker(model: TrackerModel(dataset: dataset))
        for fix in ride.fixes.prefix(50) { _ = tracker.process(fix.location) }
    }

    static func realtime(_ bytes: [UInt8]) {
        guard let dataset = caltrain, let reading = try? RealtimeFeedReader.read(bytes, name: "feed") else { return }
        let model = TrackerModel(dataset: dataset)
        var tracker = RailwayTracker(model: model)
        tracker.live = LiveTrips(reading.feed, model: model)
        // A ride of the feed's first trip, at the feed's time, on its railway's first stations.
        guard let railway = model.network.railways.first else { return }
        for (index, station) in railway.stationIDs.prefix(3).enumerated() {
            guard let place = model.network.station(id: station) else { continue }
            _ = tracker.process(
                Location(coordinate: place.coordinate, timestamp: reading.feed.timestamp.adding(Double(index) * 30), speed: 20))
        }
    }

    static func railLines(_ bytes: [UInt8]) {
        let file = work.appendingPathComponent("lines.json")
        write(bytes[...], to: file)
        guard let lines = try? RailLinesFile.lines(path: file.path, stationList: nil),
            let network = try? RailwayNetwork(lines: lines), let station = network.stations.first
        else { return }
        var tracker = RailwayTracker(model: TrackerModel(network: network))
        _ = tracker.process(Location(coordinate: station.coordinate, timestamp: Timestamp(secondsSince1970: 1_472_202_000)))
    }

    static func manualLog(_ bytes: [UInt8]) {
        let file = work.appendingPathComponent("manual_log.csv")
        write(bytes[...], to: file)
        guard let lines = helsinkiLines, let log = try? DiaryLogs.manualLog(path: file.path, utcOffset: 10_800),
            let legs = try? PhoneRailLegs(log: log, fixes: [:], lines: lines)
        else { return }
        _ = legs.legs.map(\.accepted.count)
    }

    static func write(_ bytes: ArraySlice<UInt8>, to file: URL) {
        try? Data(bytes).write(to: file)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    Fuzz.run(bytes)
    return 0
}

#if TRAINTRACKER_FUZZ_OWN_MAIN
    // The quick build (scripts/fuzz.sh --quick) links libFuzzer without its main: this is it.
    var arguments = CommandLine.argc
    var values: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&arguments, &values) { fuzzOneInput($0, $1) })
#endif
