import TrainTrackerCore

/// Fits the arrival model (`ArrivalModel`: how a followed train's delay evolves to each stop
/// ahead, and how far the truth lies about the prediction) to recorded rides: the trip model
/// follows each ride with the constants given, and at every fix that names the ride's own
/// train, each stop ahead the train reached is a sample of the delay it had there
/// (`Sample`).
///
/// The centre is fitted by least absolute deviation, so that it is the median of the arrival
/// and not biased either way: for each departure floor in turn (none, and a grid of delays),
/// the offset and the losses a stop and a minute are a median regression (iteratively
/// reweighted least squares), and the floor with the least deviation is kept. Then, for each
/// growth exponent of the spread, each side's spread is found by bisection so that a tenth of
/// the samples within 15 minutes ahead (where the benchmark looks and riders plan) fall below
/// the interval and a tenth above it, and the exponent under which the interval holds nearest
/// 80 % in every horizon bucket up to 15 minutes is kept.
///
///     let fit = ArrivalModelFit(rides: recorded, model: model, trips: constants)
///     let arrivals = fit.run()          // ArrivalModel?, nil when no ride gave a sample
public struct ArrivalModelFit: Sendable {
    /// One prediction scored against the truth: the stop's place among those ahead (0: the
    /// next), how many minutes away the belief's median puts it, the belief's delay
    /// percentiles now, and the delay the train had when it got there (truth less the
    /// published time), all in seconds.
    public struct Sample: Hashable, Sendable {
        public var stopsBefore: Int
        public var minutesAhead: Double
        public var low: Seconds
        public var median: Seconds
        public var high: Seconds
        public var delay: Seconds

        /// A sample.
        public init(stopsBefore: Int, minutesAhead: Double, low: Seconds, median: Seconds, high: Seconds, delay: Seconds) {
            self.stopsBefore = stopsBefore
            self.minutesAhead = minutesAhead
            self.low = low
            self.median = median
            self.high = high
            self.delay = delay
        }
    }

    /// The samples fitted on.
    public var samples: [Sample]

    /// The departure floors tried (seconds late), besides none.
    /// Set by hand: from three minutes early to ten late, every 10 s, the delays a fitted
    /// floor could sensibly hold.
    static let floors: [Seconds] = Array(stride(from: -180.0, through: 600, by: 10))
    /// The rounds of reweighting in each median regression.
    /// Set by hand: the deviation changes by less than a thousandth after about 20 on Caltrain.
    static let reweightingRounds = 30
    /// The share of samples the interval leaves out on each side: the 10th–90th percentile.
    static let tail = 0.1
    /// The spread's growth exponents tried (`ArrivalModel.spreadExponent`).
    /// Set by hand: from a third to once the time ahead, every tenth; ½ is a random walk's.
    static let spreadExponents: [Double] = Array(stride(from: 0.3, through: 1.0001, by: 0.1))
    /// The benchmark's horizon buckets' upper ends, in minutes ahead: 3, 6, 10, 15.
    static let horizons: [Double] = [3, 6, 10, 15]

    /// A fit on `samples`.
    public init(samples: [Sample]) {
        self.samples = samples
    }

    /// A fit on the samples `rides` give when followed by the trip model on `model` with
    /// the constants `trips` (`samples(of:model:trips:)`).
    public init(rides: [(fixes: [RecordedFix], truth: CaseTruth)], model: TrackerModel, trips: TripModelParameters) {
        self.init(samples: rides.flatMap { Self.samples(of: $0, model: model, trips: trips) })
    }

    /// The fitted model; nil without samples.
    ///
    /// - Complexity: O((f · r + e · b) · n) for the f floors, r rounds of reweighting, e
    ///   exponents, b steps of bisection and n samples.
    public func run() -> ArrivalModel? {
        guard !samples.isEmpty else { return nil }
        var best: (deviation: Double, model: ArrivalModel)?
        for floor in [nil] + Self.floors.map(Optional.some) {
            let (offset, perStop, perMinute) = medianRegression(floor: floor)
            let model = ArrivalModel(
                offset: offset, departureFloor: floor, lossPerStop: perStop, lossPerMinute: perMinute, earlySpread: 0,
                lateSpread: 0)
            let deviation = samples.reduce(0.0) {
                $0 + abs($1.delay - model.delay(at: $1.stopsBefore, from: $1.median, minutesAhead: $1.minutesAhead))
            }
            if best.map({ deviation < $0.deviation }) ?? true { best = (deviation, model) }
        }
        guard let centre = best?.model else { return nil }
        // (Spreads are fitted within the benchmark's 15 minutes where there are samples there:
        // where riders plan.)
        let within = samples.filter { $0.minutesAhead < Self.horizons[Self.horizons.count - 1] }
        let near = within.isEmpty ? samples : within
        var fitted: (imbalance: Double, model: ArrivalModel)?
        for exponent in Self.spreadExponents {
            var model = centre
            model.spreadExponent = exponent
            model.earlySpread = spread(of: model, above: false, on: near)
            model.lateSpread = spread(of: model, above: true, on: near)
            let imbalance = self.imbalance(of: model)
            if fitted.map({ imbalance < $0.imbalance }) ?? true { fitted = (imbalance, model) }
        }
        return fitted?.model.sanitised
    }

    /// How far from 80 % the interval's hold strays in the horizon bucket where it strays
    /// most (the benchmark's, within 15 minutes ahead): the spread's growth is fitted to make
    /// it hold as often near as far.
    private func imbalance(of model: ArrivalModel) -> Double {
        var held = [Int](repeating: 0, count: Self.horizons.count)
        var counted = [Int](repeating: 0, count: Self.horizons.count)
        for sample in samples {
            guard let bucket = Self.horizons.firstIndex(where: { sample.minutesAhead < $0 }) else { continue }
            let predicted = model.predict(
                at: sample.stopsBefore, minutesAhead: sample.minutesAhead, low: sample.low, median: sample.median,
                high: sample.high)
            counted[bucket] += 1
            if predicted.low <= sample.delay, sample.delay <= predicted.high { held[bucket] += 1 }
        }
        let share = 1 - 2 * Self.tail
        return zip(held, counted).map { $1 > 0 ? abs(Double($0) / Double($1) - share) : 0 }.max() ?? 0
    }

    /// The offset and losses a stop and a minute that make the model with departure floor
    /// `floor` the median of the samples' delays: least squares reweighted by the inverse of
    /// each residual (at least a second), from the plain least squares.
    private func medianRegression(floor: Seconds?) -> (Seconds, Seconds, Seconds) {
        var weights = [Double](repeating: 1, count: samples.count)
        var solution = (0.0, 0.0, 0.0)
        for _ in 0..<Self.reweightingRounds {
            var normal = LeastSquares()
            for (sample, weight) in zip(samples, weights) {
                normal.add(Self.features(sample), target: sample.delay - Self.base(sample, floor: floor), weight: weight)
            }
            guard let solved = normal.solve() else { break }
            solution = solved
            for (index, sample) in samples.enumerated() {
                let features = Self.features(sample)
                let fitted = solved.0 * features.0 + solved.1 * features.1 + solved.2 * features.2
                weights[index] = 1 / max(abs(sample.delay - Self.base(sample, floor: floor) - fitted), 1)
            }
        }
        return solution
    }

    /// The delay a sample starts from at its stop, before the offset and losses: raised to
    /// `floor` when it leaves a stop on the way.
    private static func base(_ sample: Sample, floor: Seconds?) -> Seconds {
        sample.stopsBefore > 0 ? max(sample.median, floor ?? -.infinity) : sample.median
    }

    /// The regression's features: 1 (the offset), the calls on the way, the minutes ahead.
    private static func features(_ sample: Sample) -> (Double, Double, Double) {
        (1, Double(sample.stopsBefore), max(sample.minutesAhead, 0))
    }

    /// The spread per (minutes + 1)^exponent on one side that leaves `tail` of the `fitted`
    /// samples (those within 15 minutes ahead) beyond the interval there: found by bisection (the share beyond
    /// falls as the spread grows).
    private func spread(of model: ArrivalModel, above: Bool, on fitted: [Sample]) -> Seconds {
        func beyond(_ spread: Seconds) -> Double {
            var trial = model
            trial.earlySpread = spread
            trial.lateSpread = spread
            let count = fitted.count {
                let predicted = trial.predict(
                    at: $0.stopsBefore, minutesAhead: $0.minutesAhead, low: $0.low, median: $0.median, high: $0.high)
                return above ? $0.delay > predicted.high : $0.delay < predicted.low
            }
            return Double(count) / Double(fitted.count)
        }
        guard beyond(0) > Self.tail else { return 0 }
        var range: (low: Seconds, high: Seconds) = (0, ArrivalModel.widest)
        for _ in 0..<40 {
            let middle = (range.low + range.high) / 2
            if beyond(middle) > Self.tail { range.low = middle } else { range.high = middle }
        }
        return range.high
    }
}

/// Weighted least squares in three unknowns, by their normal equations.
private struct LeastSquares {
    private var matrix = [[Double]](repeating: [0, 0, 0], count: 3)
    private var vector = [0.0, 0.0, 0.0]

    mutating func add(_ features: (Double, Double, Double), target: Double, weight: Double) {
        let row = [features.0, features.1, features.2]
        for i in 0..<3 {
            vector[i] += weight * row[i] * target
            for j in 0..<3 { matrix[i][j] += weight * row[i] * row[j] }
        }
    }

    /// The solution, by Gaussian elimination with partial pivoting; a feature that never
    /// varies (every sample the next stop) gets 0. Nil when nothing was added.
    func solve() -> (Double, Double, Double)? {
        var a = matrix
        var b = vector
        guard a[0][0] > 0 else { return nil }
        let scale = max(a[0][0], a[1][1], a[2][2])
        var solved = [Bool](repeating: true, count: 3)
        for column in 0..<3 {
            let pivot = (column..<3).max { abs(a[$0][column]) < abs(a[$1][column]) } ?? column
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            guard abs(a[column][column]) > 1e-12 * scale else {
                solved[column] = false
                continue
            }
            for row in 0..<3 where row != column {
                let factor = a[row][column] / a[column][column]
                for j in 0..<3 { a[row][j] -= factor * a[column][j] }
                b[row] -= factor * b[column]
            }
        }
        let x = (0..<3).map { solved[$0] ? b[$0] / a[$0][$0] : 0 }
        return (x[0], x[1], x[2])
    }
}

extension ArrivalModelFit {
    /// The samples one ride gives: the default tracker with the constants `trips` follows its
    /// fixes, and at each fix whose answer names the ride's own train, every stop ahead with
    /// a published time that the train reached after the fix (the truth's `stopArrivals`, else
    /// its stops read off the timeline) is one.
    ///
    /// - Complexity: O(n · s) for the ride's n fixes and s stops.
    public static func samples(of ride: (fixes: [RecordedFix], truth: CaseTruth), model: TrackerModel, trips: TripModelParameters)
        -> [Sample]
    {
        let arrivals = Evaluator.arrivals(of: ride.truth)
        var tracker = TrackingAlgorithmName.default.makeTracker(model: model, trips: trips)
        var samples: [Sample] = []
        for fix in ride.fixes {
            let result = tracker.process(fix.location)
            guard let best = result.best, best.trainID == ride.truth.trainID, let delay = best.delayPercentiles else { continue }
            let now = fix.location.timestamp.secondsSince1970
            for (index, predicted) in best.arrivals.enumerated() {
                guard let published = predicted.scheduled?.secondsSince1970,
                    let actual = Evaluator.arrival(at: predicted.stationID, after: now, in: arrivals)
                else { continue }
                samples.append(
                    Sample(
                        stopsBefore: index,
                        minutesAhead: ArrivalModel.minutesAhead(published: published, delay: delay.median, now: now),
                        low: delay.low, median: delay.median, high: delay.high, delay: actual - published))
            }
        }
        return samples
    }
}
