import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerStorage

/// `traintracker bench`: measures the tracker on recorded sessions.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure network load time, fixes per second, microseconds per fix and peak memory, as JSON.",
        discussion: "Build with -c release for meaningful figures."
    )

    @OptionGroup var railways: RailwaysOption

    @OptionGroup var realtime: RealtimeOption

    @OptionGroup var tripModel: TripParametersOption

    @Option(help: ArgumentHelp("An Eki session SQLite file.", valueName: "path"))
    var sessions: String

    @Option(help: "The tracking algorithm.")
    var algorithm: TrackingAlgorithmName = .default

    @Option(
        help: ArgumentHelp("Replay the sessions until at least this many seconds of tracking have run.", valueName: "seconds"))
    var minimumSeconds: Double = 2

    /// Seconds to write one line of the JSONL contract (as `replay` and the server do, into
    /// one reused buffer), over the answers to every fix of `sessions`, for at least half a second.
    private func jsonLineSeconds(
        model: TrackerModel, feeds: LiveFeeds?, trips: TripModelParameters, sessions: [(id: String, fixes: [RecordedFix])]
    ) -> Double {
        var answers: [(id: String, fix: RecordedFix, result: TrackingResult)] = []
        for (id, fixes) in sessions {
            var tracker = algorithm.makeTracker(model: model, feeds: feeds, trips: trips)
            answers += fixes.map { (id, $0, tracker.process($0.location)) }
        }
        guard !answers.isEmpty else { return 0 }
        let clock = ContinuousClock()
        let json = JSONBuffer(capacity: 1 << 16)
        var written = 0
        var elapsed = Duration.zero
        repeat {
            elapsed += clock.measure {
                answers.withUnsafeBufferPointer { answers in
                    for index in answers.indices {
                        answers[index].result.writeJSONLine(sessionID: answers[index].id, fix: answers[index].fix, into: json)
                        json.newline()
                        if json.count > 1 << 16 { json.removeAll() }
                    }
                }
            }
            written += answers.count
        } while elapsed.seconds < 0.5
        return elapsed.seconds / Double(written)
    }

    func validate() throws {
        guard (0...86_400).contains(minimumSeconds) else {
            throw ValidationError("--minimum-seconds must be 0 to 86400 seconds")
        }
        try tripModel.validate(algorithms: [algorithm])
    }

    func run() throws {
        let clock = ContinuousClock()
        var loaded: TrackerModel?
        let loadTime = try clock.measure {
            loaded = try railways.loadModel(timetables: algorithm.usesTimetables)
        }
        guard let model = loaded else { return }
        let feeds = try realtime.feeds(model: model)
        let trips = try tripModel.load()
        let network = model.network
        let database = try CommandFailure.wrapping { () throws(StorageError) in try SessionDatabase.open(path: sessions) }
        let summaries = try CommandFailure.wrapping { () throws(StorageError) in try database.sessions() }
        let recorded = try summaries.map { summary throws(CommandFailure) in
            try CommandFailure.wrapping { () throws(StorageError) in try database.fixes(sessionID: summary.session.id).fixes }
        }
        let sessionFixes = recorded.map { $0.map(\.location) }
        let fixCount = sessionFixes.reduce(0) { $0 + $1.count }
        guard fixCount > 0 else { throw CommandFailure("\(sessions): no fixes to benchmark") }
        var processed = 0
        var answered = 0
        var elapsed = Duration.zero
        var progress = ProgressBar(label: "bench", total: max(1, Int(displaying: minimumSeconds * 10)))
        repeat {
            elapsed += clock.measure {
                for fixes in sessionFixes {
                    var tracker = algorithm.makeTracker(model: model, feeds: feeds, trips: trips)
                    for fix in fixes where tracker.process(fix).best != nil {
                        answered += 1
                    }
                }
            }
            processed += fixCount
            progress.update(min(progress.total, Int(displaying: elapsed.seconds * 10)))
        } while elapsed.seconds < minimumSeconds
        progress.finish()
        let jsonlLine = jsonLineSeconds(
            model: model, feeds: feeds, trips: trips, sessions: zip(summaries.map(\.session.id), recorded).map { $0 })
        var json = JSONObjectWriter()
        json.string("algorithm", algorithm.rawValue)
        json.integer("railways", network.railways.count)
        json.integer("stations", network.stations.count)
        json.integer("trackVertices", network.trackVertexCount)
        json.number("networkLoadSeconds", loadTime.seconds)
        json.integer("sessions", summaries.count)
        json.integer("fixesPerPass", fixCount)
        json.integer("fixesProcessed", processed)
        json.number("answeredShare", Double(answered) / Double(processed))
        json.number("trackingSeconds", elapsed.seconds)
        json.number("fixesPerSecond", Double(processed) / elapsed.seconds)
        json.number("microsecondsPerFix", elapsed.seconds * 1_000_000 / Double(processed))
        json.number("jsonlMicrosecondsPerLine", jsonlLine * 1_000_000)
        json.number("peakMemoryMB", peakMemoryMegabytes())
        let output = OutputSink.standardOutput()
        output.line(json.finish())
        output.flush()
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The process's peak resident memory, in megabytes.
func peakMemoryMegabytes() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
    #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576  // bytes on Darwin
    #endif
}
