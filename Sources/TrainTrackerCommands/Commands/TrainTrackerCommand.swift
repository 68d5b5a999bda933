import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// `traintracker`: which railway, which direction, which station next, from GPS alone.
public struct TrainTrackerCommand: ParsableCommand {
    /// The command's name, summary and subcommands.
    /// The version `--version` prints (CHANGELOG.md).
    public static let version = "0.16.0-dev"

    public static let configuration = CommandConfiguration(
        commandName: "traintracker",
        abstract:
            "Tells a train rider which railway they are on, which way it goes and what the next station is, from GPS fixes alone.",
        version: TrainTrackerCommand.version,
        subcommands: [
            DemoCommand.self, ReplayCommand.self, SessionsCommand.self, NetworkCommand.self, BenchCommand.self,
            JourneyCommand.self, ImportCommand.self, ImportSessionsCommand.self, ExportCommand.self, SimulateCommand.self,
            EvaluateCommand.self, ServeCommand.self, TokenCommand.self, ExportSessionsCommand.self, LoadCommand.self,
            SpeedCommand.self, ModesCommand.self,
            DiaryCommand.self, BudgetCommand.self, SightCommand.self, RecordingFeedCommand.self, FitCommand.self,
            PlatformsCommand.self,
        ]
    )

    /// The root command, as ArgumentParser creates it.
    public init() {}

    /// Parses the process arguments and runs the command: bad input is one line on stderr
    /// and exit status 2; usage errors are ArgumentParser's.
    public static func runMain() async -> Never {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let failure as CommandFailure {
            StandardError.line("traintracker: error: \(failure)")
            Foundation.exit(CommandFailure.exitStatus)
        } catch {
            exit(withError: error)
        }
    }
}

/// The `--railways PATH` option: an Eki railway file, a mini-tokyo-3d folder or a GTFS feed.
struct RailwaysOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Railway data: an Eki railway SQLite file, a mini-tokyo-3d folder, a GTFS feed (zip or folder) or a rail-lines JSON file.",
            valueName: "path"))
    var railways: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With a rail-lines JSON file: the station list its codes come from (Finland's trainStations.json).",
            valueName: "file"))
    var stations: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With a rail-lines JSON file: GeoJSON track shapes to cut each line's track from (HSL's rail-metro-shapes.geojson); without, track is drawn straight between stations.",
            valueName: "geojson"))
    var track: String?

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("GTFS route types to import (default: rail, 0 1 2 100-199).", valueName: "type"))
    var routeTypes: [Int] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where trains stand at stations, a file traintracker platforms wrote (without it, at the stations' points).",
            valueName: "file"))
    var platforms: String?

    /// The network alone.
    func load() throws(CommandFailure) -> RailwayNetwork {
        try loadDataset(timetables: false).network
    }

    /// The network prepared for the default tracker, with its timetable when `timetables` is
    /// true (compiled, from a file `import` wrote).
    func loadModel(timetables: Bool) throws(CommandFailure) -> TrackerModel {
        // (The file first: a bad one is refused before a long import.)
        let learnt = try learntPlatforms()
        let model = try loading { options, warn, progress throws(ImportError) in
            try TransitSource.loadModel(
                path: railways, timetables: timetables, options: options, warn: warn, progress: progress, stationList: stations,
                trackShapes: track)
        }
        guard let learnt else { return model }
        let placed = model.placing(learnt)
        warnUnplaced(placed.unplaced)
        return placed.model
    }

    /// The platforms of `--platforms`, if given.
    private func learntPlatforms() throws(CommandFailure) -> [LearntPlatform]? {
        try platforms.map { path throws(CommandFailure) in try PlatformsFile.read(path: path) }
    }

    /// Says on standard error how many learnt platforms this network cannot place.
    private func warnUnplaced(_ unplaced: [LearntPlatform]) {
        guard let first = unplaced.first, let path = platforms else { return }
        StandardError.line(
            "traintracker: warning: \(path): \(unplaced.count) platforms cannot be placed on this network "
                + "(a railway or station it lacks, a span too wide) (first: \(PlatformsFile.printable(first.stationID)) on \(PlatformsFile.printable(first.railwayID))), left out"
        )
    }

    /// The network with its timetable when `timetables` is true.
    func loadDataset(timetables: Bool, format: TransitFormat? = nil) throws(CommandFailure) -> TransitDataset {
        let learnt = try learntPlatforms()
        var dataset = try loading { options, warn, progress throws(ImportError) in
            try TransitSource.load(
                path: railways, format: format, timetables: timetables, options: options, warn: warn, progress: progress,
                stationList: stations, trackShapes: track)
        }
        guard let learnt else { return dataset }
        let placed = dataset.network.placing(learnt)
        warnUnplaced(placed.unplaced)
        dataset.network = placed.network
        return dataset
    }

    /// Runs `load` with the GTFS options, warnings on standard error and progress drawn there
    /// when it is a terminal; its error as the command's.
    private func loading<Value>(
        _ load: (GTFSImporter.Options, @escaping @Sendable (String) -> Void, (@Sendable (Int, Int) -> Void)?) throws(ImportError)
            -> Value
    ) throws(CommandFailure) -> Value {
        let report = ProgressReport()
        let update: @Sendable (Int, Int) -> Void = { done, total in report.update(done, total) }
        defer { report.finish() }
        do throws(ImportError) {
            return try load(
                GTFSImporter.Options(routeTypes: routeTypes.isEmpty ? nil : Set(routeTypes)), { StandardError.line($0) },
                report.isEnabled ? update : nil)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

/// Progress of work done on other threads, drawn on standard error when it is a terminal.
final class ProgressReport: @unchecked Sendable {
    let isEnabled = StandardError.isTerminal
    private let lock = NSLock()

    func update(_ done: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        var bar = ProgressBar(label: "timetables", total: total)
        bar.update(done, detail: "\(done)/\(total) files")
    }

    func finish() {
        guard isEnabled else { return }
        ProgressBar(label: "", total: 1).finish()
    }
}

extension TrackingAlgorithmName: ExpressibleByArgument {
    /// A case's name, or `trips` for the default (its name before it became the default).
    public init?(argument: String) { self.init(named: argument) }
}
extension ReplayFormat: ExpressibleByArgument {}

/// Checks a command's `--utc-offset` text, for its `validate()`.
/// - Throws: `ValidationError` saying what an offset looks like.
func validateUTCOffset(_ text: String) throws {
    guard parseUTCOffset(text) != nil else {
        throw ValidationError("--utc-offset must look like +09:00 or -05:30, got '\(text)'")
    }
}

/// Parses `+09:00`, `-05:30` or `9` into seconds.
func parseUTCOffset(_ text: String) -> Seconds? {
    let sign: Double = text.hasPrefix("-") ? -1 : 1
    let body = text.trimmingCharacters(in: CharacterSet(charactersIn: "+-"))
    let parts = body.split(separator: ":")
    guard (1...2).contains(parts.count), let hours = Double(parts[0]), hours <= 14 else { return nil }
    let minutes = parts.count == 2 ? Double(parts[1]) : 0
    guard let minutes, minutes < 60 else { return nil }
    return sign * (hours * 3600 + minutes * 60)
}
