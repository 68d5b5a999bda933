import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerLab

/// `traintracker platforms`: where trains stand at stations, learnt from recorded rides, written
/// to a file that `--platforms` reads.
struct PlatformsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platforms",
        abstract: "Learn where trains stand at stations from recorded rides, for --platforms.",
        discussion: """
            Open station coordinates lie up to 250 m from where trains stand on long platforms. Reads rides \
            whose railway and stops are known (--cases: folders simulate wrote; --recording: trains' own \
            positions on the --railways GTFS feed they ran on), finds where each stood (its fixes within \
            15 m for 8 s or more), and gives each stand to the nearest station its train stops at, within \
            400 m along the track. A station with two stands or more within 150 m of one another gets a \
            platform: the span of the most such stands, from its point. Every command that takes --railways \
            reads the file with --platforms FILE: a stop then also belongs to a station within 100 m of its \
            platform (as well as within 250 m of its point).
            """)

    @OptionGroup var railways: RailwaysOption

    @Option(help: ArgumentHelp("A folder simulate wrote (repeatable).", valueName: "folder"))
    var cases: [String] = []

    @Option(
        help: ArgumentHelp(
            "A recording of trains' positions (repeatable), as evaluate --recording takes.", valueName: "path"))
    var recording: [String] = []

    @Option(help: ArgumentHelp("Where to write the platforms (JSON).", valueName: "file"))
    var out: String

    func validate() throws {
        guard !cases.isEmpty || !recording.isEmpty else { throw ValidationError("give --cases or --recording") }
        guard railways.platforms == nil else {
            throw ValidationError("--platforms is what this command writes (--out); learn from the stations' points")
        }
    }

    func run() throws {
        let dataset = try railways.loadDataset(timetables: !recording.isEmpty)
        var rides: [(fixes: [RecordedFix], truth: CaseTruth)] = []
        for folder in cases {
            rides += try EvaluationCases.load(directory: folder).cases
        }
        if !recording.isEmpty {
            let positions = try RecordingEvaluation.read(recording, zone: dataset.timetable.zone).positions
            rides += RecordedRides(positions: positions, dataset: dataset).cases
        }
        guard !rides.isEmpty else {
            throw CommandFailure("\((cases + recording).joined(separator: ", ")): no ride on \(railways.railways)")
        }
        let outcome = PlatformFit(network: dataset.network).learn(rides: rides)
        try PlatformsFile(
            learntFrom: (cases + recording).map { URL(fileURLWithPath: $0).lastPathComponent }, rides: rides.count,
            stands: outcome.stands, platforms: outcome.platforms
        ).write(to: out)
        let output = OutputSink.standardOutput()
        output.line(
            "\(rides.count) rides: \(outcome.stands) stands, \(outcome.placed) at a station the train stops at; "
                + "\(outcome.platforms.count) platforms learnt (\(PlatformFit.fewestStands) stands or more)")
        if !outcome.platforms.isEmpty {
            let far = outcome.platforms.map { max(abs($0.offsets.lowerBound), abs($0.offsets.upperBound)) }.sorted()
            let centre = outcome.platforms.map { abs($0.offsets.lowerBound + $0.offsets.upperBound) / 2 }.sorted()
            output.line(
                "trains stand a median \(Int(centre[centre.count / 2].rounded())) m from the station's point "
                    + "(the span's middle), at most \(Int((far.last ?? 0).rounded())) m")
        }
        output.line("written to \(out)")
        output.flush()
    }
}
