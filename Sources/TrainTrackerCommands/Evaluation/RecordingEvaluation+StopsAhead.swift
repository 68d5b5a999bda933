import TrainTrackerCore
import TrainTrackerLab

extension RecordingEvaluation {
    /// Predictions this many minutes ahead and more share the last row of the per-minute table.
    static let stopsAheadMinutes = 15

    /// The predicted arrivals at every stop ahead (`TrackingCandidate.arrivals`), scored as the
    /// Transit ETA Accuracy Benchmark scores them, by horizon: the buckets and beyond 15
    /// minutes, how often the 10th–90th percentile interval held the truth, and each minute's
    /// median error; per service day and route, the headline.
    struct StopsAheadTally: Encodable {
        var benchmark = ArrivalBenchmark()
        /// Predictions beyond the benchmark's last bucket, and how many its window would call right.
        var beyondPredictions = 0
        var beyondRight = 0
        /// Per bucket (the last: beyond 15 minutes), predictions whose interval held the truth.
        var covered: [Int] = Array(repeating: 0, count: ArrivalBenchmark().buckets.count + 1)
        var scored: [Int] = Array(repeating: 0, count: ArrivalBenchmark().buckets.count + 1)
        /// Errors by whole minutes of horizon (the last row: `stopsAheadMinutes` and more).
        var errors: [Int: [Seconds]] = [:]
        /// The benchmark per service day and per route.
        var days: [String: ArrivalBenchmark] = [:]
        var routes: [String: ArrivalBenchmark] = [:]
        /// Per service day and per route, the errors within 15 minutes ahead and how many of
        /// their intervals held the truth.
        var partErrors: [String: [Seconds]] = [:]
        var partCovered: [String: Int] = [:]

        /// Adds the stops ahead scored at the fix at `time`, on `day`, on a ride of `route`.
        mutating func add(_ verdicts: [StopAheadVerdict], at time: Seconds, day: String, route: String) {
            for verdict in verdicts where verdict.horizon >= 0 {
                let actual = time + verdict.ahead
                let predicted = actual + verdict.error
                benchmark.add(predicted: predicted, actual: actual, at: time)
                days[day, default: ArrivalBenchmark()].add(predicted: predicted, actual: actual, at: time)
                routes[route, default: ArrivalBenchmark()].add(predicted: predicted, actual: actual, at: time)
                let buckets = benchmark.buckets
                let bucket = buckets.firstIndex { $0.ahead.contains(verdict.horizon) } ?? buckets.count
                if bucket == buckets.count, let last = buckets.last {
                    beyondPredictions += 1
                    if last.isRight(lateness: -verdict.error) { beyondRight += 1 }
                }
                scored[bucket] += 1
                if verdict.covered { covered[bucket] += 1 }
                let minute = Int(flooring: verdict.horizon / 60, within: 0...RecordingEvaluation.stopsAheadMinutes)
                errors[minute, default: []].append(verdict.error)
                guard bucket < buckets.count else { continue }
                for part in [day, route] {
                    partErrors[part, default: []].append(verdict.error)
                    if verdict.covered { partCovered[part, default: 0] += 1 }
                }
            }
        }
    }

    /// The stops-ahead report of one algorithm: the buckets with their interval coverage, the
    /// per-minute median errors, and the headline per day and route.
    static func stopsAheadTable(_ reports: [(algorithm: String, tally: StopsAheadTally)]) -> String {
        var rows = [["algorithm", "minutes ahead", "early / late", "predictions", "right", "interval holds"]]
        for (algorithm, tally) in reports {
            let buckets = tally.benchmark.buckets
            for (index, bucket) in buckets.enumerated() {
                rows.append([
                    algorithm, bucket.label, "\(Int(displaying: bucket.early)) / \(Int(displaying: bucket.late)) s",
                    "\(bucket.predictions)", bucket.share.map(percent) ?? "-", coverage(tally, index),
                ])
            }
            let (beyond, right) = (tally.beyondPredictions, tally.beyondRight)
            rows.append([
                algorithm, "15+ min", "(as 10–15)", "\(beyond)", beyond > 0 ? percent(Double(right) / Double(beyond)) : "-",
                coverage(tally, buckets.count),
            ])
            rows.append([algorithm, "headline", "", "", tally.benchmark.headline.map(percent) ?? "-", ""])
        }
        var minutes = [["algorithm", "minutes ahead", "predictions", "median error (+ late)"]]
        for (algorithm, tally) in reports {
            for (minute, errors) in tally.errors.sorted(by: { $0.key < $1.key }) {
                let label = minute >= stopsAheadMinutes ? "\(minute)+" : "\(minute)–\(minute + 1)"
                minutes.append([algorithm, label, "\(errors.count)", "\(Int(displaying: -(errors.median ?? 0))) s"])
            }
        }
        var parts = [["algorithm", "day or route", "predictions", "headline", "median error (+ late)", "interval holds"]]
        for (algorithm, tally) in reports {
            for (name, benchmark) in tally.days.sorted(by: { $0.key < $1.key }) + tally.routes.sorted(by: { $0.key < $1.key }) {
                let count = benchmark.buckets.reduce(0) { $0 + $1.predictions }
                let errors = tally.partErrors[name] ?? []
                let held = errors.isEmpty ? "-" : percent(Double(tally.partCovered[name] ?? 0) / Double(errors.count))
                let median = errors.median.map { "\(Int(displaying: -$0)) s" } ?? "-"
                parts.append([algorithm, name, "\(count)", benchmark.headline.map(percent) ?? "-", median, held])
            }
        }
        return alignedTable(rows) + "\n\nmedian error by minutes ahead (the truth less the prediction: + the train came later):\n"
            + alignedTable(minutes)
            + "\n\nper service day and route (median error and interval within 15 minutes ahead):\n" + alignedTable(parts)
    }

    /// The share of bucket `index`'s predictions whose interval held the truth.
    private static func coverage(_ tally: StopsAheadTally, _ index: Int) -> String {
        tally.scored[index] > 0 ? percent(Double(tally.covered[index]) / Double(tally.scored[index])) : "-"
    }
}
