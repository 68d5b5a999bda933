import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerLab
import TrainTrackerStorage

/// `evaluate --recording FILE`: scores algorithms on real rides, one per trip and service day
/// of a recording of trains' own positions, against the trips of the timetable they ran on.
struct RecordingEvaluation {
    /// The feed the trains ran on, with its timetable.
    var dataset: TransitDataset
    var railwaysPath: String
    var recordingPath: String
    var variants: [(name: String, make: () -> any TrackingAlgorithm)]
    var format: EvaluateCommand.Format
    var svgPath: String?
    var casesFolder: String?
    /// Late riders: each ride scored from this many seconds after its departure, as a rider
    /// who boards then (warm-up and lock time counted from boarding).
    var joinAfter: Seconds?

    /// What `evaluate --help` says of it.
    static let discussion = """
        Real rides (--recording FILE with --railways GTFS): an archive of an agency's GTFS-realtime vehicle \
        positions, as an SQLite table train_locations (trip_id, vehicle_lat, vehicle_lon, timestamp) or a CSV \
        (trip_id, latitude, longitude, timestamp[, zone]; local times without an offset are on the row's zone or \
        the feed's agency_timezone). One ride per trip and service day; exact repeats (a stale position published \
        again) and positions over 300 m off the track are left out; the truth is the trip's railway, direction, \
        stops and train. A ride departs at its last fix within 300 m of its first (a train may stand at its \
        origin for an hour); fixes are scored from 180 s after that; 'train': the answer names the trip; \
        'locked ≤ 5 min': locked within 300 s of the departure and kept; per route, per hour of the day, and the \
        arrival times by whole minutes before the true arrival (5+: five or more).
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
        var hours: [Int: HourTally]
        /// The arrival times by whole minutes before the true arrival.
        var arrivals: [ArrivalRow]
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
        let zone = dataset.timetable.zone
        let recording = try CommandFailure.wrapping { () throws(ImportError) in
            try VehiclePositionRecording.read(path: recordingPath, zone: zone)
        }
        var rides = RecordedRides(positions: recording.positions, dataset: dataset)
        if let joinAfter { rides.cases = rides.cases.compactMap { RiderFeeds.joining($0, after: joinAfter) } }
        guard !rides.cases.isEmpty else {
            throw CommandFailure("\(recordingPath): no ride of a trip in \(railwaysPath) (trip ids must be the feed's trip_id)")
        }
        if let casesFolder { try CasesFolder.write(rides.cases, railways: railwaysPath, to: casesFolder) }
        var evaluator = Evaluator()
        evaluator.warmUp = Self.warmUp
        let running = RunningRailways(dataset: dataset)
        var reports: [Report] = []
        var progress = ProgressBar(label: "evaluate", total: variants.count * rides.cases.count)
        for variant in variants {
            var hours: [Int: HourTally] = [:]
            var arrivals: [Int: ArrivalTally] = [:]
            var scores: [CaseScore] = []
            var withoutTrain = 0
            for ride in rides.cases {
                scores.append(
                    evaluator.score(fixes: ride.fixes, truth: ride.truth, tracker: variant.make()) { verdict in
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
                        }
                    })
                progress.update(reports.count * rides.cases.count + scores.count)
            }
            let routes = Dictionary(grouping: scores) { $0.scenario ?? "" }.mapValues {
                Summary(algorithm: variant.name, scores: $0)
            }
            reports.append(
                Report(
                    algorithm: variant.name, all: Summary(algorithm: variant.name, scores: scores), routes: routes, hours: hours,
                    arrivals: Self.arrivalRows(arrivals), railwayWithoutTrain: withoutTrain))
        }
        progress.finish()
        if let svgPath {
            let picture = RecordingChart.svg(
                title: "Real rides: \(URL(fileURLWithPath: recordingPath).lastPathComponent), \(rides.cases.count) rides",
                reports: reports)
            try CommandFailure.wrapping { () throws(StorageError) in try StagedFile.write(Data(picture.utf8), to: svgPath) }
        }
        let output = OutputSink.standardOutput()
        switch format {
        case .table:
            output.line(Self.header(recording: recording, rides: rides))
            output.line(Self.table(reports))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            guard let data = try? encoder.encode(reports) else { throw CommandFailure("cannot encode the report") }
            output.line(String(decoding: data, as: UTF8.self))
        }
        output.flush()
    }

    /// The local hour (0–23) of `time` on `zone`'s clock.
    static func hour(of time: Double, zone: TimeZoneRules) -> Int {
        let local = time + zone.offset(at: Timestamp(secondsSince1970: time))
        return Int(flooring: (local / 3_600).truncatingRemainder(dividingBy: 24) + 24, within: 0...100) % 24
    }

    /// What was read and left out.
    static func header(recording: VehiclePositionRecording, rides: RecordedRides) -> String {
        let fixes = rides.cases.reduce(0) { $0 + $1.fixes.count }
        let dropped = (recording.skipped.merging(rides.dropped, uniquingKeysWith: +)).sorted { $0.key < $1.key }
        return "\(recording.positions.count) positions: \(rides.cases.count) rides, \(fixes) fixes; left out: "
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
            for (route, summary) in [("all", report.all)] + report.routes.sorted(by: { $0.key < $1.key }) {
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
    }
}
