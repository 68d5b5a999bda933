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
            Each GPX <trk>, each CSV file (or, with a device, session, track or user column, each of its \
            values: the Helsinki file gives 8) and each GeoJSON file becomes one session. GPX: <time> per point, \
            <ele>, and speed, course and accuracy from common extensions. CSV: a header row with latitude, \
            longitude and timestamp columns (accuracy, speed, course, altitude optional; names matched loosely, \
            e.g. lat, lng, time, Speed (m/s)). GeoJSON: Point features with a time property, or a LineString \
            with coordTimes. All files are read before anything is written, and the file appears only \
            when complete.
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
        // Refused before the journeys are read: an output that exists, is a folder or has no folder.
        if !append {
            _ = try CommandFailure.wrapping { () throws(StorageError) in try StagedFile(destination: out, replacing: false) }
        }
        var sessions: [(session: Session, fixes: [RecordedFix])] = []
        var activities: [MotionActivity] = []
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
                let id = UUID().uuidString
                sessions.append(
                    (
                        Session(id: id, startDate: first.timestamp, endDate: last.timestamp, notes: "imported from \(name)"),
                        track.locations.map { RecordedFix(id: UUID().uuidString, location: $0) }
                    ))
                activities += track.activities.map {
                    MotionActivity(importing: $0.reading, confidence: $0.confidence, sessionID: id)
                }
            }
        }
        // A new file appears complete or not at all; an appended one takes everything in one transaction.
        try CommandFailure.wrapping { () throws(StorageError) in
            if append {
                try SessionDatabase.openForWriting(path: out).insert(sessions, motionActivities: activities)
            } else {
                try SessionDatabase.create(path: out, sessions: sessions, motionActivities: activities)
            }
        }
        let activityCounts = Dictionary(grouping: activities, by: { $0.sessionID ?? "" }).mapValues(\.count)
        for (session, fixes) in sessions {
            let samples = activityCounts[session.id].map { ", \($0) motion activities" } ?? ""
            StandardError.line("imported session \(session.id): \(fixes.count) fixes\(samples), \(session.notes ?? "")")
        }
    }
}

extension MotionActivity {
    /// A stored sample for an imported reading: confidence 75 and up is high, 50 and up medium.
    init(importing reading: ActivityReading, confidence: Double, sessionID: String) {
        self.init(
            id: UUID().uuidString, startDate: reading.timestamp,
            confidence: confidence >= 75 ? .high : confidence >= 50 ? .medium : .low,
            stationary: reading.kind == .stationary, walking: reading.kind == .walking, running: reading.kind == .running,
            automotive: reading.kind == .automotive, cycling: reading.kind == .cycling, unknown: reading.kind == .unknown,
            sessionID: sessionID)
    }
}
