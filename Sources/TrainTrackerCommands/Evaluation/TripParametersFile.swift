import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// The trip model's constants as a file: what `traintracker fit` writes and `--parameters FILE`
/// reads back. JSON, the constants by their tuning names, with what they were fitted on:
///
///     {"format": "traintracker-trip-model", "version": 5,
///      "fittedOn": ["vehicle-positions-2024-10-15.sqlite"], "rides": 111, "logLikelihood": -41234.5,
///      "constants": {"tripPositionScale": 21.3, "tripTimingScale": 24.0, ...}}
///
/// A constant left out keeps its value in the constants the file is read onto (the defaults;
/// for where a fit starts, the hand-set point); an unknown name, a value that is not a number or is
/// outside the model's range is refused with the file and the constant named.
struct TripParametersFile: Codable {
    static let formatName = "traintracker-trip-model"
    /// 2: the delay prior's early side has a scale of its own (`tripEarlyScale`); a version 1
    /// file's is its `tripOnTimeScale`, the one scale both sides had. 3: delays may jump by a
    /// disruption as well as a hold (`tripDisruptionRate`, `tripDisruptionMean`); an older
    /// file's model had none (rate 0). 4: a share of the delay prior lies anywhere near the
    /// timetable (`tripVagueShare`, `tripVagueScale`: none by default, as before) and a line's
    /// trips take the railway tracker's evidence of it (`tripLineStopsWeight`,
    /// `tripLineCourseWeight`, `tripLinePlaceWeight`); an older file's model took none (0).
    /// 5: stops count by how far apart the fixes they were read off lie
    /// (`tripLineStopsHalfInterval`), and at weight 1 by default; an older file that leaves
    /// `tripLineStopsWeight` out took none (0). A file that sets the delay prior (any of
    /// `tripOnTimeCentre` ... `tripLateMean`) describes its network: its prior holds on every line.
    /// 6: the arrival model (`arrivals`, an `ArrivalModel`) beside the constants; a file without
    /// one predicts arrivals from the trip's timeline (as before 6).
    static let currentVersion = 6

    var format = Self.formatName
    var version = Self.currentVersion
    /// The recordings (file names) the constants were fitted on.
    var fittedOn: [String] = []
    /// How many rides, and their log-likelihood under the constants.
    var rides = 0
    var logLikelihood = 0.0
    var constants: [String: Double] = [:]
    /// How delays evolve to the stops ahead, fitted after the constants.
    var arrivals: ArrivalModel?

    private enum CodingKeys: String, CodingKey {
        case format, version, fittedOn, rides, logLikelihood, constants, arrivals
    }

    /// Reads a file: `format` and `constants` are required, the rest may be left out.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.currentVersion
        fittedOn = try container.decodeIfPresent([String].self, forKey: .fittedOn) ?? []
        rides = try container.decodeIfPresent(Int.self, forKey: .rides) ?? 0
        logLikelihood = try container.decodeIfPresent(Double.self, forKey: .logLikelihood) ?? 0
        constants = try container.decode([String: Double].self, forKey: .constants)
        arrivals = try container.decodeIfPresent(ArrivalModel.self, forKey: .arrivals)
    }

    /// The file for `parameters`: every constant by its tuning name.
    init(parameters: TripModelParameters, fittedOn: [String], rides: Int, logLikelihood: Double) {
        self.fittedOn = fittedOn
        self.rides = rides
        self.logLikelihood = logLikelihood
        constants = TripModelParameters.tunables.mapValues { parameters[keyPath: $0] }
        arrivals = parameters.arrivalModel
    }

    /// The constants in the file at `path`.
    ///
    /// - Throws: `CommandFailure` naming the file: unreadable, not such a file, a newer
    ///   version, an unknown constant or one out of range.
    static func read(path: String, base: TripModelParameters = TripModelParameters()) throws(CommandFailure)
        -> TripModelParameters
    {
        let data = try CommandFailure.wrapping { () throws(ImportError) in try InputFile.read(path, maximumBytes: 1_048_576) }
        guard let file = try? JSONDecoder().decode(Self.self, from: data), file.format == formatName else {
            throw CommandFailure("\(path): not a trip model file (write one with traintracker fit)")
        }
        guard file.version <= currentVersion else {
            throw CommandFailure("\(path): version \(file.version) is newer than this traintracker reads (\(currentVersion))")
        }
        var parameters = base
        let paths = TripModelParameters.tunables
        for (name, value) in file.constants.sorted(by: { $0.key < $1.key }) {
            guard let constant = paths[name] else {
                throw CommandFailure("\(path): unknown constant \(name) (known: \(paths.keys.sorted().joined(separator: ", ")))")
            }
            parameters[keyPath: constant] = value
            guard value.isFinite, parameters.sanitised[keyPath: constant] == value else {
                throw CommandFailure("\(path): \(name) = \(value) is outside the trip model's range")
            }
        }
        if file.version < 2, file.constants["tripEarlyScale"] == nil { parameters.earlyScale = parameters.onTimeScale }
        if file.version < 3, file.constants["tripDisruptionRate"] == nil { parameters.disruptionRate = 0 }
        if file.version < 4 {
            let added: [(String, WritableKeyPath<TripModelParameters, Double>)] = [
                ("tripLineStopsWeight", \.lineStopsWeight), ("tripLineCourseWeight", \.lineCourseWeight),
                ("tripLinePlaceWeight", \.linePlaceWeight),
            ]
            for (name, path) in added where file.constants[name] == nil { parameters[keyPath: path] = 0 }
        }
        if file.version < 5, file.constants["tripLineStopsWeight"] == nil { parameters.lineStopsWeight = 0 }
        if !TripModelParameters.delayPriorNames.isDisjoint(with: file.constants.keys) { parameters.delayPriorLines = nil }
        if let arrivals = file.arrivals, arrivals.sanitised != arrivals {
            throw CommandFailure("\(path): arrivals is outside the arrival model's range")
        }
        parameters.arrivalModel = file.arrivals
        return parameters
    }

    /// Writes the file to `path` (beside it first, then moved into place).
    func write(to path: String) throws(CommandFailure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(self) else { throw CommandFailure("cannot encode the trip model") }
        try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(data, to: path) }
    }
}

/// `--parameters FILE`: the trip model's constants, for the commands that run it.
struct TripParametersOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "With the default algorithm: the trip model's constants, a file written by traintracker fit (without it, the compiled-in defaults: the fit on Caltrain's shared days).",
            valueName: "file"))
    var parameters: String?

    /// The constants in the file, if one was given, read onto `base` (what it leaves out).
    ///
    /// - Throws: `CommandFailure` naming the file and what is wrong with it.
    func loadFile(base: TripModelParameters = TripModelParameters()) throws(CommandFailure) -> TripModelParameters? {
        try parameters.map { path throws(CommandFailure) in try TripParametersFile.read(path: path, base: base) }
    }

    /// Refuses a file that nothing would read: the trip model runs only with the default
    /// algorithm.
    func validate(algorithms: [TrackingAlgorithmName]) throws {
        if parameters != nil, !algorithms.contains(.default) {
            throw ValidationError("--parameters goes with --algorithm default (the trip model's constants)")
        }
    }

    /// The constants in the file, or the defaults without one.
    func load() throws(CommandFailure) -> TripModelParameters { try loadFile() ?? TripModelParameters() }
}
