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
            against always-on best accuracy.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String

    @Option(help: ArgumentHelp("The session to replay.", valueName: "id"))
    var session: String

    @Option(help: ArgumentHelp("The recorder settings JSON (as for serve --config).", valueName: "file"))
    var config: String?

    @Option(help: "text or json.")
    var format: Format = .text

    // Unconditional: a western offset such as -07:00 starts with a dash.
    @Option(parsing: .unconditional, help: ArgumentHelp("Offset from UTC for the times shown, e.g. +03:00.", valueName: "offset"))
    var utcOffset: String = "+00:00"

    func validate() throws {
        guard parseUTCOffset(utcOffset) != nil else {
            throw ValidationError("--utc-offset must look like +09:00 or -05:30, got '\(utcOffset)'")
        }
    }

    func run() throws {
        let settings =
            try config.map { path throws(CommandFailure) in
                try CommandFailure.wrapping { () throws(ServerError) in try RecorderSettings.load(path: path) }
            } ?? TrackingModeSettings()
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
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
        let offset = parseUTCOffset(utcOffset) ?? 0
        let output = OutputSink.standardOutput()
        switch format {
        case .text:
            let time = { (timestamp: Timestamp) in timestamp.timeOfDay(utcOffset: offset) }
            output.line("\(time(first.location.timestamp))  activelyMoving (10 m)  start")
            for change in replay.transitions {
                let accuracy = Int(displaying: settings.desiredAccuracy[change.to] ?? 0)
                output.line("\(time(change.timestamp))  \(change.to.rawValue) (\(accuracy) m)  \(change.reason)")
            }
            for mode in TrackingMode.allCases {
                let seconds = energy.seconds[mode] ?? 0
                output.line("\(mode.rawValue): \(String(format: "%.1f", seconds / 60)) min")
            }
            output.line(
                String(
                    format: "energy: %.0f mWh in these modes, %.0f mWh with best accuracy always on: %.0f %% saved",
                    energy.milliwattHours, energy.alwaysOnMilliwattHours, energy.saving * 100))
        case .json:
            var object = JSONObjectWriter()
            object.string("session", session)
            let changes = replay.transitions.map { change -> String in
                var item = JSONObjectWriter()
                item.string("time", change.timestamp.iso8601)
                item.string("mode", change.to.rawValue)
                item.number("desiredAccuracy", settings.desiredAccuracy[change.to])
                item.string("reason", change.reason)
                return item.finish()
            }
            object.raw("transitions", JSONObjectWriter.array(changes))
            var seconds = JSONObjectWriter()
            for mode in TrackingMode.allCases { seconds.number(mode.rawValue, energy.seconds[mode] ?? 0) }
            object.raw("secondsPerMode", seconds.finish())
            object.number("milliwattHours", energy.milliwattHours)
            object.number("alwaysOnMilliwattHours", energy.alwaysOnMilliwattHours)
            object.number("saving", energy.saving)
            output.line(object.finish())
        }
        output.flush()
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
