import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// `traintracker export`: a session and its tracking results as GPX or GeoJSON.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a session and its tracking results as GPX or GeoJSON, for any map tool.",
        discussion: """
            Every fix carries the tracker's answer after it (railway, direction, station, phase); each railway \
            the tracker named is added as a line along its track.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case gpx, geojson
    }

    @OptionGroup var railways: RailwaysOption

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String

    @Option(
        name: .customLong("session"),
        help: ArgumentHelp("The session to export (needed when the file holds several).", valueName: "id"))
    var sessionID: String?

    @Option(help: "The tracking algorithm.")
    var algorithm: TrackingAlgorithmName = .default

    @Option(help: "gpx or geojson (default: from the --out extension).")
    var format: Format?

    @Option(help: ArgumentHelp("The file to write.", valueName: "path"))
    var out: String

    func validate() throws {
        if format == nil, !["gpx", "geojson", "json"].contains(URL(fileURLWithPath: out).pathExtension.lowercased()) {
            throw ValidationError("give --format gpx or geojson, or an --out name ending in .gpx or .geojson")
        }
    }

    func run() throws {
        _ = try CommandFailure.wrapping { () throws(StorageError) in try StagedFile(destination: out, replacing: true) }
        let model = try railways.loadModel(timetables: algorithm.usesTimetables)
        let network = model.network
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        let replayer = Replayer(model: model, algorithm: algorithm)
        let all = try replayer.selectSessions(database, ids: sessionID.map { [$0] } ?? [])
        guard all.count == 1, let summary = all.first else {
            throw CommandFailure("\(sessions): holds \(all.count) sessions; choose one with --session")
        }
        let (fixes, report) = try CommandFailure.wrapping { () throws(StorageError) in
            try database.fixes(sessionID: summary.session.id)
        }
        if !report.isClean { StandardError.line("warning: \(sessions): session \(summary.session.id): \(report.summary)") }
        var replayed: [ReplayedFix] = []
        replayer.replay(fixes) { replayed.append(ReplayedFix(fix: $0, result: $1)) }
        let exporter = JourneyExporter(network: network)
        let data: Data
        switch format ?? (URL(fileURLWithPath: out).pathExtension.lowercased() == "gpx" ? .gpx : .geojson) {
        case .gpx: data = Data(exporter.gpx(session: summary.session.id, replayed: replayed).utf8)
        case .geojson:
            do {
                data = try exporter.geoJSON(session: summary.session.id, replayed: replayed)
            } catch {
                throw CommandFailure("\(out): cannot encode GeoJSON (\(error))")
            }
        }
        try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(data, to: out) }
        StandardError.line("wrote \(out): \(replayed.count) fixes of session \(summary.session.id)")
    }
}
