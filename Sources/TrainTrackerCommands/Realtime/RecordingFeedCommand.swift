import ArgumentParser
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab

/// `traintracker recording-feed`: GTFS-realtime feeds made from a recording of trains' own
/// positions, as an operator's feed would have said it, for `--realtime`.
struct RecordingFeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recording-feed",
        abstract: "Make GTFS-realtime feeds from a recording of trains' positions, one feed a minute.",
        discussion: """
            Every --every seconds, each trip with a position in the last 10 minutes gets a TripUpdate with \
            its delay at its latest position (against the --railways GTFS timetable it ran on) and a \
            VehiclePosition there. Only positions at or before a feed's time count. Each feed is \
            <out>/feed-<seconds since 1970>.pb, for replay, evaluate and bench --realtime.
            """
    )

    @OptionGroup var railways: RailwaysOption

    @Option(help: ArgumentHelp("A recording of vehicle positions (as evaluate --recording).", valueName: "file"))
    var recording: String?

    @Option(help: ArgumentHelp("With --riders: simulated rides (a simulate folder) as the riders.", valueName: "directory"))
    var cases: String?

    @Option(help: ArgumentHelp("The folder to write the feeds to.", valueName: "directory"))
    var out: String

    @Option(help: ArgumentHelp("Seconds between feeds.", valueName: "seconds"))
    var every: Double = RecordingFeeds.defaultPeriod

    @Flag(help: "Replace feeds already in the folder.")
    var force = false

    @Flag(
        help:
            "Riders as sensors: feeds of what riders' trackers said (each ride one rider, the train its tracker named and its delay), not of the trains' positions."
    )
    var riders = false

    /// The shortest and longest time between feeds.
    static let periods: ClosedRange<Double> = 10...3_600

    func validate() throws {
        guard (recording == nil) != (cases == nil) else { throw ValidationError("give one of --recording FILE and --cases DIR") }
        guard cases == nil || riders else { throw ValidationError("--cases goes with --riders") }
        guard Self.periods.contains(every) else {
            throw ValidationError("--every must be \(Int(Self.periods.lowerBound)) to \(Int(Self.periods.upperBound)) seconds")
        }
    }

    func run() throws {
        let dataset = try railways.loadDataset(timetables: true)
        let model = TrackerModel(dataset: dataset)
        let source = recording ?? cases ?? ""
        let feeds: [RealtimeFeed]
        if let cases {
            let rides = try EvaluationCases.load(directory: cases).cases.map { ($0.truth.sessionID, $0.fixes) }
            feeds = RiderFeeds.make(rides: rides, model: model, period: every)
        } else {
            let positions = try CommandFailure.wrapping { () throws(ImportError) in
                try VehiclePositionRecording.read(path: source, zone: dataset.timetable.zone)
            }.positions
            feeds =
                riders
                ? RiderFeeds.make(
                    rides: RecordedRides(positions: positions, dataset: dataset).cases.map { ($0.truth.sessionID, $0.fixes) },
                    model: model, period: every)
                : RecordingFeeds.make(positions: positions, model: model, period: every)
        }
        guard !feeds.isEmpty else { throw CommandFailure("\(source): nothing to make feeds of") }
        try FeedFolder.write(feeds, to: out, replacing: force)
        let updates = feeds.reduce(0) { $0 + $1.trips.count }
        let vehicles = feeds.reduce(0) { $0 + $1.vehicles.count }
        StandardError.line("wrote \(feeds.count) feeds (\(updates) trip updates, \(vehicles) vehicle positions) to \(out)")
    }
}
