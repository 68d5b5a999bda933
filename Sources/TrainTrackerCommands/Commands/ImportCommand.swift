import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// `traintracker import`: converts railway data into an Eki railway file.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert mini-tokyo-3d, GTFS, rail-lines or Eki railway data into an Eki railway SQLite file with timetables.",
        discussion: """
            The output is the Eki Live railway schema (railway, station, segment, coordinate, segmentCoordinate \
            and their R-trees), readable by the Eki Live viewer, plus TrainTracker's trainType, train, trainStop, \
            stationUnderground and timetableInfo tables and trackerModel, the compiled timetable that replay, \
            evaluate and serve load in a fraction of the time (docs/formats.md). The file appears only when \
            complete.
            """
    )

    @Option(help: ArgumentHelp("The input format (default: detected).", valueName: "format"))
    var from: TransitFormat?

    @Argument(
        help: ArgumentHelp(
            "The input: a mini-tokyo-3d folder, a GTFS zip or folder, an Eki railway file or a rail-lines JSON file.",
            valueName: "path"))
    var input: String

    @Option(
        help: ArgumentHelp(
            "With a rail-lines JSON input: the station list its codes come from (Finland's trainStations.json).",
            valueName: "file"))
    var stations: String?

    @Option(
        help: ArgumentHelp(
            "With a rail-lines JSON input: GeoJSON track shapes to cut each line's track from (HSL's rail-metro-shapes.geojson).",
            valueName: "geojson"))
    var track: String?

    @Option(help: ArgumentHelp("The Eki railway file to write.", valueName: "path"))
    var out: String

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("GTFS route types to import (default: rail, 0 1 2 100-199).", valueName: "type"))
    var routeTypes: [Int] = []

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        // Refused before the input is read: an output that exists, is a folder or has no folder.
        do {
            _ = try StagedFile(destination: out, replacing: force)
        } catch .fileExists(let path) {
            throw CommandFailure("\(path): file exists; not overwriting it (use --force)")
        } catch {
            throw CommandFailure(error.description)
        }
        var railways = try RailwaysOption.parse(["--railways", input])
        railways.stations = stations
        railways.track = track
        railways.routeTypes = routeTypes
        let dataset = try railways.loadDataset(timetables: true, format: from)
        try CommandFailure.wrapping { () throws(StorageError) in try RailwayDatabase.write(dataset, to: out, replacing: force) }
        let elapsed = clock.now - started
        StandardError.line(
            "wrote \(out): \(dataset.network.railways.count) railways, \(dataset.network.stations.count) stations, "
                + "\(dataset.timetable.trains.count) trains, \(dataset.timetable.stopCount) calls in \(formatSeconds(elapsed.seconds))"
        )
    }
}

extension TransitFormat: ExpressibleByArgument {}

/// `1.23 s`.
func formatSeconds(_ seconds: Double) -> String {
    let hundredths = Int(displaying: seconds * 100)
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s"
}
