import Foundation
import TrainTrackerCore
import TrainTrackerStorage

/// Replays recorded sessions through a tracking algorithm, in timestamp order.
public struct Replayer: Sendable {
    /// The network (and timetable) tracked against.
    public let model: TrackerModel
    /// The algorithm to run.
    public let algorithm: TrackingAlgorithmName

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
        var tracker = algorithm.makeTracker(model: model)
        for fix in fixes {
            body(fix, tracker.process(fix.location))
        }
    }

    /// Like `replay`, with each hypothesis's evidence at each fix (the default algorithm's;
    /// none for others).
    public func replayExplaining(
        _ fixes: [RecordedFix], _ body: (RecordedFix, TrackingResult, [EvidenceExplanation]) -> Void
    ) {
        guard algorithm == .default else { return replay(fixes) { body($0, $1, []) } }
        var tracker = DefaultTracker(model: model)
        tracker.explains = true
        for fix in fixes {
            let result = tracker.process(fix.location)
            body(fix, result, tracker.explanation())
        }
    }

    /// Replays `sessions` of `database` and writes the results to `output` in `format`;
    /// each session's skipped fixes are counted in a warning through `warn`.
    ///
    /// With `pictureDirectory`, each session is also drawn as `<directory>/<session id>.svg`.
    public func run(
        sessions: [SessionSummary], database: SessionDatabase, format: ReplayFormat, utcOffset: Seconds,
        pictureDirectory: String? = nil, explains: Bool = false, output: OutputSink, warn: (String) -> Void
    ) throws(CommandFailure) {
        let formatter = ReplayFormatter(network: network, utcOffset: utcOffset)
        var progress = ProgressBar(label: "replay", total: sessions.count)
        for (index, summary) in sessions.enumerated() {
            let id = summary.session.id
            let (fixes, report) = try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: id) }
            if !report.isClean { warn("warning: \(database.path): session \(id): \(report.summary)") }
            let heading = SessionHeading(id: id, start: summary.session.startDate, fixCount: fixes.count)
            var replayed: [ReplayedFix] = []
            var timeline = TimelineWriter(formatter: formatter)
            if format == .text {
                if index > 0 { output.line("") }
                output.line(formatter.sessionHeading(heading))
            }
            var evidence = EvidenceSums()
            let json = JSONBuffer()
            let handle = { (fix: RecordedFix, result: TrackingResult, explanation: [EvidenceExplanation]) in
                evidence.add(explanation)
                switch format {
                case .jsonl:
                    json.removeAll()
                    result.writeJSONLine(sessionID: id, fix: fix, evidence: explains ? explanation : nil, into: json)
                    json.withBytes { output.line(utf8: $0) }
                case .text:
                    guard let line = timeline.line(for: fix, result: result) else { break }
                    output.line(line)
                    if explains {
                        for row in evidence.lines(explanation, formatter: formatter) { output.line(row) }
                        evidence = EvidenceSums()
                    }
                }
                if pictureDirectory != nil { replayed.append(ReplayedFix(fix: fix, result: result)) }
            }
            if explains { replayExplaining(fixes, handle) } else { replay(fixes) { handle($0, $1, []) } }
            if let pictureDirectory {
                let picture = SessionPicture(network: network, formatter: formatter).svg(session: heading, replayed: replayed)
                try writePicture(picture, directory: pictureDirectory, sessionID: id)
            }
            progress.update(index + 1, detail: "\(index + 1)/\(sessions.count) sessions")
        }
        progress.finish()
        output.flush()
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
