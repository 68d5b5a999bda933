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
            when complete. A session's id is the value of its CSV device, session or track column, or else the \
            file's name (with -2, -3 ... for a file's later tracks, and for a name already taken), and its fixes \
            are <session id>-00001, -00002 ...: the same files give the same ids on every run.
            """
    )

    @Argument(help: ArgumentHelp("Journey files: .gpx, .csv or .geojson.", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("The Eki session file to write.", valueName: "path"))
    var out: String

    @Flag(help: "Add the sessions to an existing file instead of creating one.")
    var append = false

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    // Unconditional: a western offset such as -07:00 starts with a dash.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Offset from UTC of times written without a zone, e.g. +03:00.", valueName: "offset"))
    var utcOffset: String = "+00:00"

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one journey file") }
        try validateUTCOffset(utcOffset)
    }

    func run() throws {
        // Refused before the journeys are read: an output that exists, is a folder or has no folder.
        if !append {
            do throws(StorageError) {
                _ = try StagedFile(destination: out, replacing: force)
            } catch .fileExists(let path) {
                throw CommandFailure("\(path): file exists; not overwriting it (use --force, or --append)")
            } catch {
                throw CommandFailure(error.description)
            }
        }
        var sessions: [(session: Session, fixes: [RecordedFix])] = []
        var activities: [MotionActivity] = []
        var names = SessionNames()
        if append {
            let existing = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: out).sessions()
            }
            names.taken = Set(existing.map(\.session.id))
        }
        for file in files {
            let tracks: [ImportedTrack]
            do throws(ImportError) {
                tracks = try JourneyFile.read(path: file, utcOffset: parseUTCOffset(utcOffset) ?? 0)
            } catch {
                throw CommandFailure(error.description)
            }
            let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            for track in tracks {
                let sorted = track.locations.sorted { $0.timestamp < $1.timestamp }
                guard let first = sorted.first, let last = sorted.last else { continue }
                let name = URL(fileURLWithPath: file).lastPathComponent + (track.name.map { " (\($0))" } ?? "")
                let id = names.claim(track.key ?? stem)
                sessions.append(
                    (
                        Session(id: id, startDate: first.timestamp, endDate: last.timestamp, notes: "imported from \(name)"),
                        track.locations.enumerated().map {
                            RecordedFix(id: SessionNames.item(id, $0.offset), location: $0.element)
                        }
                    ))
                activities += track.activities.enumerated().map {
                    MotionActivity(
                        importing: $0.element.reading, confidence: $0.element.confidence, sessionID: id,
                        id: SessionNames.item(id + "-activity", $0.offset))
                }
            }
        }
        // A new file appears complete or not at all; an appended one takes everything in one transaction.
        try CommandFailure.wrapping { () throws(StorageError) in
            if append {
                try SessionDatabase.openForWriting(path: out).insert(sessions, motionActivities: activities)
            } else {
                try SessionDatabase.create(path: out, replacing: force, sessions: sessions, motionActivities: activities)
            }
        }
        let activityCounts = Dictionary(grouping: activities, by: { $0.sessionID ?? "" }).mapValues(\.count)
        for (session, fixes) in sessions {
            let samples = activityCounts[session.id].map { ", \($0) motion activities" } ?? ""
            StandardError.line("imported session \(session.id): \(fixes.count) fixes\(samples), \(session.notes ?? "")")
        }
    }
}

/// Imported sessions' ids: the name the file gives (its session column's value, or the file's
/// name), made unique by -2, -3 ...; an item's id is its session's and its number.
struct SessionNames {
    /// Ids already used, in the file appended to or by this import.
    var taken: Set<String> = []
    /// The longest id kept from a name (a longer one is cut).
    static let longestName = 64

    /// A fresh id for a session the file names `name`.
    mutating func claim(_ name: String) -> String {
        let trimmed = String(name.printable.trimmingCharacters(in: .whitespaces).prefix(Self.longestName))
        let base = trimmed.isEmpty ? "session" : trimmed
        var id = base
        var number = 1
        while taken.contains(id) {
            number += 1
            id = "\(base)-\(number)"
        }
        taken.insert(id)
        return id
    }

    /// `SESSION-00001` for the item at `index` (from 0) of a session.
    static func item(_ session: String, _ index: Int) -> String {
        "\(session)-\(String(index + 1).leftPadded(5))"
    }
}

extension MotionActivity {
    /// A stored sample for an imported reading: confidence 75 and up is high, 50 and up medium.
    init(importing reading: ActivityReading, confidence: Double, sessionID: String, id: String) {
        self.init(
            id: id, startDate: reading.timestamp,
            confidence: confidence >= 75 ? .high : confidence >= 50 ? .medium : .low,
            stationary: reading.kind == .stationary, walking: reading.kind == .walking, running: reading.kind == .running,
            automotive: reading.kind == .automotive, cycling: reading.kind == .cycling, unknown: reading.kind == .unknown,
            sessionID: sessionID)
    }
}
