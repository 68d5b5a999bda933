import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// The cases of a `simulate` folder, loaded for scoring.
struct EvaluationCases {
    var cases: [(fixes: [RecordedFix], truth: CaseTruth)]
    /// The conditions the cases were simulated under (the defaults for files of older versions).
    var conditions = RideConditions()
    /// The `--railways` they were simulated on.
    var railways = ""

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
        return EvaluationCases(cases: cases, conditions: file.conditions ?? RideConditions(), railways: file.railways)
    }

    /// The conditions' name when tracked on `railways` (whose network is `network`): "other
    /// map" when that is not the map the cases were simulated on. A file imported from the
    /// same feed is the same map: another path is read (`source`) and compared, railway by
    /// railway and station by station; one that cannot be read counts as another map.
    func conditionLabel(
        trackedOn railways: String, network: RailwayNetwork, source: (String) -> RailwayNetwork?
    ) -> String {
        let same =
            Self.canonical(self.railways) == Self.canonical(railways)
            || source(self.railways).map { $0.isSameMap(as: network) } ?? false
        return conditions.label + (same ? "" : " · other map")
    }

    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Scores `tracker` on every case.
    func score(_ tracker: () -> any TrackingAlgorithm, evaluator: Evaluator = Evaluator()) -> [CaseScore] {
        cases.map { evaluator.score(fixes: $0.fixes, truth: $0.truth, tracker: tracker()) }
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
            after a change of trains). Decided (--matrix decided): of the rides whose train is told apart \
            from every other service that ran its way through its boarding place within 30 minutes \
            (another train type of its railway, another railway with a station there) at some station of \
            the ride, where that service calls and the train passes, passes where it calls, or has left \
            its track, the share that settled on the true service (locked, and the true train type whenever \
            the answer names one before the train arrives) at most one station after the last such \
            station; JSON also counts the rides never told apart (untoldRides). Railway-alike (--matrix \
            railway-alike): the best answer names the true railway or that of a service not yet told apart \
            from the train at that fix, where two lines cannot yet be told apart, either. Stop shown right \
            (--matrix shown-stop): the best answer names a next stop, whatever its railway, and it is the \
            true service's next stop within ±20 s (a station at the same place counts); an answer that names \
            none, while services are not told apart, shows the next station as a station and counts as \
            neither right nor wrong. Undecided (--matrix undecided): the answer lists more than one service \
            still possible; undecided-time: the median seconds from the first departure (the second \
            train's, after a change) to the last such answer, 0 for a ride never undecided (JSON: medianUndecidedFor, and undecidedAtEnd, the rides still undecided at their end). \
            Several --cases folders (simulated under different conditions) are \
            reported side by side, one condition per folder; --matrix shows one measure as scenario × condition. \
            With --realtime, the default and the railway tracker are each scored twice: without the feeds \
            (default, railway) and told them (default-realtime, railway-realtime).
            """ + "\n\n" + RecordingEvaluation.discussion + "\n\n" + LogEvaluation.discussion + "\n\n"
                + PhoneLegEvaluation.discussion
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    /// What `--hold-out` leaves out of each fit: a service day.
    enum HoldOut: String, ExpressibleByArgument, CaseIterable {
        case day
    }

    @OptionGroup var railways: RailwaysOption

    @OptionGroup var realtime: RealtimeOption

    @Option(
        name: .customLong("cases"),
        help: ArgumentHelp("A folder written by traintracker simulate (repeatable: one per condition).", valueName: "directory"))
    var caseFolders: [String] = []

    @Option(help: ArgumentHelp("Recorded rides to score against --log: an Eki session file.", valueName: "path"))
    var sessions: String?

    @Option(
        help: ArgumentHelp(
            "Real rides: a recording of trains' positions (SQLite table train_locations, CSV trip_id,latitude,longitude,timestamp[,zone], or a GTFS-realtime archive: a folder of VehiclePositions feeds or one .pb feed) on the --railways GTFS feed they ran on (repeatable).",
            valueName: "path"))
    var recording: [String] = []

    @Option(
        name: .customLong("hold-out"),
        help: ArgumentHelp(
            "With --recording: 'day' scores each service day with the trip model fitted on the other days only (from the hand-set starting point, or --parameters).",
            valueName: "day"))
    var holdOut: HoldOut?

    @OptionGroup var tripModel: TripParametersOption

    @Option(
        name: .customLong("save-cases"),
        help: ArgumentHelp(
            "With --recording: also write its rides as a cases folder (sessions.sqlite, truth.json) for replay and --cases.",
            valueName: "directory"))
    var saveCases: String?

    @Option(
        help: ArgumentHelp(
            "With --recording or --cases: score late riders, each boarding this many seconds after its ride departs (warm-up and lock time from boarding).",
            valueName: "seconds"))
    var joinAfter: Double?

    @Option(
        help: ArgumentHelp(
            "The rider's log: a GroundTruthLogger SQLite file or a CSV (time,event,station,railway,direction).", valueName: "path"
        ))
    var log: String?

    @Option(
        help: ArgumentHelp(
            "Rides recorded with a GPX logger, scored against their notes: a folder of NAME.gpx files, each with NAME.csv (time,event,station,railway,direction) or waypoints named 'departure Shinagawa, Tokaido Line for Yokohama', 'arrival Kawasaki'.",
            valueName: "folder"))
    var rides: String?

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

    @Flag(help: "Also score the default algorithm without the timetables (the railway tracker's answer), as default-untimed.")
    var untimed = false

    @Option(
        help: ArgumentHelp(
            "Run the railway tracker (alone, or beneath the default) with a tuning constant changed (repeatable), e.g. positionWeight=0.3.",
            valueName: "name=value"))
    var tune: [String] = []

    @Option(help: "table or json.")
    var format: Format = .table

    @Flag(help: "Also score each session on its own.")
    var perSession = false

    @Option(help: "Print one measure as a matrix of scenario × condition instead of the table.")
    var matrix: EvaluationMeasure?

    @Option(
        help: ArgumentHelp(
            "Also draw the scores as SVG: bars per scenario, or with --matrix, the matrix as a heat map; with a manual log, every leg's answers.",
            valueName: "file"))
    var svg: String?

    mutating func validate() throws {
        // (`trips`, the default's name before it became the default, beside `default`: scored once.)
        var seen: Set<TrackingAlgorithmName> = []
        algorithms = algorithms.filter { seen.insert($0).inserted }
        if holdOut != nil, recording.isEmpty { throw ValidationError("--hold-out goes with --recording") }
        try tripModel.validate(algorithms: algorithms)
        if tripModel.parameters != nil, log != nil || rides != nil {
            throw ValidationError("--parameters goes with --cases or --recording")
        }
        if rides != nil {
            guard caseFolders.isEmpty, recording.isEmpty, sessions == nil, log == nil, sessionIDs.isEmpty, saveCases == nil,
                joinAfter == nil, matrix == nil, !perSession, svg == nil, !untimed, tune.isEmpty
            else {
                throw ValidationError(
                    "--rides goes without --cases, --recording, --sessions, --log, --session, --save-cases, --join-after, "
                        + "--matrix, --per-session, --svg, --untimed and --tune")
            }
            return try validateUTCOffset(utcOffset)
        }
        if !recording.isEmpty {
            guard caseFolders.isEmpty, sessions == nil, log == nil, matrix == nil, !perSession else {
                throw ValidationError("--recording goes without --cases, --sessions, --log, --matrix and --per-session")
            }
            _ = try tunedParameters()
            if let joinAfter, !(0...86_400).contains(joinAfter) {
                throw ValidationError("--join-after must be 0 to 86400 seconds")
            }
            return
        }
        guard saveCases == nil else { throw ValidationError("--save-cases goes with --recording") }
        if let joinAfter, !(0...86_400).contains(joinAfter) {
            throw ValidationError("--join-after must be 0 to 86400 seconds")
        }
        guard joinAfter == nil || !caseFolders.isEmpty else {
            throw ValidationError("--join-after goes with --recording or --cases")
        }
        guard !caseFolders.isEmpty != (sessions != nil && log != nil), (sessions == nil) == (log == nil) else {
            throw ValidationError(
                "give either --cases DIR, --recording FILE, --sessions FILE with --log FILE, or --rides FOLDER")
        }
        // (--svg with a log is judged once the log is read: only a manual log is drawn.)
        guard !caseFolders.isEmpty || (!perSession && (svg == nil || log != nil) && matrix == nil && !untimed)
        else {
            throw ValidationError("--per-session, --svg, --matrix and --untimed go with --cases (--svg also with a manual log)")
        }
        guard tune.isEmpty || !caseFolders.isEmpty || log.map(PhoneLegEvaluation.isManualLog(path:)) == true else {
            throw ValidationError("--tune goes with --cases or a TrafficSense manual log as --log")
        }
        try validateUTCOffset(utcOffset)
        _ = try tunedParameters()
    }

    /// The railway tracker's constants (`RailwayTracker.Parameters`) with `--tune` applied.
    func tunedParameters() throws(ValidationError) -> RailwayTracker.Parameters {
        var parameters = RailwayTracker.Parameters()
        for setting in tune {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let path = RailwayTracker.Parameters.tunable[parts[0]] else {
                throw ValidationError(
                    "--tune \(setting): expected NAME=VALUE with a NAME of \(RailwayTracker.Parameters.tunable.keys.sorted().joined(separator: ", "))"
                )
            }
            guard let value = Double(parts[1]), value.isFinite else { throw ValidationError("--tune \(setting): not a number") }
            parameters[keyPath: path] = value
        }
        return parameters
    }

    func run() throws {
        if let sessions, let log, PhoneLegEvaluation.isManualLog(path: log) {
            return try PhoneLegEvaluation(
                railways: railways, sessionsPath: sessions, logPath: log, utcOffset: parseUTCOffset(utcOffset) ?? 0,
                algorithms: algorithms, format: format, svgPath: svg, parameters: tunedParameters()
            ).run()
        }
        if let sessions, let log {
            if svg != nil {
                // The log's own problem first, then the option's.
                _ = try CommandFailure.wrapping { () throws(ImportError) in
                    try RiderLogFile.read(path: log, utcOffset: parseUTCOffset(utcOffset) ?? 0)
                }
                throw CommandFailure("--svg goes with --cases, --recording or a TrafficSense manual log as --log")
            }
            return try LogEvaluation(
                railways: railways, source: .sessions(path: sessions, log: log, ids: sessionIDs),
                utcOffset: parseUTCOffset(utcOffset) ?? 0, algorithms: algorithms, format: format
            ).run()
        }
        if let rides {
            return try LogEvaluation(
                railways: railways, source: .folder(path: rides), utcOffset: parseUTCOffset(utcOffset) ?? 0,
                algorithms: algorithms, format: format
            ).run()
        }
        let tripParameters = try tripModel.load()
        // Where a held-out fit starts: what the file leaves out is the hand-set point's.
        let fitStart = try tripModel.loadFile(base: .handSet) ?? .handSet
        // Real rides take their truth from the trips: the feed is read once, for them and the model.
        let dataset = try recording.isEmpty ? nil : railways.loadDataset(timetables: true)
        let timetabled =
            try dataset.map(TrackerModel.init(dataset:))
            ?? railways.loadModel(timetables: untimed || algorithms.contains { $0.usesTimetables })
        let untimedModel = TrackerModel(network: timetabled.network)
        let tuned = try tunedParameters()
        var variants: [RecordingEvaluation.Variant] = algorithms.map { algorithm in
            switch algorithm {
            case .default:
                return .init(name: "default", fitted: true) { TripTracker(model: timetabled, parameters: tuned, trips: $0) }
            case .railway:
                return .init(name: "railway", fitted: false) { _ in RailwayTracker(model: timetabled, parameters: tuned) }
            default:
                let model = algorithm.usesTimetables ? timetabled : untimedModel
                return .init(name: algorithm.rawValue, fitted: false) { _ in algorithm.makeTracker(model: model) }
            }
        }
        if untimed {
            // (Without a timetable the default answers as the railway tracker beneath it: the
            // railway tracker alone gives the same answers at an eighth of the cost.)
            variants.append(
                .init(name: "default-untimed", fitted: false) { _ in RailwayTracker(model: untimedModel, parameters: tuned) })
        }
        // With feeds, the default and the railway tracker twice: without them and with them.
        if let feeds = try realtime.feeds(model: timetabled) {
            if algorithms.contains(.default) {
                variants.append(
                    .init(name: "default-realtime", fitted: true) {
                        LiveTracker(TripTracker(model: timetabled, parameters: tuned, trips: $0), feeds: feeds)
                    })
            }
            if algorithms.contains(.railway) {
                variants.append(
                    .init(name: "railway-realtime", fitted: false) { _ in
                        LiveTracker(RailwayTracker(model: timetabled, parameters: tuned), feeds: feeds)
                    })
            }
        }
        if !recording.isEmpty, let dataset {
            return try RecordingEvaluation(
                dataset: dataset, model: timetabled, railwaysPath: railways.railways, recordingPaths: recording,
                variants: variants,
                tripParameters: tripParameters, fitStart: fitStart, holdOutDays: holdOut == .day, format: format,
                svgPath: svg,
                casesFolder: saveCases, joinAfter: joinAfter
            ).run()
        }
        var reports: [EvaluationReport] = []
        var progress = ProgressBar(label: "evaluate", total: caseFolders.count * variants.count)
        var sources: [String: RailwayNetwork?] = [:]
        var evaluator = Evaluator()
        evaluator.network = timetabled.network
        for folder in caseFolders {
            var loaded = try EvaluationCases.load(directory: folder)
            if let joinAfter { loaded.cases = loaded.cases.compactMap { RiderFeeds.joining($0, after: joinAfter) } }
            let condition = loaded.conditionLabel(trackedOn: railways.railways, network: timetabled.network) { path in
                if let known = sources[path] { return known }
                var source = railways
                source.railways = path
                let network = try? source.load()
                sources[path] = network
                return network
            }
            for variant in variants {
                reports.append(
                    EvaluationReport(
                        condition: condition, algorithm: variant.name,
                        scores: loaded.score({ variant.make(tripParameters) }, evaluator: evaluator)))
                progress.update(reports.count)
            }
        }
        progress.finish()
        if let svg {
            let chart: String
            if let matrix {
                chart = AccuracyMatrixChart.svg(
                    title: "\(matrix.title) per scenario and condition (\(reports.first?.scores.count ?? 0) rides each)",
                    measure: matrix, reports: reports)
            } else {
                chart = AccuracyChart.svg(
                    title: "Accuracy on \(reports.first?.scores.count ?? 0) simulated rides (\(reports.first?.condition ?? ""))",
                    reports: reports.map { ("\($0.algorithm) \($0.condition)", $0.scores) })
            }
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(chart.utf8), to: svg) }
        }
        let output = OutputSink.standardOutput()
        switch (format, matrix) {
        case (.table, nil): output.line(EvaluationReport.table(reports, perSession: perSession))
        case (.table, let measure?): output.line(EvaluationReport.matrix(reports, measure: measure))
        case (.json, _): output.line(try EvaluationReport.json(reports, perSession: perSession))
        }
        output.flush()
    }
}

/// `97.3 %`.
func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
