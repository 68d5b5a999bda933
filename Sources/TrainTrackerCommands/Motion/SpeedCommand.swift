import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

extension SpeedFilterName: ExpressibleByArgument {}

/// `traintracker speed`: smoothed speed of a recording, or the filters scored on simulated rides.
struct SpeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speed",
        abstract: "Smooth a session's speed, or score the speed filters on simulated rides.",
        discussion: """
            With --sessions and --session: one row per fix, time, raw speed, smoothed speed (m/s), pace \
            (min/km, null when standing) and whether the phone is stopped, as CSV or JSON; --svg draws raw \
            vs smoothed speed with the stopped intervals shaded. Filters: exponential (alpha 0.75, the \
            time-agnostic baseline), window (mean of the last 15 s, at least 3 readings), decay (weights \
            halving every 4 s of age), kalman (constant velocity, weighted by each fix's accuracy, position \
            differences when the phone gives no speed). With --cases (a folder written by traintracker \
            simulate): every filter against the true speed, RMSE, false stops per hour of movement, and the \
            delay from a true stop of 10 s or more to the filter's.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, json, table
    }

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String?

    @Option(help: ArgumentHelp("The session to smooth.", valueName: "id"))
    var session: String?

    @Option(help: ArgumentHelp("A folder written by traintracker simulate: score every filter.", valueName: "directory"))
    var cases: String?

    @Option(help: "The filter for --session.")
    var filter: SpeedFilterName = .kalman

    @Option(help: "csv or json for --session; table or json for --cases (default: csv, table).")
    var format: Format?

    @Option(help: ArgumentHelp("Also draw raw vs smoothed speed as SVG (with --session).", valueName: "file"))
    var svg: String?

    @Flag(
        help: ArgumentHelp(
            "Hold each speed to the limit of its travel-diary leg (with --session).",
            discussion: "Standing 2, on foot or by bike 12, road 36, rail 45, metro 25 m/s; rail legs are named with --lines."))
    var legLimits = false

    @Option(help: ArgumentHelp("With --leg-limits: rail stations, as for diary.", valueName: "file"))
    var stations: String?

    @Option(help: ArgumentHelp("With --leg-limits: metro and commuter-rail lines, as for diary.", valueName: "file"))
    var lines: String?

    func validate() throws {
        switch (sessions, session, cases) {
        case (.some, .some, nil):
            if format == .table { throw ValidationError("--format table is for --cases; use csv or json") }
        case (nil, nil, .some):
            if format == .csv { throw ValidationError("--format csv is for --session; use table or json") }
            if svg != nil { throw ValidationError("--svg draws one session; give --sessions and --session") }
            if legLimits { throw ValidationError("--leg-limits is for --session") }
        default:
            throw ValidationError("give --sessions PATH --session ID, or --cases DIRECTORY")
        }
    }

    func run() throws {
        if let cases {
            try score(cases)
        } else if let sessions, let session {
            try smooth(sessions: sessions, session: session)
        }
    }

    private func smooth(sessions: String, session: String) throws {
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        let (fixes, report) = try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: session) }
        guard !fixes.isEmpty else { throw CommandFailure(StorageError.unknownSession(path: sessions, id: session)) }
        if !report.isClean { StandardError.line("traintracker: warning: \(sessions): session \(session): \(report.summary)") }
        var speedFilter = filter.makeFilter()
        var rows = fixes.map { fix in SpeedRow(fix: fix.location, estimate: speedFilter.update(fix.location)) }
        if legLimits { rows = try limitedByLegs(rows, database: database, session: session) }
        if let svg {
            let picture = SpeedPicture.svg(title: "\(session): \(filter.rawValue) filter", rows: rows)
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(picture.utf8), to: svg) }
        }
        let output = OutputSink.standardOutput()
        switch format ?? .csv {
        case .json:
            output.line("[" + rows.map(\.json).joined(separator: ",\n") + "]")
        default:
            output.line("time,rawSpeed,smoothedSpeed,paceMinutesPerKilometre,stopped")
            for row in rows { output.line(row.csv) }
        }
        output.flush()
    }

    /// `rows` with each speed held to its diary leg's limit.
    private func limitedByLegs(_ rows: [SpeedRow], database: SessionDatabase, session: String) throws -> [SpeedRow] {
        let activities = try CommandFailure.wrapping { () throws(StorageError) in
            try database.motionActivities(sessionID: session)
        }
        let railStations =
            try stations.map { path in
                try CommandFailure.wrapping { () throws(ImportError) in try DiaryLogs.stations(path: path) }
            } ?? []
        let railLines =
            try lines.map { path in
                try CommandFailure.wrapping { () throws(ImportError) in try RailLinesFile.lines(path: path, stationList: stations)
                }
            } ?? []
        let legs = TravelDiary.legs(
            fixes: rows.map(\.fix), activities: activities.map { ActivityReading(timestamp: $0.startDate, kind: $0.kind) },
            railStations: railStations, railLines: railLines)
        let named = Array(zip(legs, RailLineNaming.names(of: legs, lines: railLines)))
        let limited = LegSpeedLimits().limited(rows.map(\.estimate.speed), at: rows.map(\.fix.timestamp), legs: named)
        return zip(rows, limited).map { row, speed in
            var row = row
            row.estimate.speed = speed
            return row
        }
    }

    private func score(_ directory: String) throws {
        let loaded = try EvaluationCases.load(directory: directory)
        var progress = ProgressBar(label: "speed", total: SpeedFilterName.allCases.count)
        var scores: [SpeedFilterScore] = []
        for (index, name) in SpeedFilterName.allCases.enumerated() {
            var score = SpeedFilterScore(filter: name)
            for item in loaded.cases { score.add(fixes: item.fixes, truth: item.truth.fixes) }
            scores.append(score)
            progress.update(index + 1)
        }
        progress.finish()
        let output = OutputSink.standardOutput()
        if format == .json {
            let items = scores.map { score -> String in
                var object = JSONObjectWriter()
                object.string("filter", score.filter.rawValue)
                object.integer("fixes", score.fixes)
                object.number("rmse", score.rootMeanSquareError)
                object.number("falseStopsPerHour", score.falseStopsPerHour)
                object.integer("trueStops", score.stopDelays.count)
                object.integer("missedStops", score.missedStops)
                object.number("medianStopDelay", score.medianStopDelay)
                object.number("stopDelay90", score.stopDelay90)
                return object.finish()
            }
            output.line(JSONObjectWriter.array(items))
        } else {
            var rows = [["filter", "fixes", "RMSE m/s", "false stops/h", "true stops", "missed", "delay median", "delay p90"]]
            for score in scores {
                rows.append([
                    score.filter.rawValue, "\(score.fixes)", String(format: "%.2f", score.rootMeanSquareError),
                    String(format: "%.2f", score.falseStopsPerHour), "\(score.stopDelays.count)", "\(score.missedStops)",
                    score.medianStopDelay.map { String(format: "%.0f s", $0) } ?? "-",
                    score.stopDelay90.map { String(format: "%.0f s", $0) } ?? "-",
                ])
            }
            output.line(alignedTable(rows))
        }
        output.flush()
    }
}

/// One fix with its smoothed speed.
struct SpeedRow {
    var fix: Location
    var estimate: SpeedEstimate

    /// Minutes per kilometre, nil when standing or creeping.
    var pace: Double? { estimate.isStopped || estimate.speed < 0.3 ? nil : 1_000 / estimate.speed / 60 }

    var csv: String {
        func number(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "" }
        return "\(fix.timestamp.iso8601),\(number(fix.speed)),\(number(estimate.speed)),\(number(pace)),\(estimate.isStopped)"
    }

    var json: String {
        var object = JSONObjectWriter()
        object.string("time", fix.timestamp.iso8601)
        object.number("rawSpeed", fix.speed)
        object.number("smoothedSpeed", estimate.speed)
        object.number("paceMinutesPerKilometre", pace)
        object.raw("stopped", estimate.isStopped ? "true" : "false")
        return object.finish()
    }
}
