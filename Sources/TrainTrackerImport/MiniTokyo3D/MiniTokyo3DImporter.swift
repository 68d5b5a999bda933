import Foundation
import Synchronization
import TrainTrackerCore

/// Imports the mini-tokyo-3d open dataset: railways, stations, track geometry and the
/// per-railway train timetables.
public enum MiniTokyo3DImporter {
    /// The timetables' clock: Japan Standard Time, UTC+9, all year.
    public static let utcOffset: Seconds = 9 * 3600
    /// The same clock as a zone: `Asia/Tokyo`, which has kept no daylight saving since 1951.
    public static let zone = TimeZoneRules.fixed(utcOffset, identifier: "Asia/Tokyo")

    /// Whether `path` is a mini-tokyo-3d folder (it holds `railways.json`, `stations.json`
    /// and `coordinates.json`).
    public static func isDataset(at path: String) -> Bool {
        ["railways.json", "stations.json", "coordinates.json"].allSatisfy {
            FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent($0).path)
        }
    }

    /// Loads the dataset in the folder at `path`. Timetables are read from
    /// `train-timetables/*.json` when `timetables` is true and the folder exists.
    ///
    /// - Parameter progress: called with (files done, files in all) while timetables load.
    /// - Throws: `ImportError` naming the file, the record and the field of the first problem,
    ///   among them a file cut short, a railway without sublines, an offset or interpolation
    ///   beyond `MiniTokyo3DTrackBuilder`'s limits, a train or train type id listed twice.
    /// - Complexity: linear in the size of the dataset; timetable files are decoded in parallel.
    public static func load(
        path: String, timetables: Bool = true, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(ImportError) -> TransitDataset {
        let folder = URL(fileURLWithPath: path)
        func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let railwayRecords = try JSONFile.decode([MiniTokyo3D.Railway].self, path: file("railways.json"))
        let stationRecords = try JSONFile.decode([MiniTokyo3D.Station].self, path: file("stations.json"))
        let coordinates = try JSONFile.decode(MiniTokyo3D.Coordinates.self, path: file("coordinates.json"))

        // Stations no railway lists may lack a position; the listed ones must have one.
        var stationsByID: [String: (record: Int, station: MiniTokyo3D.Station)] = [:]
        for (index, station) in stationRecords.enumerated() {
            stationsByID[station.id] = (index, station)
        }
        var builder = MiniTokyo3DTrackBuilder(path: file("coordinates.json"), tracks: coordinates.railways)
        var railways: [Railway] = []
        var stations: [Station] = []
        var seenStations = Set<String>()
        for record in railwayRecords {
            let pieces = try builder.pieces(of: record.id)
            railways.append(
                Railway(
                    id: record.id, name: record.title["en"] ?? record.title.values.first ?? record.id, names: record.title,
                    color: record.color ?? "#888888", stationIDs: record.stations, ascendingName: record.ascending,
                    descendingName: record.descending, track: Track(pieces: pieces)
                )
            )
            for stationID in record.stations where seenStations.insert(stationID).inserted {
                guard let (index, station) = stationsByID[stationID] else {
                    throw ImportError(
                        file: file("railways.json"), location: "railway '\(record.id)'", field: "stations",
                        problem: "unknown station '\(stationID)'")
                }
                guard let pair = station.coord, pair.count >= 2, Coordinate(latitude: pair[1], longitude: pair[0]).isValid else {
                    throw ImportError(
                        file: file("stations.json"), location: "record \(index + 1)", field: "coord",
                        problem: "not a [longitude, latitude] pair")
                }
                stations.append(
                    Station(
                        id: station.id, railwayID: station.railway ?? record.id,
                        name: station.title["en"] ?? station.title.values.first ?? station.id, names: station.title,
                        coordinate: Coordinate(latitude: pair[1], longitude: pair[0]), isUnderground: (station.altitude ?? 0) < 0
                    )
                )
            }
        }
        let network: RailwayNetwork
        do {
            network = try RailwayNetwork(railways: railways, stations: stations)
        } catch {
            throw ImportError(file: file("railways.json"), problem: error.description)
        }
        guard timetables else { return TransitDataset(network: network) }
        let timetable = try loadTimetables(folder: folder, network: network, progress: progress)
        return TransitDataset(network: network, timetable: timetable)
    }

    private static func loadTimetables(
        folder: URL, network: RailwayNetwork, progress: (@Sendable (Int, Int) -> Void)?
    ) throws(ImportError) -> Timetable {
        let typesPath = folder.appendingPathComponent("train-types.json").path
        var trainTypes: [TrainType] = []
        if FileManager.default.fileExists(atPath: typesPath) {
            var seen = Set<String>()
            for (index, type) in try JSONFile.decode([MiniTokyo3D.TrainType].self, path: typesPath).enumerated() {
                guard seen.insert(type.id).inserted else {
                    throw ImportError(
                        file: typesPath, location: "record \(index + 1)", field: "id", problem: "'\(type.id)' is listed twice")
                }
                trainTypes.append(
                    TrainType(id: type.id, name: type.title["en"] ?? type.title.values.first ?? type.id, names: type.title))
            }
        }
        let timetableFolder = folder.appendingPathComponent("train-timetables")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: timetableFolder.path) else {
            return Timetable(trainTypes: trainTypes, zone: MiniTokyo3DImporter.zone)
        }
        let files = names.filter { $0.hasSuffix(".json") }.sorted().map { timetableFolder.appendingPathComponent($0).path }
        let context = TimetableContext(network: network)
        let results = Mutex([Result<[TimetabledTrain], ImportError>?](repeating: nil, count: files.count))
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let result = Result { () throws(ImportError) in try context.trains(inFile: files[index]) }
            results.withLock { $0[index] = result }
            let finished = done.add(1, ordering: .relaxed).newValue
            progress?(finished, files.count)
        }
        var trains: [TimetabledTrain] = []
        // A train id twice would be refused only by the writer, against the output file.
        var fileOfTrain: [String: Int] = [:]
        for (index, result) in results.withLock({ $0 }).enumerated() {
            guard let result else { continue }
            for train in try result.get() {
                if let first = fileOfTrain.updateValue(index, forKey: train.id) {
                    throw ImportError(
                        file: files[index], location: "train '\(train.id)'", field: "id",
                        problem: first == index ? "listed twice" : "also in \(files[first])")
                }
                trains.append(train)
            }
        }
        return Timetable(
            trainTypes: trainTypes, trains: trains, zone: MiniTokyo3DImporter.zone,
            calendar: .weekly(named: trains.map(\.service)))
    }
}

/// What a timetable file is checked against.
extension MiniTokyo3DImporter {
    /// The calendar a train runs on, from its id `<t>.<service>`: `Weekday`, `SaturdayHoliday`...
    /// A second or third variant of a train on the same calendar (`<t>.Weekday.2`) runs on that
    /// calendar too; taken whole, the name would be one no calendar knows, and the train would
    /// count as running every day. An id without the train's number: `Daily`.
    static func service(ofTrain id: String, number: String) -> String {
        guard id.hasPrefix(number + ".") else { return "Daily" }
        let service = id.dropFirst(number.count + 1)
        if let dot = service.lastIndex(of: "."), !service[service.index(after: dot)...].isEmpty,
            service[service.index(after: dot)...].allSatisfy(\.isASCII),
            service[service.index(after: dot)...].allSatisfy(\.isNumber)
        {
            return String(service[..<dot])
        }
        return String(service)
    }
}

private struct TimetableContext: Sendable {
    /// Station ids by railway, as the network holds them (shared strings).
    let stations: [String: [String: String]]
    let directions: [String: Set<String>]

    init(network: RailwayNetwork) {
        var stations: [String: [String: String]] = [:]
        var directions: [String: Set<String>] = [:]
        for railway in network.railways {
            stations[railway.id] = Dictionary(railway.stationIDs.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
            directions[railway.id] = [railway.ascendingName, railway.descendingName]
        }
        self.stations = stations
        self.directions = directions
    }

    func trains(inFile path: String) throws(ImportError) -> [TimetabledTrain] {
        let records = try JSONFile.decode([MiniTokyo3D.Train].self, path: path)
        var trains: [TimetabledTrain] = []
        trains.reserveCapacity(records.count)
        for record in records {
            let location = "train '\(record.id)'"
            guard let railwayStations = stations[record.r] else {
                throw ImportError(file: path, location: location, field: "r", problem: "unknown railway '\(record.r)'")
            }
            guard directions[record.r]?.contains(record.d) == true else {
                throw ImportError(
                    file: path, location: location, field: "d", problem: "'\(record.d)' is not a direction of \(record.r)")
            }
            var stops: [TimetableStop] = []
            stops.reserveCapacity(record.tt.count)
            for (index, call) in record.tt.enumerated() {
                guard let station = railwayStations[call.s] else {
                    throw ImportError(
                        file: path, location: location, field: "tt[\(index)].s",
                        problem: "'\(call.s)' is not a station of \(record.r)")
                }
                let arrival = try call.a.map { text throws(ImportError) in
                    try time(text, path: path, location: location, field: "tt[\(index)].a")
                }
                let departure = try call.d.map { text throws(ImportError) in
                    try time(text, path: path, location: location, field: "tt[\(index)].d")
                }
                stops.append(TimetableStop(stationID: station, arrival: arrival, departure: departure))
            }
            Self.pastMidnight(&stops)
            let service = MiniTokyo3DImporter.service(ofTrain: record.id, number: record.t)
            trains.append(
                TimetabledTrain(
                    id: record.id, railwayID: record.r, number: record.n, trainTypeID: record.y, directionName: record.d,
                    service: service, name: record.nm?.first.flatMap { $0["en"] ?? $0.values.first }, stops: stops,
                    previousTrainIDs: record.pt ?? [], nextTrainIDs: record.nt ?? []
                )
            )
        }
        return trains
    }

    /// Mini Tokyo 3D writes clock times (`00:05`, never `24:05`): a train first timed before
    /// this runs late at night on its timetable's day (no Tokyo railway starts its day before
    /// 4:00) ...
    static let lateNightBefore: Seconds = 3 * 3_600
    /// ... and a call timed this much earlier than the one before it is past midnight.
    static let wrapAround: Seconds = 12 * 3_600

    /// `stops` timed on their service day, as GTFS times them: past midnight is 24:00 and on,
    /// so a train's times only grow (before 2026-11-26 a train crossing midnight ran back to
    /// 00:00 and one leaving after it ran on its timetable's morning).
    static func pastMidnight(_ stops: inout [TimetableStop]) {
        guard let first = stops.lazy.compactMap({ $0.arrival ?? $0.departure }).first else { return }
        var offset: Seconds = first < lateNightBefore ? 86_400 : 0
        var previous = -Seconds.infinity
        func shifted(_ time: Seconds?) -> Seconds? {
            guard let time else { return nil }
            if time + offset < previous - wrapAround { offset += 86_400 }
            previous = time + offset
            return previous
        }
        for index in stops.indices {
            stops[index].arrival = shifted(stops[index].arrival)
            stops[index].departure = shifted(stops[index].departure)
        }
    }

    private func time(_ text: String, path: String, location: String, field: String) throws(ImportError) -> Seconds {
        guard let seconds = TimetableStop.seconds(fromClock: text) else {
            throw ImportError(file: path, location: location, field: field, problem: "not a time '\(text)'")
        }
        return seconds
    }
}
