import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// `traintracker evaluate --sessions FILE --log LOG` or `--rides FOLDER`: scores algorithms on
/// recorded rides against the rider's own log of departures and arrivals (`RiderLogScorer`).
struct LogEvaluation {
    /// Where the rides and the log come from.
    enum Source {
        /// An Eki session file (its sessions `ids`, all when empty) and a log beside it.
        case sessions(path: String, log: String, ids: [String])
        /// A folder of GPX rides with their notes (`RideFolder`).
        case folder(path: String)
    }

    /// The network option of the command.
    var railways: RailwaysOption
    /// The rides and their log.
    var source: Source
    /// Offset of the log's local times from UTC, and of the times printed.
    var utcOffset: Seconds
    /// The algorithms to score.
    var algorithms: [TrackingAlgorithmName]
    /// table or json.
    var format: EvaluateCommand.Format

    /// The help's paragraph on this mode.
    static let discussion = """
        With --sessions and --log, recorded rides are scored against the rider's own log instead: a \
        GroundTruthLogger SQLite file (table events: id, timestamp in local time, category, notes) or a CSV \
        with the header time,event,station,railway,direction (see docs/evaluating.md). Each event goes to the \
        session whose fixes cover it (of several, the one nearest the logged station). A departure is right when most answers from 30 to 120 s after it name \
        the logged line and direction; an arrival is right when most answers in the leg before it (from 30 s \
        after the previous departure, or the last 120 s) give its station as the next stop; Now: the time from \
        the logged arrival to the first "Now" at that station (until 120 s after it). With --rides FOLDER, \
        the rides are the folder's GPX files, as an ordinary GPX logger writes them, each noted in a CSV of the \
        same name beside it (the header above) or in its own waypoints, each named by its event first \
        ("departure Shinagawa, Tokaido Line for Yokohama", "arrival Kawasaki"; other waypoints are passed over).
        """

    /// How far before the log's first event and after its last a session's fixes must reach to be replayed.
    static let sessionReach: Seconds = 600

    func run() throws(CommandFailure) {
        let (events, folderRides, logName, ridesName) = try log()
        let trainEvents = events.filter(\.kind.isTrainEvent)
        let timetabled = try railways.loadModel(timetables: algorithms.contains { $0.usesTimetables })
        let untimed = TrackerModel(network: timetabled.network)
        var recorded = folderRides ?? []
        if case .sessions(let path, _, let ids) = source {
            recorded = try sessions(path: path, ids: ids, near: trainEvents, model: untimed)
        }
        let scorer = RiderLogScorer(network: timetabled.network)
        var reports: [(algorithm: TrackingAlgorithmName, scores: [LoggedEventScore])] = []
        for algorithm in algorithms {
            let replayer = Replayer(model: algorithm.usesTimetables ? timetabled : untimed, algorithm: algorithm)
            let sessions = recorded.map { session in
                var answers: [TimedAnswer] = []
                replayer.replay(session.fixes) { fix, result in
                    answers.append(TimedAnswer(fix: fix.location, result: result))
                }
                return AnsweredSession(id: session.id, answers: answers)
            }
            reports.append((algorithm, scorer.score(events: events, sessions: sessions)))
        }
        let uncovered = reports.first?.scores.filter { $0.unscoredReason == RiderLogScorer.uncovered } ?? []
        if let earliest = uncovered.first {
            StandardError.line(
                "warning: \(ridesName): \(uncovered.count) of \(trainEvents.count) departures and arrivals of \(logName) "
                    + "are at times no session covers (the first at \(earliest.time.iso8601)); is --utc-offset right?")
        }
        let output = OutputSink.standardOutput()
        switch format {
        case .table: output.line(table(reports, otherEvents: events.count - trainEvents.count))
        case .json: output.line(try Self.json(reports))
        }
        output.flush()
    }

    /// The log's events, a folder's rides (`nil` for a session file, read once the network is),
    /// and the names of the log and the rides for messages.
    private func log() throws(CommandFailure) -> (
        events: [RiderLogEvent], rides: [(id: String, fixes: [RecordedFix])]?, logName: String, ridesName: String
    ) {
        switch source {
        case .sessions(let path, let log, _):
            let events = try CommandFailure.wrapping { () throws(ImportError) in
                try RiderLogFile.read(path: log, utcOffset: utcOffset)
            }
            try Self.requireTrainEvents(events, in: log)
            return (events, nil, log, path)
        case .folder(let path):
            let folder = try CommandFailure.wrapping { () throws(ImportError) in
                try RideFolder.read(path: path, utcOffset: utcOffset)
            }
            if !folder.unnoted.isEmpty {
                StandardError.line(
                    "warning: \(path): no note for \(folder.unnoted.joined(separator: ", ")) (a CSV log of the same name beside "
                        + "it, or waypoints whose name starts with departure or arrival)")
            }
            try Self.requireTrainEvents(folder.events, in: path)
            let rides = folder.rides.map { ride in
                (
                    id: ride.name,
                    fixes: ride.locations.enumerated().map {
                        RecordedFix(id: "\(ride.name)#\($0.offset + 1)", location: $0.element)
                    }
                )
            }
            return (folder.events, rides, "the notes", path)
        }
    }

    private static func requireTrainEvents(_ events: [RiderLogEvent], in name: String) throws(CommandFailure) {
        guard events.contains(where: \.kind.isTrainEvent) else {
            throw CommandFailure("\(name): no departure or arrival events (only walking, automotive or location ones)")
        }
    }

    /// The sessions of the Eki session file at `path` (those of `ids`, all when empty) whose
    /// fixes reach within `sessionReach` of a logged departure or arrival.
    private func sessions(path: String, ids: [String], near trainEvents: [RiderLogEvent], model: TrackerModel)
        throws(CommandFailure) -> [(id: String, fixes: [RecordedFix])]
    {
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: path) }
        let selected = try Replayer(model: model, algorithm: .eki).selectSessions(database, ids: ids)
        var recorded: [(id: String, fixes: [RecordedFix])] = []
        for summary in selected {
            let id = summary.session.id
            let (fixes, report) = try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: id) }
            guard let start = fixes.first?.location.timestamp, let end = fixes.last?.location.timestamp,
                trainEvents.contains(where: {
                    start.adding(-Self.sessionReach) <= $0.time && $0.time <= end.adding(Self.sessionReach)
                })
            else { continue }
            if !report.isClean { StandardError.line("warning: \(path): session \(id): \(report.summary)") }
            recorded.append((id, fixes))
        }
        return recorded
    }

    /// Per algorithm a row per event, then a summary row per algorithm.
    func table(_ reports: [(algorithm: TrackingAlgorithmName, scores: [LoggedEventScore])], otherEvents: Int) -> String {
        var sections: [String] = []
        for (algorithm, scores) in reports {
            var rows = [
                [
                    "time (\(ReplayFormatter.clockName(utcOffset)))", "event", "logged", "expected", "\(algorithm.rawValue) said",
                    "agree", "now", "verdict",
                ]
            ]
            for score in scores {
                let verdict: String =
                    switch score.right {
                    case true?: "right"
                    case false?: "wrong"
                    case nil: "not scored: \(score.unscoredReason ?? "-")"
                    }
                let now =
                    score.kind == .arrival && score.right != nil ? score.nowOffset.map(Self.signedSeconds) ?? "never" : "-"
                rows.append([
                    score.time.timeOfDay(utcOffset: utcOffset), score.kind.rawValue, score.place.printable,
                    score.expected.printable,
                    score.said.printable,
                    score.right == nil ? "-" : "\(score.agreeing)/\(score.answers)", now, verdict,
                ])
            }
            sections.append(alignedTable(rows))
        }
        var summary = [
            [
                "algorithm", "departures", "line+direction", "arrivals", "next stop", "said Now", "median Now", "worst Now",
                "not scored",
            ]
        ]
        for (algorithm, scores) in reports {
            let sum = RiderLogSummary(scores: scores)
            func share(_ right: Int, _ total: Int) -> String {
                total == 0 ? "-" : "\(right) (\(percent(Double(right) / Double(total))))"
            }
            summary.append([
                algorithm.rawValue, "\(sum.departures)", share(sum.departuresRight, sum.departures), "\(sum.arrivals)",
                share(sum.arrivalsRight, sum.arrivals), "\(sum.saidNow)/\(sum.arrivals)",
                sum.medianNowOffset.map(Self.signedSeconds) ?? "-", sum.worstNowOffset.map(Self.signedSeconds) ?? "-",
                "\(sum.unscored)",
            ])
        }
        sections.append(alignedTable(summary))
        if otherEvents > 0 { sections.append("(\(otherEvents) walking, automotive or location events not scored)") }
        return sections.joined(separator: "\n\n")
    }

    /// `+12 s`, `-8 s`.
    static func signedSeconds(_ value: Seconds) -> String {
        let whole = Int(displaying: value)
        return "\(whole > 0 ? "+" : "")\(whole) s"
    }

    /// Per algorithm the summary and every event, as JSON.
    static func json(_ reports: [(algorithm: TrackingAlgorithmName, scores: [LoggedEventScore])]) throws(CommandFailure) -> String
    {
        struct Event: Encodable {
            var time: String
            var event: String
            var logged: String
            var source: String
            var session: String?
            var expected: String
            var said: String
            var answers: Int
            var agreeing: Int
            var right: Bool?
            var nowOffset: Double?
            var unscoredReason: String?
        }
        struct Report: Encodable {
            var algorithm: String
            var summary: RiderLogSummary
            var events: [Event]
        }
        let body = reports.map { algorithm, scores in
            Report(
                algorithm: algorithm.rawValue, summary: RiderLogSummary(scores: scores),
                events: scores.map {
                    Event(
                        time: $0.time.iso8601, event: $0.kind.rawValue, logged: $0.place, source: $0.source,
                        session: $0.sessionID,
                        expected: $0.expected, said: $0.said, answers: $0.answers, agreeing: $0.agreeing, right: $0.right,
                        nowOffset: $0.nowOffset, unscoredReason: $0.unscoredReason)
                })
        }
        return try reportJSON(body)
    }
}
