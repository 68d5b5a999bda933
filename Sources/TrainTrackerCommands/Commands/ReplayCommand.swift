import ArgumentParser
import TrainTrackerCore
import TrainTrackerStorage

/// `traintracker replay`: replays recorded sessions through the tracker.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay recorded sessions through the tracker, in timestamp order.",
        discussion: """
            --format jsonl prints one JSON object per fix with the keys sessionID, locationID, timestamp, \
            railway, direction, station, phase, trainType, nextStop, eta, confidence, train, \
            delaySeconds (null while the tracker has no answer, or does not tell), arrivals (the predicted arrival at each stop \
            ahead: station, time, earliest, latest, scheduled), undecided (the services still possible while \
            the stops have not told them apart: railway, direction, trainType, nextStop, share), estimated and candidates (railway, direction, \
            station, phase, score), and with --explain evidence (docs/data.md: the replay --format jsonl contract). \
            --format text prints a timeline with a line whenever the answer changes. --explain says why, \
            term by term.
            """
    )

    @OptionGroup var railways: RailwaysOption

    @OptionGroup var realtime: RealtimeOption

    @OptionGroup var tripModel: TripParametersOption

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String

    @Option(name: .customLong("session"), help: ArgumentHelp("Replay only this session (repeatable).", valueName: "id"))
    var sessionIDs: [String] = []

    @Option(help: "The tracking algorithm.")
    var algorithm: TrackingAlgorithmName = .default

    @Option(help: "jsonl (one object per fix) or text (a readable timeline).")
    var format: ReplayFormat = .jsonl

    // Unconditional: a western offset such as -07:00 starts with a dash.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Offset from UTC for the times of the text timeline, e.g. +09:00.", valueName: "offset"))
    var utcOffset: String = "+00:00"

    @Option(
        help: ArgumentHelp(
            "Also draw each session as <directory>/<session id>.svg: a map and a timeline.", valueName: "directory"))
    var svg: String?

    @Flag(
        help: """
            Say why: with --format text, under each line of the timeline the leading hypotheses with their \
            scores and what each kind of evidence (position, course, progress, stops, departures, ...) added \
            since the previous line, in nats; with jsonl, an "evidence" key per fix. The railway tracker's, alone or beneath the default.
            """)
    var explain = false

    @Option(
        help: ArgumentHelp(
            "Replay this many sessions at once, one per core (the output stays in order; each holds its results until written).",
            valueName: "count"))
    var jobs = 1

    /// The most sessions replayed at once.
    static let maximumJobs = 64

    func validate() throws {
        guard (1...Self.maximumJobs).contains(jobs) else { throw ValidationError("--jobs must be 1 to \(Self.maximumJobs)") }
        try validateUTCOffset(utcOffset)
        try tripModel.validate(algorithms: [algorithm])
    }

    func run() throws {
        let model = try railways.loadModel(timetables: algorithm.usesTimetables)
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        var replayer = Replayer(model: model, algorithm: algorithm)
        replayer.feeds = try realtime.feeds(model: model)
        replayer.tripParameters = try tripModel.load()
        let selected = try replayer.selectSessions(database, ids: sessionIDs)
        try replayer.run(
            sessions: selected, database: database, format: format, utcOffset: parseUTCOffset(utcOffset) ?? 0,
            pictureDirectory: svg, explains: explain, jobs: jobs,
            output: .standardOutput(), warn: StandardError.line
        )
    }
}
