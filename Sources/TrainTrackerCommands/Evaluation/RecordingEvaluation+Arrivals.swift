import TrainTrackerCore
import TrainTrackerLab

extension RecordingEvaluation {
    /// Arrival times are tallied by whole minutes before the true arrival, the last row
    /// holding this many minutes and more.
    static let arrivalRows = 5

    /// The arrival times scored at fixes some whole minutes before the true arrival.
    struct ArrivalTally {
        /// Each scored arrival time's error, in seconds (positive: later than the truth).
        var errors: [Seconds] = []

        /// The row of the table a fix `ahead` seconds before the true arrival falls in.
        static func row(ahead: Seconds) -> Int {
            Int(flooring: ahead / 60, within: 0...RecordingEvaluation.arrivalRows)
        }
    }

    /// One row of arrival times, as reported: how many, the share within a minute of the
    /// truth, the mean absolute error and the median error (positive: later than the truth).
    struct ArrivalRow: Encodable {
        var minutesAhead: String
        var fixes: Int
        var withinMinute: Double
        var meanAbsoluteError: Seconds
        var medianError: Seconds

        init?(row: Int, tally: ArrivalTally) {
            guard !tally.errors.isEmpty else { return nil }
            minutesAhead = row >= RecordingEvaluation.arrivalRows ? "\(row)+" : "\(row)–\(row + 1)"
            fixes = tally.errors.count
            let within = tally.errors.filter { abs($0) <= Evaluator.arrivalTolerance }.count
            withinMinute = Double(within) / Double(fixes)
            meanAbsoluteError = tally.errors.reduce(0) { $0 + abs($1) } / Double(fixes)
            medianError = tally.errors.median ?? 0
        }
    }

    /// The rows of `tallies` (by minutes ahead) that hold any arrival time.
    static func arrivalRows(_ tallies: [Int: ArrivalTally]) -> [ArrivalRow] {
        tallies.sorted { $0.key < $1.key }.compactMap { ArrivalRow(row: $0.key, tally: $0.value) }
    }

    /// Per algorithm, the arrival times by minutes before the true arrival.
    static func arrivalTable(_ reports: [Report]) -> String {
        var rows = [["algorithm", "minutes ahead", "fixes", "eta ±1 min", "mean |error|", "median error (+ late)"]]
        for report in reports {
            for row in report.arrivals {
                rows.append([
                    report.algorithm, row.minutesAhead, "\(row.fixes)", percent(row.withinMinute),
                    "\(Int(displaying: row.meanAbsoluteError)) s", "\(Int(displaying: row.medianError)) s",
                ])
            }
        }
        return alignedTable(rows)
    }

    /// Per algorithm, the Transit benchmark's buckets and headline.
    static func benchmarkTable(_ reports: [Report]) -> String {
        var rows = [["algorithm", "minutes ahead", "early / late", "predictions", "right"]]
        for report in reports {
            for bucket in report.benchmark.buckets {
                rows.append([
                    report.algorithm, bucket.label, "\(Int(displaying: bucket.early)) / \(Int(displaying: bucket.late)) s",
                    "\(bucket.predictions)", bucket.share.map(percent) ?? "-",
                ])
            }
            rows.append([report.algorithm, "headline", "", "", report.benchmark.headline.map(percent) ?? "-"])
        }
        return alignedTable(rows)
    }
}
