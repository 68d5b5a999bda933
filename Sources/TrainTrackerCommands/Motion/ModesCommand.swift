import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerServer
import TrainTrackerStorage

/// `traintracker modes`: the tracking modes a recording would have run through.
struct ModesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modes",
        abstract: "Replay a recording through the travel-diary recorder's tracking modes and estimate the battery saved.",
        discussion: """
            Modes: activelyMoving (10 m), stopped (100 m), notMoving (3 km), inFastVehicle (1 km), driven by \
            the fixes (Kalman-smoothed speed, same-location tests) and the session's motion activities. \
            Thresholds and the energy model (milliwatts per mode, and for best accuracy always on) come from \
            --config, the same file as `serve --config`, or the travel-diary defaults. Prints each change of \
            mode with the accuracy it would request and why, then the time in each mode and the energy \
            against always-on best accuracy (each change of mode costing what the file says, 0.4 mWh by \
            default). Without --session, one line per session: minutes per mode, changes, energy.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String

    @Option(help: ArgumentHelp("The session to replay (default: every session, one line each).", valueName: "id"))
    var session: String?

    @Option(help: ArgumentHelp("The recorder settings JSON (as for serve --config).", valueName: "file"))
    var config: String?

    @Option(help: "text or json.")
    var format: Format = .text

    // Unconditional: a western offset such as -07:00 starts with a dash.
    @Option(parsing: .unconditional, help: ArgumentHelp("Offset from UTC for the times shown, e.g. +03:00.", valueName: "offset"))
    var utcOffset: String = "+00:00"

    func validate() throws {
        try validateUTCOffset(utcOffset)
    }

    func run() throws {
        let settings =
            try config.map { path throws(CommandFailure) in
                try CommandFailure.wrapping { () throws(ServerError) in try RecorderSettings.load(path: path) }
            } ?? TrackingModeSettings()
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        let output = OutputSink.standardOutput()
        if let session {
            let day = try replay(session, in: database, settings: settings)
            switch format {
            case .text: printChanges(day, settings: settings, to: output)
            case .json: output.line(json(day, settings: settings))
            }
        } else {
            let ids = try CommandFailure.wrapping { () throws(StorageError) in try database.sessions().map(\.session.id) }
            if format == .text {
                output.line(
                    "session\tfixes\tactivelyMoving min\tstopped min\tnotMoving min\tinFastVehicle min\tchanges\tper hour\tmWh\talways on mWh\tsaved"
                )
            }
            for id in ids {
                let day = try replay(id, in: database, settings: settings)
                switch format {
                case .text: output.line(summaryLine(day))
                case .json: output.line(json(day, settings: settings))
                }
            }
        }
        output.flush()
    }

    /// One session's day through the modes.
    struct Day {
        var session: String
        var fixes: Int
        var start: Timestamp
        var transitions: [ModeTransition]
        var energy: ModeEnergy
    }

    private func replay(_ session: String, in database: SessionDatabase, settings: TrackingModeSettings) throws -> Day {
        let (fixes, report) = try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: session) }
        guard let first = fixes.first, let last = fixes.last else {
            throw CommandFailure(StorageError.unknownSession(path: sessions, id: session))
        }
        if !report.isClean { StandardError.line("traintracker: warning: \(sessions): session \(session): \(report.summary)") }
        let activities = try CommandFailure.wrapping { () throws(StorageError) in
            try database.motionActivities(sessionID: session)
        }
        let replay = ModeReplay(settings: settings, fixes: fixes.map(\.location), activities: activities)
        let energy = ModeEnergy(
            transitions: replay.transitions, start: first.location.timestamp, end: last.location.timestamp, settings: settings)
        return Day(
            session: session, fixes: fixes.count, start: first.location.timestamp, transitions: replay.transitions, energy: energy
        )
    }

    private func printChanges(_ day: Day, settings: TrackingModeSettings, to output: OutputSink) {
        let offset = parseUTCOffset(utcOffset) ?? 0
        let time = { (timestamp: Timestamp) in timestamp.timeOfDay(utcOffset: offset) }
        output.line("\(time(day.start)) \(ReplayFormatter.clockName(offset))  activelyMoving (10 m)  start")
        for change in day.transitions {
            let accuracy = Int(displaying: settings.desiredAccuracy[change.to] ?? 0)
            output.line("\(time(change.timestamp))  \(change.to.rawValue) (\(accuracy) m)  \(change.reason)")
        }
        for mode in TrackingMode.allCases {
            output.line("\(mode.rawValue): \(String(format: "%.1f", (day.energy.seconds[mode] ?? 0) / 60)) min")
        }
        output.line(String(format: "changes: %d, %.1f an hour", day.energy.changes, day.energy.changesPerHour))
        output.line(
            String(
                format: "energy: %.0f mWh in these modes and their changes, %.0f mWh with best accuracy always on: %.0f %% saved",
                day.energy.milliwattHours, day.energy.alwaysOnMilliwattHours, day.energy.saving * 100))
    }

    private func summaryLine(_ day: Day) -> String {
        let minutes = TrackingMode.allCases.map { String(format: "%.0f", (day.energy.seconds[$0] ?? 0) / 60) }
        return
            ([day.session, "\(day.fixes)"] + minutes + [
                "\(day.energy.changes)", String(format: "%.1f", day.energy.changesPerHour),
                String(format: "%.0f", day.energy.milliwattHours), String(format: "%.0f", day.energy.alwaysOnMilliwattHours),
                String(format: "%.0f %%", day.energy.saving * 100),
            ]).joined(separator: "\t")
    }

    private func json(_ day: Day, settings: TrackingModeSettings) -> String {
        var object = JSONObjectWriter()
        object.string("session", day.session)
        let changes = day.transitions.map { change -> String in
            var item = JSONObjectWriter()
            item.string("time", change.timestamp.iso8601)
            item.string("mode", change.to.rawValue)
            item.number("desiredAccuracy", settings.desiredAccuracy[change.to])
            item.string("reason", change.reason)
            return item.finish()
        }
        object.raw("transitions", JSONObjectWriter.array(changes))
        var seconds = JSONObjectWriter()
        for mode in TrackingMode.allCases { seconds.number(mode.rawValue, day.energy.seconds[mode] ?? 0) }
        object.raw("secondsPerMode", seconds.finish())
        object.integer("changes", day.energy.changes)
        object.number("changesPerHour", day.energy.changesPerHour)
        object.number("milliwattHours", day.energy.milliwattHours)
        object.number("alwaysOnMilliwattHours", day.energy.alwaysOnMilliwattHours)
        object.number("saving", day.energy.saving)
        return object.finish()
    }
}

/// The transitions of a recording's fixes and activity samples, merged in time order.
struct ModeReplay {
    var transitions: [ModeTransition] = []

    init(settings: TrackingModeSettings, fixes: [Location], activities: [MotionActivity]) {
        var machine = TrackingModeMachine(settings: settings)
        var next = 0
        for fix in fixes {
            while next < activities.count, activities[next].startDate <= fix.timestamp {
                machine.update(activity: ActivityReading(timestamp: activities[next].startDate, kind: activities[next].kind))
                next += 1
            }
            if let change = machine.update(fix) { transitions.append(change) }
        }
    }
}

extension MotionActivity {
    /// The single kind this sample stands for (the most specific of its flags).
    var kind: MotionKind {
        if automotive { return .automotive }
        if cycling { return .cycling }
        if running { return .running }
        if walking { return .walking }
        if stationary { return .stationary }
        return .unknown
    }
}
