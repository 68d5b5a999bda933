import ArgumentParser
import Foundation
import Synchronization
import TrainTrackerCore
import TrainTrackerLab
import TrainTrackerStorage

/// `traintracker budget`: railway and next-stop accuracy against the energy the recorder's
/// modes spend on a train.
struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Railway and next-stop accuracy against the energy the recorder's modes spend on simulated train rides.",
        discussion: """
            Each ride is simulated once per fix request (the same trains and truth), and the recorder's \
            mode machine decides which request's fixes it gets: satellites every --active-intervals \
            seconds while actively moving, then, once the train is fast, the fast-vehicle mode's accuracy \
            (up to 30 m satellites, up to 300 m Wi-Fi, coarser cell towers) and interval. Each choice is \
            scored every second of the ride by the answer after the latest fix, and its energy \
            (LocationPowerModel) is given as a share of satellites always on at a fix a second. Prints \
            every choice, the best within 100, 50, 25 and 10 % of that energy, and the cheapest keeping \
            the railway right 97 % of the time.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @OptionGroup var railways: RailwaysOption

    @Option(help: "Rides per scenario.")
    var count: Int = 6

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(
        name: .customLong("scenario"),
        help: ArgumentHelp("A named scenario (repeatable; default: every single-train one).", valueName: "name"))
    var scenarios: [String] = []

    @Option(help: "The map: drawn or shifted (5-40 m beside the track).")
    var map: RideConditions.Map = .drawn

    @Option(
        help: "The day: normal, disrupted (every train 4-25 minutes late) or held (the train stands 5-30 minutes at one stop).")
    var day: RideConditions.Day = .normal

    @Option(
        help:
            "The rider: leaves (at the last stop), lingers (2-6 minutes on the last platform), or waits (boards at the train's first station 5-25 minutes before it leaves)."
    )
    var rider: RideConditions.Rider = .leaves

    @Flag(help: "Urban canyons: near big stations, fixes pushed 15-40 m to one side for minutes.")
    var canyons = false

    @Option(help: ArgumentHelp("Fast-vehicle accuracies to try, metres, comma-separated.", valueName: "list"))
    var accuracies = "10,100,1000"

    @Option(help: ArgumentHelp("Fast-vehicle intervals to try, seconds, comma-separated.", valueName: "list"))
    var intervals = "1,2,5,10,20,30,60"

    @Option(help: ArgumentHelp("Fast speeds to try, km/h, comma-separated.", valueName: "list"))
    var fastSpeeds = "80,50"

    @Option(help: ArgumentHelp("Actively-moving intervals to try, seconds, comma-separated.", valueName: "list"))
    var activeIntervals = "1,5,10"

    @Option(help: ArgumentHelp("Draw accuracy against energy (SVG).", valueName: "file"))
    var svg: String?

    @Option(help: "table or json.")
    var format: Format = .table

    /// Numbers from a comma-separated list within `range`, or nil.
    static func numbers(_ text: String, in range: ClosedRange<Double>) -> [Double]? {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard !values.isEmpty, values.allSatisfy({ $0.map { range.contains($0) } ?? false }) else { return nil }
        return Array(Set(values.compactMap { $0 })).sorted()
    }

    func validate() throws {
        guard (1...200).contains(count) else { throw ValidationError("--count must be 1 to 200") }
        guard Self.numbers(accuracies, in: 1...10_000) != nil else {
            throw ValidationError("--accuracies must be metres from 1 to 10000, comma-separated; got '\(accuracies)'")
        }
        guard Self.numbers(intervals, in: 1...600) != nil else {
            throw ValidationError("--intervals must be seconds from 1 to 600, comma-separated; got '\(intervals)'")
        }
        guard Self.numbers(activeIntervals, in: 1...600) != nil else {
            throw ValidationError("--active-intervals must be seconds from 1 to 600, comma-separated; got '\(activeIntervals)'")
        }
        guard Self.numbers(fastSpeeds, in: 5...300) != nil else {
            throw ValidationError("--fast-speeds must be km/h from 5 to 300, comma-separated; got '\(fastSpeeds)'")
        }
        let known = Set(Scenario.all.map(\.name))
        if let unknown = scenarios.first(where: { !known.contains($0) }) {
            throw ValidationError(
                "unknown scenario '\(unknown)'; choose from \(Scenario.all.map(\.name).joined(separator: ", "))")
        }
    }

    func run() throws {
        let dataset = try railways.loadDataset(timetables: true)
        guard !dataset.timetable.trains.isEmpty else { throw CommandFailure("\(railways.railways): no timetables") }
        let model = TrackerModel(dataset: dataset)
        let power = LocationPowerModel()
        let base = TrackingModeSettings()
        let choices = (Self.numbers(accuracies, in: 1...10_000) ?? []).flatMap { accuracy in
            (Self.numbers(intervals, in: 1...600) ?? []).flatMap { interval in
                (Self.numbers(fastSpeeds, in: 5...300) ?? []).flatMap { fast in
                    (Self.numbers(activeIntervals, in: 1...600) ?? []).map { active in
                        BudgetChoice(accuracy: accuracy, interval: interval, fastSpeed: fast / 3.6, activeInterval: active)
                    }
                }
            }
        }
        let reference = FixRequest(accuracy: base.desiredAccuracy[.activelyMoving] ?? 10, interval: 1)
        var requests = Set(TrackingMode.allCases.map { FixRequest(base, $0) } + [reference])
        requests.formUnion(choices.map { FixRequest(accuracy: $0.accuracy, interval: $0.interval) })
        requests.formUnion(choices.map { FixRequest(accuracy: reference.accuracy, interval: $0.activeInterval) })
        let rides = try simulate(Array(requests), dataset: dataset, power: power)
        let points = Mutex([BudgetPoint?](repeating: nil, count: choices.count))
        let progress = Mutex((done: 0, bar: ProgressBar(label: "budget", total: choices.count)))
        DispatchQueue.concurrentPerform(iterations: choices.count) { index in
            let point = BudgetStudy.point(
                choices[index], base: base, power: power, rides: rides, reference: reference,
                makeTracker: { RailwayTracker(model: model) })
            points.withLock { $0[index] = point }
            progress.withLock { state in
                state.done += 1
                state.bar.update(state.done)
            }
        }
        progress.withLock { $0.bar.finish() }
        let scored = points.withLock { $0.compactMap { $0 } }.sorted { $0.energyShare < $1.energyShare }
        guard !scored.isEmpty else { throw CommandFailure("\(railways.railways): no ride could be scored") }
        let conditions = RideConditions(phone: .good, map: map, day: day, rider: rider, canyons: canyons)
        if let svg {
            let defaults = BudgetChoice(
                accuracy: base.desiredAccuracy[.inFastVehicle] ?? 10, interval: base.fixInterval[.inFastVehicle] ?? 1,
                fastSpeed: base.fastSpeed, activeInterval: base.fixInterval[.activelyMoving] ?? 1)
            let picture = BudgetPicture.svg(
                points: scored, title: "\(conditions.label), seed \(seed), \(scored[0].rides) rides", defaults: defaults)
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(picture.utf8), to: svg) }
        }
        let output = OutputSink.standardOutput()
        output.line(format == .json ? Self.json(scored) : Self.table(scored, label: conditions.label, seed: seed))
        output.flush()
    }

    /// The rides under each request, in the same order: rides missing from any request are dropped.
    private func simulate(_ requests: [FixRequest], dataset: TransitDataset, power: LocationPowerModel) throws
        -> [FixRequest: [SimulatedCase]]
    {
        let chosen =
            scenarios.isEmpty ? Scenario.all.filter { !$0.filter.transfer } : Scenario.all.filter { scenarios.contains($0.name) }
        let filters = chosen.filter { $0.applies(to: dataset.network) }.map(\.filter)
        guard !filters.isEmpty else { throw CommandFailure("\(railways.railways): no scenario applies to these railways") }
        let conditions = RideConditions(phone: .good, map: map, day: day, rider: rider, canyons: canyons)
        let rides = Mutex([FixRequest: [SimulatedCase]]())
        let progress = Mutex((done: 0, bar: ProgressBar(label: "simulate", total: requests.count)))
        DispatchQueue.concurrentPerform(iterations: requests.count) { index in
            let request = requests[index]
            var generator = CaseGenerator(dataset: dataset)
            conditions.configure(&generator, seed: seed)
            generator.phone = ModeDelivery.phone(
                interval: request.interval, accuracy: request.accuracy, power: power, base: generator.phone)
            let cases = filters.enumerated().flatMap { index, filter in
                generator.cases(count: count, seed: seed &+ UInt64(index) &* 7919, filter: filter)
            }
            rides.withLock { $0[request] = cases }
            progress.withLock { state in
                state.done += 1
                state.bar.update(state.done)
            }
        }
        progress.withLock { $0.bar.finish() }
        // Every choice is scored on the same rides: those simulated under every request (a
        // sparse request drops short rides and draws others).
        let all = rides.withLock { $0 }
        func key(_ ride: SimulatedCase) -> String { "\(ride.truth.trainID)@\(ride.truth.departure)" }
        var common: Set<String>?
        for cases in all.values {
            let keys = Set(cases.map(key))
            common = common.map { $0.intersection(keys) } ?? keys
        }
        let shared = common ?? []
        return all.mapValues { $0.filter { shared.contains(key($0)) } }
    }
}
