import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// `traintracker evaluate --railways LINES.json --sessions PHONES --log manual_log.csv`: scores
/// algorithms on every metro and train leg of a TrafficSense manual log (the Helsinki
/// dataset), ridden with the phones of the session file (`PhoneRailLegs`).
struct PhoneLegEvaluation {
    /// The rail-lines file and its station list.
    var railways: RailwaysOption
    /// The session file of the phones: one session per phone, noted "device_id N".
    var sessionsPath: String
    /// The manual log.
    var logPath: String
    /// Offset of the log's local times from UTC, and of the times printed.
    var utcOffset: Seconds
    /// The algorithms to score.
    var algorithms: [TrackingAlgorithmName]
    /// table or json.
    var format: EvaluateCommand.Format
    /// Where to draw the first algorithm's answers, leg by leg, if anywhere.
    var svgPath: String?
    /// The railway tracker's constants (`--tune`), for the default and the railway tracker.
    var parameters = RailwayTracker.Parameters()

    /// The help's paragraph on this mode.
    static let discussion = """
        With a TrafficSense manual log as --log (manual_log.csv: vehicle_dep_time, vehicle_arr_time, line_type, \
        line_name, vehicle_dep_stop, vehicle_arr_stop) and --railways a rail-lines file, every SUBWAY and TRAIN \
        leg is replayed from the phone's fixes (the session noted device_id N) from 60 s before its departure to \
        its arrival, and scored from 120 s after departure: the line (the logged line, or one with the same stops \
        between the two stations), its direction, the next stop, the alighting station as the next stop on \
        the last stretch, and when the answer locked (from then to the leg's end right; seconds after the \
        departure and stations passed).
        """

    /// Whether the file at `path` is a TrafficSense manual log (its header names vehicle_dep_time).
    static func isManualLog(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4_096)) ?? Data()
        let firstLine = String(decoding: head.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return firstLine.contains("vehicle_dep_time")
    }

    /// One algorithm's score on one leg.
    struct Row: Encodable {
        var algorithm: String
        /// "train" or "metro".
        var kind: String
        var device: Int
        var logged: String
        var departure: String
        var from: String?
        var to: String?
        var rightLines: [String]
        var problem: String?
        var score: PhoneLegScore
        /// When the answer locked: seconds after the departure, and the leg's stations the
        /// train was past then (nil when it never did; stations nil off the leg's railway).
        var lockSeconds: Double?
        var lockStationsPassed: Int?
        /// The score as shares of what it counts.
        var shares: Shares
    }

    /// A score as shares (0–1) of what it counts, `nil` where nothing was counted: `line` and
    /// `direction` of the scored fixes, `nextStop` of those where the next stop is known,
    /// `alighting` of those on the last stretch.
    struct Shares: Encodable {
        var line: Double?
        var direction: Double?
        var nextStop: Double?
        var alighting: Double?
        /// Of the fixes where the next stop is known, those whose answer named it as a stop
        /// (not as the next station while undecided); of the scored fixes, those undecided.
        var stopShownRight: Double?
        var undecided: Double?

        init(_ score: PhoneLegScore) {
            func share(_ part: Int, _ whole: Int) -> Double? { whole == 0 ? nil : Double(part) / Double(whole) }
            line = share(score.line, score.fixes)
            direction = share(score.direction, score.fixes)
            nextStop = share(score.nextStop, score.nextStopKnown)
            alighting = share(score.alightingNamed, score.approach)
            stopShownRight = share(score.stopsShownRight, score.nextStopKnown)
            undecided = share(score.undecided, score.fixes)
        }
    }

    /// One algorithm's sum over the legs of one kind ("all", "train", "metro").
    struct Total: Encodable {
        var algorithm: String
        var kind: String
        var legs: Int
        var legsScored: Int
        var score: PhoneLegScore
        var shares: Shares
        /// Legs with fixes whose answer locked, and the medians over them.
        var legsLocked: Int
        var medianLockSeconds: Double?
        var medianLockStationsPassed: Double?
    }

    /// What `--format json` prints.
    struct Report: Encodable {
        /// Where the track came from.
        var track: String
        var legs: [Row]
        var totals: [Total]
    }

    /// Each algorithm's totals over all legs, the train legs and the metro legs.
    static func totals(_ rows: [Row]) -> [Total] {
        var totals: [Total] = []
        for algorithm in rows.map(\.algorithm).uniqued() {
            for kind in ["all", "train", "metro"] {
                let chosen = rows.filter { $0.algorithm == algorithm && (kind == "all" || $0.kind == kind) }
                let sum = chosen.reduce(PhoneLegScore()) { $0 + $1.score }
                let locked = chosen.filter { $0.lockSeconds != nil }
                totals.append(
                    Total(
                        algorithm: algorithm, kind: kind, legs: chosen.count,
                        legsScored: chosen.filter { $0.score.fixes > 0 }.count,
                        score: sum, shares: Shares(sum), legsLocked: locked.count,
                        medianLockSeconds: locked.compactMap(\.lockSeconds).median,
                        medianLockStationsPassed: locked.compactMap { $0.lockStationsPassed.map(Double.init) }.median))
            }
        }
        return totals
    }

    func run() throws(CommandFailure) {
        guard TransitSource.detectFormat(at: railways.railways) == .railLines else {
            throw CommandFailure(
                "\(railways.railways): a manual log is scored on a rail-lines JSON file (docs/helsinki/rail-lines-2016.json)")
        }
        let lines = try CommandFailure.wrapping { () throws(ImportError) in
            try RailLinesFile.lines(path: railways.railways, stationList: railways.stations)
        }
        let log = try CommandFailure.wrapping { () throws(ImportError) in
            try DiaryLogs.manualLog(path: logPath, utcOffset: utcOffset)
        }
        let shapes = try CommandFailure.wrapping { () throws(ImportError) in try TrackShapesFile.shapes(at: railways.track) }
        let fixes = try phoneFixes()
        let legs: PhoneRailLegs
        do {
            legs = try PhoneRailLegs(log: log, fixes: fixes, lines: lines, shapes: shapes)
        } catch {
            throw CommandFailure("\(railways.railways): \(error.description)")
        }
        if let warning = TrackShapesFile.straightWarning(path: railways.track, railways: legs.straight) {
            StandardError.line(warning)
        }
        guard !legs.legs.isEmpty else { throw CommandFailure("\(logPath): no SUBWAY or TRAIN legs with both times") }
        // A log on another clock than the phones finds their fixes hours away: say so.
        let withFixes = legs.legs.filter { !$0.fixes.isEmpty }.count
        if withFixes * 2 < legs.legs.count {
            StandardError.line(
                "warning: \(logPath): only \(withFixes) of \(legs.legs.count) rail legs have fixes of their phone; "
                    + "is --utc-offset the offset of the log's local times?")
        }
        let model = TrackerModel(network: legs.network)
        var rows: [Row] = []
        var drawn: [PhoneLegChart.Leg] = []
        var progress = ProgressBar(label: "evaluate", total: algorithms.count * legs.legs.count)
        for algorithm in algorithms {
            for leg in legs.legs {
                let names = Set(leg.accepted.map(\.railwayID)).sorted()
                var verdicts: [PhoneFixVerdict] = []
                let score = leg.score(tracker(algorithm, model: model)) { verdicts.append($0) }
                let lock = score.fixes > 0 ? PhoneLegLock(verdicts: verdicts) : nil
                let row = Row(
                    algorithm: algorithm.rawValue, kind: leg.kind, device: leg.logged.device, logged: leg.logged.label,
                    departure: leg.logged.start.timeOfDay(utcOffset: utcOffset), from: leg.from?.name, to: leg.to?.name,
                    rightLines: names, problem: leg.problem, score: score, lockSeconds: lock?.seconds,
                    lockStationsPassed: lock?.stations, shares: Shares(score))
                rows.append(row)
                if algorithm == algorithms.first, !verdicts.isEmpty {
                    drawn.append(PhoneLegChart.Leg(label: Self.label(row), verdicts: verdicts))
                }
                progress.update(rows.count)
            }
        }
        progress.finish()
        if let svgPath, let first = algorithms.first {
            let picture = PhoneLegChart.svg(
                title: "\(first.rawValue) on the metro and train legs of \(URL(fileURLWithPath: logPath).lastPathComponent), "
                    + "\(drawn.count) legs with fixes", legs: drawn)
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(picture.utf8), to: svgPath) }
        }
        let output = OutputSink.standardOutput()
        let track =
            railways.track == nil
            ? "track drawn straight between stations"
            : "track cut from \(URL(fileURLWithPath: railways.track ?? "").lastPathComponent)"
                + (legs.straight.isEmpty ? "" : " but for \(legs.straight.joined(separator: ", "))")
        switch format {
        case .table: output.line(Self.table(rows, utcOffset: utcOffset, track: track))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let report = Report(track: track, legs: rows, totals: Self.totals(rows))
            guard let data = try? encoder.encode(report) else { throw CommandFailure("cannot encode the report") }
            output.line(String(decoding: data, as: UTF8.self))
        }
        output.flush()
    }

    /// Each phone's fixes, by device number, from sessions noted "device_id N".
    private func phoneFixes() throws(CommandFailure) -> [Int: [Location]] {
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessionsPath) }
        let summaries = try CommandFailure.wrapping { () throws(StorageError) in try database.sessions() }
        var fixes: [Int: [Location]] = [:]
        for summary in summaries {
            guard let device = DiaryCommand.device(in: summary.session.notes) else { continue }
            let recorded = try CommandFailure.wrapping { () throws(StorageError) in
                try database.fixes(sessionID: summary.session.id).fixes
            }
            fixes[device, default: []] += recorded.map(\.location)
        }
        guard !fixes.isEmpty else {
            throw CommandFailure(
                "\(sessionsPath): no session names its phone by \"device_id N\" in its notes (import-sessions writes that)")
        }
        return fixes.mapValues { $0.sorted { $0.timestamp < $1.timestamp } }
    }

    /// A fresh tracker of `algorithm` over `model`, with `parameters` where it takes them.
    func tracker(_ algorithm: TrackingAlgorithmName, model: TrackerModel) -> any TrackingAlgorithm {
        switch algorithm {
        case .default: TripTracker(model: model, parameters: parameters)
        case .railway: RailwayTracker(model: model, parameters: parameters)
        case .eki, .schedule: algorithm.makeTracker(model: model)
        }
    }

    /// "phone 1 · SUBWAY V · 09:31 Ruoholahti → Helsingin yliopisto".
    static func label(_ row: Row) -> String {
        "phone \(row.device) · \(row.logged) · \(row.departure.prefix(5)) \(row.from ?? "?") → \(row.to ?? "?")"
    }

    /// Per leg, then the totals per algorithm and kind.
    static func table(_ rows: [Row], utcOffset: Seconds, track: String = "track drawn straight between stations") -> String {
        func share(_ part: Int, _ whole: Int) -> String { whole == 0 ? "-" : percent(Double(part) / Double(whole)) }
        var table = [
            [
                "algorithm", "device", "leg", "departed (\(ReplayFormatter.clockName(utcOffset)))", "from → to", "fixes", "line",
                "direction", "next stop", "alighting", "locked",
                "right lines",
            ]
        ]
        for row in rows {
            let score = row.score
            table.append([
                row.algorithm, "\(row.device)", row.logged.printable, row.departure,
                "\(row.from ?? "?") → \(row.to ?? "?")".printable,
                "\(score.fixes)", share(score.line, score.fixes), share(score.direction, score.fixes),
                share(score.nextStop, score.nextStopKnown), "\(score.alightingNamed)/\(score.approach)",
                Self.lockText(seconds: row.lockSeconds, stations: row.lockStationsPassed.map(Double.init)),
                (row.problem ?? row.rightLines.joined(separator: ", ")).printable,
            ])
        }
        var totals = [
            [
                "algorithm", "legs", "legs scored", "fixes", "line", "direction", "next stop", "stop shown right", "undecided",
                "alighting", "locked", "median lock",
            ]
        ]
        for total in Self.totals(rows) {
            let sum = total.score
            totals.append([
                "\(total.algorithm) \(total.kind)", "\(total.legs)", "\(total.legsScored)", "\(sum.fixes)",
                share(sum.line, sum.fixes), share(sum.direction, sum.fixes), share(sum.nextStop, sum.nextStopKnown),
                share(sum.stopsShownRight, sum.nextStopKnown), share(sum.undecided, sum.fixes),
                share(sum.alightingNamed, sum.approach), "\(total.legsLocked)",
                Self.lockText(seconds: total.medianLockSeconds, stations: total.medianLockStationsPassed),
            ])
        }
        return alignedTable(table) + "\n\n" + alignedTable(totals)
            + "\n\nscored from \(Int(PhoneRailLegs.warmUp)) s after each logged departure to its arrival; 'next stop' over fixes "
            + "within \(Int(PhoneRailLegs.offTrack)) m of the line (the next station shown while undecided counts); 'stop shown right': "
            + "of those, named as a stop and right; 'undecided': the answer listed more than one service still possible; 'alighting': fixes on the last stretch whose next stop was the "
            + "alighting station; 'locked': after the departure, the answer named a right line the right way from then to the "
            + "leg's end (in seconds and the leg's stations passed); \(track)"
    }

    /// "95 s, 1 station", "-" when it never locked.
    static func lockText(seconds: Double?, stations: Double?) -> String {
        guard let seconds else { return "-" }
        guard let stations else { return "\(Int(displaying: seconds)) s" }
        let count = stations == stations.rounded() ? "\(Int(displaying: stations))" : "\(stations)"
        return "\(Int(displaying: seconds)) s, \(count) station\(stations == 1 ? "" : "s") passed"
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, each once.
    fileprivate func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
