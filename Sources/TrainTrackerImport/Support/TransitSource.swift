import Foundation
import TrainTrackerCore
import TrainTrackerStorage

/// The kinds of railway data TrainTracker reads.
public enum TransitFormat: String, Sendable, CaseIterable {
    /// An Eki railway SQLite file (with TrainTracker's timetable tables, if present).
    case eki
    /// A mini-tokyo-3d folder.
    case miniTokyo3D = "mini-tokyo-3d"
    /// A GTFS feed, zipped or as a folder.
    case gtfs
    /// A JSON file of metro and commuter-rail lines (`docs/helsinki/rail-lines-2016.json`):
    /// stations and stopping patterns, track drawn straight between stations.
    case railLines = "rail-lines"
}

/// Loads railway data in any of the formats TrainTracker reads, detecting which.
public enum TransitSource {
    /// The format of the data at `path`, or `nil` when it is none of them.
    ///
    /// A folder with `railways.json`, `stations.json` and `coordinates.json` is mini-tokyo-3d;
    /// a folder with `stops.txt` or a `.zip` file is GTFS; a `.json` file is rail lines; any
    /// other file is taken as Eki SQLite (and reported as such if it is not).
    public static func detectFormat(at path: String) -> TransitFormat? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            if MiniTokyo3DImporter.isDataset(at: path) { return .miniTokyo3D }
            if GTFSFeed.isFeed(at: path) { return .gtfs }
            return nil
        }
        if path.lowercased().hasSuffix(".json") { return .railLines }
        return path.lowercased().hasSuffix(".zip") ? .gtfs : .eki
    }

    /// Loads the dataset at `path` in `format` (detected when `nil`), with its timetable
    /// unless `timetables` is false. Rail lines look up station codes they lack in
    /// `stationList` (Finland's `trainStations.json`), take their track from the GeoJSON
    /// lines of `trackShapes` that fit their stations (`warn` names each line drawn straight
    /// for want of one) and have no timetable.
    ///
    /// - Throws: `ImportError` naming the file, record and field at fault; for Eki files,
    ///   the storage error's line as the problem.
    public static func load(
        path: String, format: TransitFormat? = nil, timetables: Bool = true, options: GTFSImporter.Options = .init(),
        warn: @Sendable (String) -> Void = { _ in }, progress: (@Sendable (Int, Int) -> Void)? = nil,
        stationList: String? = nil, trackShapes: String? = nil
    ) throws(ImportError) -> TransitDataset {
        guard let format = format ?? detectFormat(at: path) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw ImportError(
                    file: path,
                    problem:
                        "a folder that is neither mini-tokyo-3d (railways.json, stations.json, coordinates.json) nor GTFS (stops.txt)"
                )
            }
            throw ImportError(file: path, problem: "no such file")
        }
        switch format {
        case .miniTokyo3D:
            return try MiniTokyo3DImporter.load(path: path, timetables: timetables, progress: progress)
        case .gtfs:
            return try GTFSImporter.load(path: path, options: options, warn: warn)
        case .railLines:
            let lines = try RailLinesFile.lines(path: path, stationList: stationList)
            let built = RailLineRailways(lines: lines, shapes: try TrackShapesFile.shapes(at: trackShapes))
            if let warning = TrackShapesFile.straightWarning(path: trackShapes, railways: built.straight) { warn(warning) }
            do {
                return TransitDataset(network: try RailwayNetwork(railways: built.railways, stations: built.stations))
            } catch {
                throw ImportError(file: path, problem: error.description)
            }
        case .eki:
            do {
                return timetables
                    ? try RailwayDatabase.loadDataset(path: path) : TransitDataset(network: try RailwayDatabase.load(path: path))
            } catch {
                throw ImportError(storageError: error)
            }
        }
    }
}

extension TransitSource {
    /// Loads the data at `path` as `load` does, prepared for the default tracker. An Eki file
    /// that `traintracker import` wrote gives its compiled timetable, read in a fraction of the
    /// time and memory the trains take (`warn` is told when it must be compiled afresh).
    ///
    /// - Throws: as `load`.
    public static func loadModel(
        path: String, format: TransitFormat? = nil, timetables: Bool = true, options: GTFSImporter.Options = .init(),
        warn: @Sendable (String) -> Void = { _ in }, progress: (@Sendable (Int, Int) -> Void)? = nil,
        stationList: String? = nil, trackShapes: String? = nil
    ) throws(ImportError) -> TrackerModel {
        if (format ?? detectFormat(at: path)) == .eki {
            do {
                return try RailwayDatabase.loadModel(path: path, timetables: timetables, recompiled: warn)
            } catch {
                throw ImportError(storageError: error)
            }
        }
        return TrackerModel(
            dataset: try load(
                path: path, format: format, timetables: timetables, options: options, warn: warn, progress: progress,
                stationList: stationList, trackShapes: trackShapes))
    }
}

extension ImportError {
    /// The same problem as a storage error, with the file split out.
    public init(storageError: StorageError) {
        let line = storageError.description
        let path = storageError.path
        if line.hasPrefix(path + ": ") {
            self.init(file: path, problem: String(line.dropFirst(path.count + 2)))
        } else {
            self.init(file: path, problem: line)
        }
    }
}
