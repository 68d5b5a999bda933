import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// `evaluate --recording FILE`: scores algorithms on real rides, one per trip and service day
/// of a recording of trains' own positions, against the trips of the timetable they ran on.
struct RecordingEvaluation {
    /// The feed the trains ran on, with its timetable ...
    var dataset: TransitDataset
    /// ... and as the trackers use it (the trip model is fitted on it).
    var model: TrackerModel
    var railwaysPath: String
    /// The recordings, read together (rides are per trip and service day across them).
    var recordingPaths: [String]
    /// The algorithms scored; a fitted one is made with the trip model's constants.
    var variants: [Variant]
    /// The trip model's constants when not held out (the defaults, or `--parameters FILE`).
    var tripParameters = TripModelParameters()
    /// Where a held-out fit starts: the hand-set point (the defaults were fitted on every
    /// shared day, the held-out one too), or `--parameters FILE`.
    var fitStart = TripModelParameters.handSet
    /// Whether each service day is scored with constants fitted on the other days only.
    var holdOutDays = false
    var format: EvaluateCommand.Format
    var svgPath: String?
    var casesFolder: String?
    /// Late riders: each ride scored from this many seconds after its departure, as a rider
    /// who boards then (warm-up and lock time counted from boarding).
    var joinAfter: Seconds?

    /// An algorithm to score: made afresh for each ride, with the trip model's constants.
    struct Variant {
        var name: String
        /// Whether it uses the trip model's constants (fitted per held-out day).
        var fitted: Bool
        var make: (TripModelParameters) -> any TrackingAlgorithm
    }

    /// What `evaluate --help` says of it.
    static let discussion = """
        Real rides (--recording FILE with --railways GTFS): an archive of an agency's GTFS-realtime vehicle \
        positions, as an SQLite table train_locations (trip_id, vehicle_lat, vehicle_lon, timestamp) or a CSV \
        (trip_id, latitude, longitude, timestamp[, zone]; local times without an offset are on the row's zone or \
        the feed's agency_timezone). One ride per trip and service day; exact repeats (a stale position published \
        again) and positions over 300 m off the track are left out; the truth is the trip's railway, direction, \
        stops and train. A ride departs at its last fix within 300 m of its first (a train may stand at its \
        origin for an hour); fixes are scored from 180 s after that; 'train': the answer names the trip; \
        'locked ≤ 5 min': locked within 300 s of the departure and kept; per route, per service day, per hour of \
        the day, and the arrival times by whole minutes before the true arrival (5+: five or more) and as the \
        Transit ETA Accuracy Benchmark scores them. --recording is repeatable; --hold-out day scores each service \
        day with the trip model fitted on the other days only (maximum likelihood, as traintracker fit).
        """

    /// Scoring starts this long after a ride's departure (the tracker is still learning).
    static let warmUp: Seconds = 180
    /// A ride counts as locked in time when it locks within this long of its departure.
    static let lockTarget: Seconds = 300

    /// One algorithm's scores on every ride, and per hour of the day on the timetable's clock.
    struct Report: Encodable {
        var algorithm: String
        var all: Summary
        var routes: [String: Summary]
        /// Per service day (`2024-10-15`).
        var days: [String: Summary]
        var hours: [Int: HourTally]
        /// The arrival times as the Transit ETA Accuracy Benchmark scores them.
        var benchmark: ArrivalBenchmark
        /// The arrival times by whole minutes before the true arrival.
        var arrivals: [ArrivalRow]
        /// The predicted arrivals at every stop ahead.
        var stopsAhead = StopsAheadTally()
        /// Scored fixes whose answer named a railway none of whose trains runs that service day.
        var railwayWithoutTrain: Int
    }

    /// A summary line: the usual measures, the train, and locks within `lockTarget`.
    struct Summary: Encodable {
        var score: AlgorithmScore
        var lockedInTime: Double

        init(algorithm: String, scores: [CaseScore]) {
            score = AlgorithmScore(algorithm: algorithm, scores: scores)
            let inTime = scores.filter { $0.locked && ($0.lockTime ?? .infinity) <= RecordingEvaluation.lockTarget }
            lockedInTime = scores.isEmpty ? 0 : Double(inTime.count) / Double(scores.count)
        }
    }

    /// Fixes scored in one hour of the day, and how many were right.
    struct HourTally: Encodable {
        var fixes = 0
        var railway = 0
        var nextStop = 0
        var train = 0
    }

    func run() throws(CommandFailure) {
        let (positions, skipped) = try Self.read(recordingPaths, zone: dataset.timetable.zone)
        let read = RecordedRides(positions: positions, dataset: dataset)
        var rides = Array(zip(read.cases, read.days))
        if let joinAfter {
            rides = rides.compactMap { ride in RiderFeeds.joining(ride.0, after: joinAfter).map { ($0, ride.1) } }
        }
        guard !rides.isEmpty else {
            throw CommandFailure(
                "\(recordingPaths.joined(separator: ", ")): no ride of a trip in \(railwaysPath) (trip ids must be the feed's trip_id)"
            )
        }
        if let casesFolder { try CasesFolder.write(rides.map(\.0), railways: railwaysPath, to: casesFolder) }
        let constants = tripConstants(for: rides)
        var reports: [Report] = []
        var progress = ProgressBar(label: "evaluate", total: variants.count * rides.count)
        for variant in variants {
            let done = reports.count * rides.count
            let report = score(variant, rides: rides, constants: constants) { progress.update(done + $0) }
            reports.append(report)
        }
        progress.finish()
        let title = recordingPaths.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")
        if let svgPath {
            let picture = RecordingChart.svg(title: "Real rides: \(title), \(rides.count) rides", reports: reports)
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(picture.utf8), to: svgPath) }
        }
        let output = OutputSink.standardOutput()
        switch format {
        case .table:
            output.line(Self.header(positions: positions.count, skipped: skipped, rides: read, scored: rides.map(\.0)))
            if holdOutDays { output.line("each service day scored with the trip model fitted on the other days only") }
            output.line(Self.table(reports))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            guard let data = try? encoder.encode(reports) else { throw CommandFailure("cannot encode the report") }
            output.line(String(decoding: data, as: UTF8.self))
        }
        output.flush()
    }

    /// The trip model's constants for each service day: fitted on the other days when days
    /// are held out (only if an algorithm uses them), else the ones given.
    private func tripConstants(for rides: [((fixes: [RecordedFix], truth: CaseTruth), CivilDay)]) -> [CivilDay:
        TripModelParameters]
    {
        let days = Set(rides.map(\.1))
        guard holdOutDays, variants.contains(where: \.fitted) else {
            return Dictionary(uniqueKeysWithValues: days.map { ($0, tripParameters) })
        }
        let prepared = rides.map { ride in
            (ride.1, TripModelRide(fixes: ride.0.fixes.map(\.location), tripID: ride.0.truth.trainID, model: model))
        }
        var constants: [CivilDay: TripModelParameters] = [:]
        var progress = ProgressBar(label: "fit", total: days.count)
        for day in days.sorted() {
            let fit = TripModelFit(rides: prepared.filter { $0.0 != day }.map(\.1), model: model)
            var fitted = fit.run(from: fitStart).parameters
            let others = rides.filter { $0.1 != day }.map(\.0)
            fitted.arrivalModel = ArrivalModelFit(rides: others, model: model, trips: fitted).run()
            constants[day] = fitted
            progress.update(constants.count)
        }
        progress.finish()
        return constants
    }

    /// One algorithm's report on `rides`, each scored with its day's constants.
    private func score(
        _ variant: Variant, rides: [((fixes: [RecordedFix], truth: CaseTruth), CivilDay)],
        constants: [CivilDay: TripModelParameters], progress: (Int) -> Void
    ) -> Report {
        let zone = dataset.timetable.zone
        var evaluator = Evaluator()
        evaluator.warmUp = Self.warmUp
        evaluator.network = dataset.network
        let running = RunningRailways(dataset: dataset)
        var hours: [Int: HourTally] = [:]
        var arrivals: [Int: ArrivalTally] = [:]
        var benchmark = ArrivalBenchmark()
        var stopsAhead = StopsAheadTally()
        var scores: [CaseScore] = []
        var byDay: [String: [CaseScore]] = [:]
        var withoutTrain = 0
        for (ride, day) in rides {
            let tracker = variant.make(constants[day] ?? tripParameters)
            let score = evaluator.score(fixes: ride.fixes, truth: ride.truth, tracker: tracker) { verdict in
                if let named = verdict.railwayID, !running.runs(named, at: Timestamp(secondsSince1970: verdict.time)) {
                    withoutTrain += 1
                }
                let hour = Self.hour(of: verdict.time, zone: zone)
                hours[hour, default: HourTally()].fixes += 1
                if verdict.railway { hours[hour, default: HourTally()].railway += 1 }
                if verdict.nextStop { hours[hour, default: HourTally()].nextStop += 1 }
                if verdict.train { hours[hour, default: HourTally()].train += 1 }
                if let arrival = verdict.arrival {
                    arrivals[ArrivalTally.row(ahead: arrival.ahead), default: ArrivalTally()].errors.append(arrival.error)
                    let actual = verdict.time + arrival.ahead
                    benchmark.add(predicted: actual + arrival.error, actual: actual, at: verdict.time)
                }
                stopsAhead.add(verdict.stopsAhead, at: verdict.time, day: "\(day)", route: ride.truth.scenario ?? "")
            }
            scores.append(score)
            byDay["\(day)", default: []].append(score)
            progress(scores.count)
        }
        let routes = Dictionary(grouping: scores) { $0.scenario ?? "" }.mapValues {
            Summary(algorithm: variant.name, scores: $0)
        }
        return Report(
            algorithm: variant.name, all: Summary(algorithm: variant.name, scores: scores), routes: routes,
            days: byDay.mapValues { Summary(algorithm: variant.name, scores: $0) }, hours: hours, benchmark: benchmark,
            arrivals: Self.arrivalRows(arrivals), stopsAhead: stopsAhead, railwayWithoutTrain: withoutTrain)
    }

    /// The local hour (0–23) of `time` on `zone`'s clock.
    static func hour(of time: Double, zone: TimeZoneRules) -> Int {
        let local = time + zone.offset(at: Timestamp(secondsSince1970: time))
        return Int(flooring: (local / 3_600).truncatingRemainder(dividingBy: 24) + 24, within: 0...100) % 24
    }

    /// What was read and left out.
    static func header(
        positions: Int, skipped: [String: Int], rides: RecordedRides, scored: [(fixes: [RecordedFix], truth: CaseTruth)]
    )
        -> String
    {
        let fixes = scored.reduce(0) { $0 + $1.fixes.count }
        let dropped = (skipped.merging(rides.dropped, uniquingKeysWith: +)).sorted { $0.key < $1.key }
        return "\(positions) positions: \(scored.count) rides, \(fixes) fixes; left out: "
            + (dropped.isEmpty ? "none" : dropped.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
            + "\nscored from \(Int(warmUp)) s after each ride's departure (its last fix within "
            + "\(Int(RecordedRides.departureDistance)) m of its first); 'locked ≤ 5 min': locked within \(Int(lockTarget)) s "
            + "of the departure and kept to the end"
    }

    /// Per algorithm: all rides, each route, then the hours of the day.
    static func table(_ reports: [Report]) -> String {
        var rows = [
            [
                "algorithm", "route", "rides", "fixes", "railway", "direction", "next stop", "train", "eta ±1 min",
                "locked ≤ 5 min", "median lock", "no-train answers",
            ]
        ]
        for report in reports {
            let days =
                report.days.count > 1 ? report.days.sorted(by: { $0.key < $1.key }).map { ("day \($0.key)", $0.value) } : []
            for (route, summary) in [("all", report.all)] + report.routes.sorted(by: { $0.key < $1.key }) + days {
                let score = summary.score
                rows.append([
                    report.algorithm, route, "\(score.sessions)", "\(score.fixes)", percent(score.railwayAccuracy),
                    percent(score.directionAccuracy), percent(score.nextStopAccuracy), percent(score.trainAccuracy),
                    score.etaWithinMinuteShare.map(percent) ?? "-", percent(summary.lockedInTime),
                    score.medianLockTime.map { "\(Int(displaying: $0)) s" } ?? "-",
                    route == "all" ? "\(report.railwayWithoutTrain)" : "",
                ])
            }
        }
        var hours = [["algorithm", "hour", "fixes", "railway", "next stop", "train"]]
        for report in reports {
            for (hour, tally) in report.hours.sorted(by: { $0.key < $1.key }) where tally.fixes > 0 {
                let share = { (count: Int) in percent(Double(count) / Double(tally.fixes)) }
                hours.append([
                    report.algorithm, String(format: "%02d", hour), "\(tally.fixes)", share(tally.railway),
                    share(tally.nextStop), share(tally.train),
                ])
            }
        }
        return alignedTable(rows) + "\n\nper hour of the day, on the timetable's clock:\n" + alignedTable(hours)
            + "\n\narrival times by whole minutes before the true arrival:\n" + arrivalTable(reports)
            + "\n\narrival times as the Transit ETA Accuracy Benchmark scores them (right: the train arrives at most "
            + "'early' before or 'late' after the prediction; headline: the buckets' mean):\n" + benchmarkTable(reports)
            + "\n\narrival times predicted at every stop ahead, by horizon (the prediction less the time it is made), "
            + "as the benchmark scores them; 'interval holds': the truth within the predicted 10th-90th percentiles:\n"
            + stopsAheadTable(reports.map { ($0.algorithm, $0.stopsAhead) })
    }
}
