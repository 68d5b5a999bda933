import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerStorage

/// The cases of a `simulate` folder, loaded for scoring.
struct EvaluationCases {
    var cases: [(fixes: [RecordedFix], truth: CaseTruth)]

    /// Reads `DIR/sessions.sqlite` and `DIR/truth.json`.
    static func load(directory: String) throws(CommandFailure) -> EvaluationCases {
        let truthPath = URL(fileURLWithPath: directory).appendingPathComponent("truth.json").path
        let sessionsPath = URL(fileURLWithPath: directory).appendingPathComponent("sessions.sqlite").path
        let data: Data
        do {
            data = try InputFile.read(truthPath)
        } catch {
            throw CommandFailure("\(error) (make cases with traintracker simulate)")
        }
        let file: CasesFile
        do {
            file = try JSONDecoder().decode(CasesFile.self, from: data)
        } catch {
            throw CommandFailure("\(truthPath): not a truth file written by traintracker simulate")
        }
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessionsPath) }
        var cases: [(fixes: [RecordedFix], truth: CaseTruth)] = []
        for truth in file.cases {
            let fixes = try CommandFailure.wrapping { () throws(StorageError) in
                try database.fixes(sessionID: truth.sessionID).fixes
            }
            guard !fixes.isEmpty else {
                throw CommandFailure(StorageError.unknownSession(path: sessionsPath, id: truth.sessionID))
            }
            cases.append((fixes, truth))
        }
        return EvaluationCases(cases: cases)
    }

    /// Scores `algorithm` on every case.
    func score(_ algorithm: TrackingAlgorithmName, model: TrackerModel, evaluator: Evaluator = Evaluator()) -> [CaseScore] {
        cases.map { evaluator.score(fixes: $0.fixes, truth: $0.truth, tracker: algorithm.makeTracker(model: model)) }
    }
}

/// `traintracker evaluate`: scores algorithms on simulated cases.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score tracking algorithms on simulated cases against their ground truth, or on rides against a rider's log.",
        discussion: """
            Fixes from 90 s after the first departure are scored; after a change of trains, the walk, the \
            wait and the first 90 s of the second train are not. Railway: the best answer names the true \
            railway; direction: and its direction; focus: its station and phase appear in the truth within \
            ±20 s; next stop: its next stop (the focus station for algorithms that know no stops) is the \
            true next stop within ±20 s; eta ±1 min: while the train is on its way to the right next stop, \
            the expected arrival is within a minute of the true one. Locked: the answer settles on the true \
            railway and direction and \
            keeps it to the end; lock time: from the first departure (from the second train's departure \
            after a change of trains).
            """ + "\n\n" + LogEvaluation.discussion
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @OptionGroup var railways: RailwaysOption

    @Option(help: ArgumentHelp("A folder written by traintracker simulate.", valueName: "directory"))
    var cases: String?

    @Option(help: ArgumentHelp("Recorded rides to score against --log: an Eki session file.", valueName: "path"))
    var sessions: String?

    @Option(
        help: ArgumentHelp(
            "The rider's log: a GroundTruthLogger SQLite file or a CSV (time,event,station,railway,direction).", valueName: "path"
        ))
    var log: String?

    @Option(name: .customLong("session"), help: ArgumentHelp("With --log: use only this session (repeatable).", valueName: "id"))
    var sessionIDs: [String] = []

    // Unconditional: a western offset such as -07:00 starts with a dash.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --log: the offset from UTC of the log's local times and of the times printed, e.g. +09:00.", valueName: "offset"
        ))
    var utcOffset: String = "+00:00"

    @Option(name: .customLong("algorithm"), help: "Algorithms to score (repeatable).")
    var algorithms: [TrackingAlgorithmName] = [.default, .eki]

    @Option(help: "table or json.")
    var format: Format = .table

    @Flag(help: "Also score each session on its own.")
    var perSession = false

    @Option(help: ArgumentHelp("Also draw the scores per scenario as an SVG bar chart.", valueName: "file"))
    var svg: String?

    func validate() throws {
        guard (cases != nil) != (sessions != nil && log != nil), (sessions == nil) == (log == nil) else {
            throw ValidationError("give either --cases DIR, or --sessions FILE with --log FILE")
        }
        guard cases != nil || (!perSession && svg == nil) else {
            throw ValidationError("--per-session and --svg go with --cases")
        }
        guard parseUTCOffset(utcOffset) != nil else {
            throw ValidationError("--utc-offset must look like +09:00 or -05:30, got '\(utcOffset)'")
        }
    }

    func run() throws {
        if let sessions, let log {
            return try LogEvaluation(
                railways: railways, sessionsPath: sessions, logPath: log, sessionIDs: sessionIDs,
                utcOffset: parseUTCOffset(utcOffset) ?? 0, algorithms: algorithms, format: format
            ).run()
        }
        guard let cases else { throw ValidationError("give --cases DIR") }
        let dataset = try railways.loadDataset(timetables: algorithms.contains { $0.usesTimetables })
        let timetabled = TrackerModel(dataset: dataset)
        let untimed = TrackerModel(dataset: TransitDataset(network: dataset.network))
        let loaded = try EvaluationCases.load(directory: cases)
        var reports: [(algorithm: TrackingAlgorithmName, scores: [CaseScore])] = []
        var progress = ProgressBar(label: "evaluate", total: algorithms.count)
        for (index, algorithm) in algorithms.enumerated() {
            reports.append((algorithm, loaded.score(algorithm, model: algorithm.usesTimetables ? timetabled : untimed)))
            progress.update(index + 1)
        }
        progress.finish()
        if let svg {
            let chart = AccuracyChart.svg(
                title: "Accuracy on \(loaded.cases.count) simulated rides (\(URL(fileURLWithPath: cases).lastPathComponent))",
                reports: reports.map { ($0.algorithm.rawValue, $0.scores) })
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(chart.utf8), to: svg) }
        }
        let output = OutputSink.standardOutput()
        switch format {
        case .table: output.line(Self.table(reports, perSession: perSession))
        case .json: output.line(try Self.json(reports, perSession: perSession))
        }
        output.flush()
    }

    /// The report as aligned text: per algorithm, all cases then each scenario.
    static func table(_ reports: [(algorithm: TrackingAlgorithmName, scores: [CaseScore])], perSession: Bool) -> String {
        var rows = [
            [
                "algorithm", "cases", "sessions", "fixes", "railway", "direction", "focus", "next stop", "eta ±1 min",
                "locked", "median lock", "µs/fix",
            ]
        ]
        func row(_ algorithm: String, _ group: String, _ score: AlgorithmScore) -> [String] {
            [
                algorithm, group, "\(score.sessions)", "\(score.fixes)", percent(score.railwayAccuracy),
                percent(score.directionAccuracy),
                percent(score.focusAccuracy), percent(score.nextStopAccuracy), score.etaWithinMinuteShare.map(percent) ?? "-",
                percent(score.lockedShare),
                score.medianLockTime.map { "\(Int(displaying: $0)) s" } ?? "-", String(format: "%.1f", score.microsecondsPerFix),
            ]
        }
        for (algorithm, scores) in reports {
            rows.append(row(algorithm.rawValue, "all", AlgorithmScore(algorithm: algorithm.rawValue, scores: scores)))
            for scenario in Set(scores.compactMap(\.scenario)).sorted() {
                rows.append(
                    row(
                        algorithm.rawValue, scenario,
                        AlgorithmScore(algorithm: algorithm.rawValue, scores: scores.filter { $0.scenario == scenario })))
            }
            if perSession {
                for score in scores {
                    rows.append(
                        row(algorithm.rawValue, score.sessionID, AlgorithmScore(algorithm: algorithm.rawValue, scores: [score])))
                }
            }
        }
        return alignedTable(rows)
    }

    /// The report as JSON: per algorithm the summary, per scenario summaries, and optionally each session.
    static func json(_ reports: [(algorithm: TrackingAlgorithmName, scores: [CaseScore])], perSession: Bool) throws -> String {
        struct Report: Encodable {
            var summary: AlgorithmScore
            var scenarios: [String: AlgorithmScore]
            var sessions: [CaseScore]?
        }
        let body = reports.map { algorithm, scores in
            Report(
                summary: AlgorithmScore(algorithm: algorithm.rawValue, scores: scores),
                scenarios: Dictionary(
                    Set(scores.compactMap(\.scenario)).map { name in
                        (name, AlgorithmScore(algorithm: algorithm.rawValue, scores: scores.filter { $0.scenario == name }))
                    }, uniquingKeysWith: { first, _ in first }),
                sessions: perSession ? scores : nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            return String(decoding: try encoder.encode(body), as: UTF8.self)
        } catch {
            throw CommandFailure("cannot encode the report: \(error)")
        }
    }
}

/// `97.3 %`.
func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
