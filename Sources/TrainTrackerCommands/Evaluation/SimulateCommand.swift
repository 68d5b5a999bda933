import ArgumentParser
import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// The cases file beside `sessions.sqlite`.
struct CasesFile: Codable {
    /// How the cases were made.
    var seed: UInt64
    var countPerScenario: Int
    var railways: String
    var phone: String
    /// The conditions the rides were recorded under (absent in files of older versions: the defaults).
    var conditions: RideConditions?
    var cases: [CaseTruth]
}

/// `traintracker simulate`: realistic recordings of real timetabled trips with ground truth.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate phone recordings of real timetabled trains, with exact ground truth.",
        discussion: """
            Writes DIR/sessions.sqlite (Eki session schema) and DIR/truth.json (per session the railway, \
            direction, train, type and stops; per fix the true along-track position, speed, focus station \
            and phase, and next stop). The same seed gives the same files. Scenarios: \
            \(Scenario.all.map(\.name).joined(separator: ", ")), or all.
            """
    )

    @OptionGroup var railways: RailwaysOption

    @Option(
        help: ArgumentHelp(
            "Timetables, when --railways has none (a mini-tokyo-3d folder, a GTFS feed or an imported Eki file).",
            valueName: "path"))
    var timetables: String?

    @Option(help: ArgumentHelp("The folder to write.", valueName: "directory"))
    var out: String

    @Option(help: "Rides per scenario (or in all, without --scenario).")
    var count: Int = 10

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "Seed of the map's errors (a shifted or platforms map) instead of --seed: rides of two seeds on one map, so that what traintracker platforms learns from one is tried on the other.",
            valueName: "seed"))
    var mapSeed: UInt64?

    @Option(
        name: .customLong("railway"),
        help: ArgumentHelp("Ride only these railways, by id or name (repeatable).", valueName: "railway"))
    var railwayIDs: [String] = []

    @Option(name: .customLong("scenario"), help: ArgumentHelp("A named scenario, or all (repeatable).", valueName: "name"))
    var scenarios: [String] = []

    @Option(
        help:
            "The phone: good (1 Hz, the defaults), noisy (poor speeds, false zeros, lost fixes), sparse (a fix every 10 s), background (a fix every 8-60 s, no speed or course, some 50-150 m off), movement (a fix only after moving 10-100 m: none while the train stands), jittery (1 Hz, no speed or course, wandering 5-30 m while standing), bare (1 Hz, no speed or course), quiet (1 Hz, silent for 3-10 minutes about every ten), drifting (1 Hz, wandering 3-20 m while standing and now and then claiming a speed of up to 7 m/s and any course) or gappy (1 Hz, silent for 20-60 s about every three minutes)."
    )
    var phone: PhoneModel.Preset = .good

    @Option(
        help:
            "The map: drawn (trains run on the drawn track), shifted (5-40 m beside it, sometimes past a parallel line) or platforms (trains stop 20-250 m along the track from the map's station points, as on long platforms)."
    )
    var map: RideConditions.Map = .drawn

    @Option(
        help:
            "The day: normal (as late as Caltrain's recorded trains: median 2.5 min, staying late), punctual (on time to the second), disrupted (every train 4-25 minutes late), or held (normal, and the rider's train stands 5-30 minutes at one stop of the ride)."
    )
    var day: RideConditions.Day = .normal

    @Option(
        help:
            "The rider: leaves (at the last stop), lingers (2-6 minutes on the last platform), or waits (boards at the train's first station 5-25 minutes before it leaves)."
    )
    var rider: RideConditions.Rider = .leaves

    @Flag(help: "Urban canyons: near big stations, fixes pushed 15-40 m to one side for minutes.")
    var canyons = false

    @Flag(help: "Signal stops: the rider's train stands 20-60 s at about a quarter of the stations its service passes.")
    var signalStops = false

    /// The conditions the options name.
    var conditions: RideConditions {
        RideConditions(phone: phone, map: map, day: day, rider: rider, canyons: canyons, signalStops: signalStops)
    }

    @Flag(help: "Replace the files in --out if they exist.")
    var force = false

    @Option(
        help: ArgumentHelp(
            "Also write the day's delays and trains as GTFS-realtime feeds, one a minute while the rides run, to this folder (for evaluate --realtime): every running train's delay and its position, up to 30 s old.",
            valueName: "directory"))
    var feed: String?

    @Flag(help: "With --feed, write the trains' delays only, no positions (an operator that publishes TripUpdates alone).")
    var feedWithoutPositions = false

    func validate() throws {
        guard (1...100_000).contains(count) else { throw ValidationError("--count must be 1 to 100000") }
        if railways.platforms != nil {
            throw ValidationError("--platforms is for tracking; simulate moves stopping places with --map platforms")
        }
        if mapSeed != nil, map == .drawn { throw ValidationError("--map-seed goes with --map shifted or platforms") }
        if feedWithoutPositions, feed == nil { throw ValidationError("--feed-without-positions needs --feed") }
        let known = Set(Scenario.all.map(\.name) + ["all"])
        if let unknown = scenarios.first(where: { !known.contains($0) }) {
            throw ValidationError(
                "unknown scenario '\(unknown)'; choose from \(Scenario.all.map(\.name).joined(separator: ", ")), all")
        }
    }

    func run() throws {
        var dataset = try railways.loadDataset(timetables: true)
        if let timetables {
            let other = try RailwaysOption.parse(["--railways", timetables]).loadDataset(timetables: true)
            dataset.timetable = other.timetable
        }
        guard !dataset.timetable.trains.isEmpty else {
            throw CommandFailure("\(railways.railways): no timetables; give --timetables (a mini-tokyo-3d folder or a GTFS feed)")
        }
        var filters: [RideFilter] = []
        if scenarios.isEmpty {
            // Named by id or by name; an unknown one is said at once, with the closest names.
            let chosen = try railwayIDs.map { try railways.railway($0, in: dataset.network, option: "--railway").id }
            filters = [RideFilter(railways: Set(chosen))]
        } else {
            let chosen = scenarios.contains("all") ? Scenario.all : Scenario.all.filter { scenarios.contains($0.name) }
            for scenario in chosen {
                guard scenario.applies(to: dataset.network) else {
                    if !scenarios.contains("all") {
                        throw CommandFailure(
                            "\(railways.railways): scenario \(scenario.name) needs railways \(scenario.filter.railways.sorted().joined(separator: ", "))"
                        )
                    }
                    continue
                }
                filters.append(scenario.filter)
            }
        }
        let sessionsPath = URL(fileURLWithPath: out).appendingPathComponent("sessions.sqlite").path
        let truthPath = URL(fileURLWithPath: out).appendingPathComponent("truth.json").path
        for path in [sessionsPath, truthPath] where !force && FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("\(path): file exists; not overwriting it (use --force)")
        }
        var generator = CaseGenerator(dataset: dataset)
        conditions.configure(&generator, seed: seed, mapSeed: mapSeed)
        var cases: [SimulatedCase] = []
        var progress = ProgressBar(label: "simulate", total: filters.count)
        for (index, filter) in filters.enumerated() {
            let made = generator.cases(count: count, seed: seed &+ UInt64(index) &* 7919, filter: filter)
            if made.count < count {
                StandardError.line("warning: \(filter.name ?? "rides"): \(made.count) of \(count) rides could be simulated")
            }
            cases += made
            progress.update(index + 1)
        }
        progress.finish()
        guard !cases.isEmpty else {
            throw CommandFailure("\(railways.railways): no ride matches; check --railway and --scenario")
        }
        try write(cases)
        StandardError.line(
            "wrote \(cases.count) sessions (\(conditions.spelledOut)), \(cases.reduce(0) { $0 + $1.fixes.count }) fixes to \(out)"
        )
        if let feed { try writeFeeds(cases, generator: generator, to: feed) }
    }

    /// The day's delays (and trains) as feeds, one at the start of every minute a ride has a
    /// fix in.
    private func writeFeeds(_ cases: [SimulatedCase], generator: CaseGenerator, to folder: String) throws {
        let minute: Seconds = 60
        let times = cases.flatMap {
            $0.fixes.map { fix in
                Timestamp(secondsSince1970: (fix.location.timestamp.secondsSince1970 / minute).rounded(.down) * minute)
            }
        }
        let feeds = SimulatedFeeds.make(
            dataset: generator.dataset, delays: generator.disruption ?? OnTimeDelays(), times: times,
            places: feedWithoutPositions ? nil : SimulatedTrainPlaces(generator: generator, seed: seed))
        try FeedFolder.write(feeds, to: folder, replacing: force)
        StandardError.line(
            "wrote \(feeds.count) feeds (\(feeds.reduce(0) { $0 + $1.trips.count }) trip updates, "
                + "\(feeds.reduce(0) { $0 + $1.vehicles.count }) positions) to \(folder)")
    }

    /// Writes both files, each all or nothing, and the second only once the first is in place.
    private func write(_ cases: [SimulatedCase]) throws {
        let file = CasesFile(
            seed: seed, countPerScenario: count, railways: railways.railways, phone: String(describing: phone.model),
            conditions: conditions, cases: cases.map(\.truth))
        let sessions = cases.map {
            (
                session: Session(
                    id: $0.sessionID, startDate: $0.start, endDate: $0.fixes.last?.location.timestamp,
                    notes: "simulated \($0.truth.trainID)", isOnTrain: true),
                fixes: $0.fixes
            )
        }
        try CasesFolder.write(file, sessions: sessions, to: out, replacing: force)
    }
}

extension PhoneModel.Preset: ExpressibleByArgument {}
extension RideConditions.Map: ExpressibleByArgument {}
extension RideConditions.Day: ExpressibleByArgument {}
extension RideConditions.Rider: ExpressibleByArgument {}
