import Foundation
import Synchronization
import TrainTrackerCore
import TrainTrackerStorage

/// Replays recorded sessions through a tracking algorithm, in timestamp order.
public struct Replayer: Sendable {
    /// The network (and timetable) tracked against.
    public let model: TrackerModel
    /// The algorithm to run.
    public let algorithm: TrackingAlgorithmName
    /// GTFS-realtime feeds the default and the railway tracker are told at each fix (`--realtime`).
    public var feeds: LiveFeeds?
    /// The trip model's constants (the default algorithm; `--parameters FILE`).
    public var tripParameters = TripModelParameters()

    /// The network tracked against.
    public var network: RailwayNetwork { model.network }

    /// A replayer of `algorithm` over `model`.
    public init(model: TrackerModel, algorithm: TrackingAlgorithmName) {
        self.model = model
        self.algorithm = algorithm
    }

    /// The sessions of `database` to replay: all of them, or those named in `ids` (in start order).
    ///
    /// - Throws: `CommandFailure` naming the file and the first unknown id.
    public func selectSessions(_ database: SessionDatabase, ids: [String]) throws(CommandFailure) -> [SessionSummary] {
        let all = try CommandFailure.wrapping { () throws(StorageError) in try database.sessions() }
        guard !ids.isEmpty else { return all }
        let known = Set(all.map(\.session.id))
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw CommandFailure(StorageError.unknownSession(path: database.path, id: unknown))
        }
        let wanted = Set(ids)
        return all.filter { wanted.contains($0.session.id) }
    }

    /// Runs a fresh tracker over `fixes` and hands each fix with its result to `body`.
    public func replay(_ fixes: [RecordedFix], _ body: (RecordedFix, TrackingResult) -> Void) {
        var tracker = algorithm.makeTracker(model: model, feeds: feeds, trips: tripParameters)
        for fix in fixes {
            body(fix, tracker.process(fix.location))
        }
    }

    /// Like `replay`, with each hypothesis's evidence at each fix (the railway tracker's, alone
    /// or beneath the default; none for the baselines).
    public func replayExplaining(
        _ fixes: [RecordedFix], _ body: (RecordedFix, TrackingResult, [EvidenceExplanation]) -> Void
    ) {
        switch algorithm {
        case .default: explaining(TripTracker(model: model, trips: tripParameters), fixes, body)
        case .railway: explaining(RailwayTracker(model: model), fixes, body)
        case .eki, .schedule: replay(fixes) { body($0, $1, []) }
        }
    }

    private func explaining<Tracker: LiveInformed & ExplainingTracker>(
        _ tracker: Tracker, _ fixes: [RecordedFix], _ body: (RecordedFix, TrackingResult, [EvidenceExplanation]) -> Void
    ) {
        var tracker = tracker
        tracker.explains = true
        for fix in fixes {
            tracker.live = feeds?.latest(atOrBefore: fix.location.timestamp)
            let result = tracker.process(fix.location)
            body(fix, result, tracker.explanation(limit: 8))
        }
    }

    /// Replays `sessions` of `database` and writes the results to `output` in `format`;
    /// each session's skipped fixes are counted in a warning through `warn`, and the pictures
    /// written are said there too.
    ///
    /// With `pictureDirectory`, each session is also drawn as `<directory>/<session id>.svg`.
    /// With `jobs` above 1, that many sessions are replayed at once (each on its own tracker)
    /// and written in order: faster on a machine with as many cores, at the memory of the
    /// results of a batch (`jobs` × `sessionsPerJob` sessions) held at once.
    public func run(
        sessions: [SessionSummary], database: SessionDatabase, format: ReplayFormat, utcOffset: Seconds,
        pictureDirectory: String? = nil, explains: Bool = false, jobs: Int = 1, output: OutputSink,
        warn: (String) -> Void
    ) throws(CommandFailure) {
        let formatter = ReplayFormatter(network: network, utcOffset: utcOffset)
        var progress = ProgressBar(label: "replay", total: sessions.count)
        // Several sessions per job in each batch, so that one long session does not leave the
        // other cores idle until it ends.
        let width = jobs > 1 ? jobs * Self.sessionsPerJob : 1
        var done = 0
        var pictures = 0
        while done < sessions.count {
            let batch = Array(sessions[done..<min(done + width, sessions.count)])
            var loaded: [(summary: SessionSummary, fixes: [RecordedFix])] = []
            for summary in batch {
                let id = summary.session.id
                let (fixes, report) = try CommandFailure.wrapping { () throws(StorageError) in
                    try database.fixes(sessionID: id)
                }
                if !report.isClean { warn("warning: \(database.path): session \(id): \(report.summary)") }
                loaded.append((summary, fixes))
            }
            let results = replayed(
                loaded, format: format, formatter: formatter, explains: explains, drawing: pictureDirectory != nil,
                first: done == 0, output: output)
            for (index, result) in results.enumerated() {
                output.write(utf8: result.text)
                if let pictureDirectory, let picture = result.picture {
                    try writePicture(picture, directory: pictureDirectory, sessionID: loaded[index].summary.session.id)
                    pictures += 1
                }
            }
            done += batch.count
            progress.update(done, detail: "\(done)/\(sessions.count) sessions")
        }
        progress.finish()
        output.flush()
        if let pictureDirectory {
            warn(
                "wrote \(pictures) picture\(pictures == 1 ? "" : "s") to \(pictureDirectory) (<session id>.svg: a map and a timeline)"
            )
        }
    }

    /// Sessions per job in a batch replayed side by side.
    static let sessionsPerJob = 4

    /// What replaying one session gives: its text (when kept to be written in order), and its picture.
    private struct SessionResult: Sendable {
        var text: [UInt8] = []
        var picture: String?
    }

    /// Replays each of `loaded` on a tracker of its own: one straight to `output`, several side
    /// by side, each kept whole until written in order.
    private func replayed(
        _ loaded: [(summary: SessionSummary, fixes: [RecordedFix])], format: ReplayFormat, formatter: ReplayFormatter,
        explains: Bool, drawing: Bool, first: Bool, output: OutputSink
    ) -> [SessionResult] {
        guard loaded.count > 1 else {
            return loaded.map {
                replayed($0.summary, $0.fixes, format, formatter, explains, drawing, first: first) {
                    output.write(utf8: $0)
                }
            }
        }
        let results = Mutex(Array(repeating: SessionResult(), count: loaded.count))
        DispatchQueue.concurrentPerform(iterations: loaded.count) { index in
            var kept: [UInt8] = []
            var result = replayed(
                loaded[index].summary, loaded[index].fixes, format, formatter, explains, drawing, first: first && index == 0
            ) { kept.append(contentsOf: $0) }
            result.text = kept
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }
    }

    /// Bytes of a session's text handed over at once.
    static let chunk = 1 << 16

    /// One session's text, handed to `emit` a chunk at a time, and its picture.
    private func replayed(
        _ summary: SessionSummary, _ fixes: [RecordedFix], _ format: ReplayFormat, _ formatter: ReplayFormatter,
        _ explains: Bool, _ drawing: Bool, first: Bool, emit: @escaping (UnsafeBufferPointer<UInt8>) -> Void
    ) -> SessionResult {
        let id = summary.session.id
        let heading = SessionHeading(id: id, start: summary.session.startDate, fixCount: fixes.count)
        // The timeline's lines, or the JSON lines: each handed over once a chunk is full.
        var text: [UInt8] = []
        let json = JSONBuffer()
        func line(_ string: String) {
            text.append(contentsOf: string.utf8)
            text.append(UInt8(ascii: "\n"))
            if text.count > Self.chunk {
                text.withUnsafeBufferPointer(emit)
                text.removeAll(keepingCapacity: true)
            }
        }
        if format == .text {
            if !first { line("") }
            line(formatter.sessionHeading(heading))
        }
        var replayed: [ReplayedFix] = []
        var timeline = TimelineWriter(formatter: formatter)
        var evidence = EvidenceSums()
        let handle = { (fix: RecordedFix, result: TrackingResult, explanation: [EvidenceExplanation]) in
            evidence.add(explanation)
            switch format {
            case .jsonl:
                result.writeJSONLine(sessionID: id, fix: fix, evidence: explains ? explanation : nil, into: json)
                json.newline()
                if json.count > Self.chunk {
                    json.withBytes(emit)
                    json.removeAll()
                }
            case .text:
                guard let timelineLine = timeline.line(for: fix, result: result) else { break }
                line(timelineLine)
                if explains {
                    for row in evidence.lines(explanation, formatter: formatter) { line(row) }
                    evidence = EvidenceSums()
                }
            }
            if drawing { replayed.append(ReplayedFix(fix: fix, result: result)) }
        }
        if explains { replayExplaining(fixes, handle) } else { replay(fixes) { handle($0, $1, []) } }
        text.withUnsafeBufferPointer(emit)
        json.withBytes(emit)
        let picture =
            drawing ? SessionPicture(network: network, formatter: formatter).svg(session: heading, replayed: replayed) : nil
        return SessionResult(picture: picture)
    }

    /// Writes `<directory>/<session id>.svg` all or nothing, creating the directory if needed.
    private func writePicture(_ svg: String, directory: String, sessionID: String) throws(CommandFailure) {
        let safeName = String(sessionID.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        let path = URL(fileURLWithPath: directory).appendingPathComponent("\(safeName).svg").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(directory): cannot create the folder for the pictures (\(error.localizedDescription))")
        }
        try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(svg.utf8), to: path) }
    }
}
