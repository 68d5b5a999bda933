import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// `traintracker import-sessions`: GPX, CSV and GeoJSON journeys into an Eki session file.
struct ImportSessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-sessions",
        abstract: "Read journeys from GPX, CSV or GeoJSON files into an Eki session SQLite file.",
        discussion: """
            Each GPX <trk>, each CSV file and each GeoJSON file becomes one session. GPX: <time> per point, \
            <ele>, and speed, course and accuracy from common extensions. CSV: a header row with latitude, \
            longitude and timestamp columns (accuracy, speed, course, altitude optional; names matched loosely, \
            e.g. lat, lng, time, Speed (m/s)). GeoJSON: Point features with a time property, or a LineString \
            with coordTimes. All files are read before anything is written.
            """
    )

    @Argument(help: ArgumentHelp("Journey files: .gpx, .csv or .geojson.", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("The Eki session file to write.", valueName: "path"))
    var out: String

    @Flag(help: "Add the sessions to an existing file instead of creating one.")
    var append = false

    // Unconditional: a western offset such as -07:00 starts with a dash.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Offset from UTC of times written without a zone, e.g. +03:00.", valueName: "offset"))
    var utcOffset: String = "+00:00"

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one journey file") }
        guard parseUTCOffset(utcOffset) != nil else {
            throw ValidationError("--utc-offset must look like +09:00 or -05:30, got '\(utcOffset)'")
        }
    }

    func run() throws {
        var sessions: [(session: Session, fixes: [RecordedFix])] = []
        for file in files {
            let tracks: [ImportedTrack]
            do throws(ImportError) {
                tracks = try JourneyFile.read(path: file, utcOffset: parseUTCOffset(utcOffset) ?? 0)
            } catch {
                throw CommandFailure(error.description)
            }
            for track in tracks {
                let sorted = track.locations.sorted { $0.timestamp < $1.timestamp }
                guard let first = sorted.first, let last = sorted.last else { continue }
                let name = URL(fileURLWithPath: file).lastPathComponent + (track.name.map { " (\($0))" } ?? "")
                sessions.append(
                    (
                        Session(
                            id: UUID().uuidString, startDate: first.timestamp, endDate: last.timestamp,
                            notes: "imported from \(name)"),
                        track.locations.map { RecordedFix(id: UUID().uuidString, location: $0) }
                    ))
            }
        }
        let database = try CommandFailure.wrapping { () throws(StorageError) in
            append ? try SessionDatabase.openForWriting(path: out) : try SessionDatabase.create(path: out)
        }
        do {
            try database.insert(sessions)
        } catch {
            if !append { try? FileManager.default.removeItem(atPath: out) }
            throw CommandFailure(error)
        }
        for (session, fixes) in sessions {
            StandardError.line("imported session \(session.id): \(fixes.count) fixes, \(session.notes ?? "")")
        }
    }
}
