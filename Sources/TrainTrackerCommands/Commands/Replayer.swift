import TrainTrackerCore
import TrainTrackerStorage

/// Replays recorded sessions through a tracking algorithm, in timestamp order.
public struct Replayer: Sendable {
    /// The network tracked against.
    public let network: RailwayNetwork
    /// The algorithm to run.
    public let algorithm: TrackingAlgorithmName

    /// A replayer of `algorithm` over `network`.
    public init(network: RailwayNetwork, algorithm: TrackingAlgorithmName) {
        self.network = network
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
        var tracker = algorithm.makeTracker(network: network)
        for fix in fixes {
            body(fix, tracker.process(fix.location))
        }
    }

    /// Replays `sessions` of `database` and writes the results to `output` in `format`;
    /// each session's skipped fixes are counted in a warning through `warn`.
    public func run(
        sessions: [SessionSummary], database: SessionDatabase, format: ReplayFormat, utcOffset: Seconds,
        output: OutputSink, warn: (String) -> Void
    ) throws(CommandFailure) {
        let formatter = ReplayFormatter(network: network, utcOffset: utcOffset)
        var progress = ProgressBar(label: "replay", total: sessions.count)
        for (index, summary) in sessions.enumerated() {
            let id = summary.session.id
            let (fixes, report) = try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: id) }
            if !report.isClean { warn("warning: \(database.path): session \(id): \(report.summary)") }
            switch format {
            case .jsonl:
                replay(fixes) { fix, result in output.line(formatter.jsonLine(sessionID: id, fix: fix, result: result)) }
            case .text:
                if index > 0 { output.line("") }
                output.line(
                    formatter.sessionHeading(SessionHeading(id: id, start: summary.session.startDate, fixCount: fixes.count)))
                var timeline = TimelineWriter(formatter: formatter)
                replay(fixes) { fix, result in
                    if let line = timeline.line(for: fix, result: result) { output.line(line) }
                }
            }
            progress.update(index + 1, detail: "\(index + 1)/\(sessions.count) sessions")
        }
        progress.finish()
        output.flush()
    }
}
