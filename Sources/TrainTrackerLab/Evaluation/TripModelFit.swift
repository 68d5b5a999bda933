import TrainTrackerCore

/// Fits the trip model's constants to recorded rides by maximum likelihood: the sum over the
/// rides of the log-likelihood of each ride's fixes under its true trip
/// (`TripModelParameters.logLikelihood(of:model:)`), raised by a coordinate search (each
/// constant in turn moved up and down by a factor, kept where the likelihood grows, the
/// factor narrowed each round).
///
/// What the likelihood of the true trip can tell is fitted: how far positions lie from the
/// train, how trains dwell, run and keep their delay, how late they start. What only telling
/// trips apart can tell (how often riders board, the share of trains off the timetable) and
/// the grid's own settings are not: those stay as given, and `fittedNames` lists the rest.
///
///     let rides = recorded.map { TripModelRide(fixes: $0.fixes, tripID: $0.trip, model: model) }
///     let fit = TripModelFit(rides: rides, model: model)
///     let result = fit.run()               // result.parameters, result.logLikelihood
public struct TripModelFit: Sendable {
    /// The rides fitted on.
    public var rides: [TripModelRide]
    /// The network and timetable they ran on.
    public var model: TrackerModel
    /// The constants fitted, by tuning name, with how each moves: by a factor (a scale,
    /// positive) or by a step in seconds (a signed time).
    public var fittedNames: [(name: String, signed: Bool)] = Self.fitted
    /// Rounds of the search; each narrows the steps.
    public var rounds = 3

    /// The constants the likelihood of the true trip tells.
    public static let fitted: [(name: String, signed: Bool)] = [
        ("tripPositionScale", false), ("tripTimingScale", false), ("tripOutlierShare", false),
        ("tripLateralScale", false), ("tripDwellBefore", false), ("tripDwellAfter", false),
        ("tripAcceleration", false), ("tripEndReach", false), ("tripDelayWalkScale", false), ("tripDelayDrift", true),
        ("tripHoldRate", false), ("tripHoldMean", false), ("tripDisruptionRate", false), ("tripDisruptionMean", false),
        ("tripOnTimeCentre", true), ("tripOnTimeScale", false), ("tripEarlyScale", false), ("tripLateShare", false),
        ("tripLateMean", false),
    ]

    /// A fit of `rides` on `model`.
    public init(rides: [TripModelRide], model: TrackerModel) {
        self.rides = rides
        self.model = model
    }

    /// The fitted constants, starting from `start`, and the rides' log-likelihood under them;
    /// `progress` is told each trial (for a progress bar).
    ///
    /// Nested, simpler model first: when the disruptions' rate is fitted, the search is run
    /// without disruptions (a rate of 0, which a search by factors never leaves), then again
    /// with `start`'s disruptions from where it ended, and the likeliest of the two and `start`
    /// itself is kept. From the hand-set point straight away, the long jumps are taken by the
    /// disruptions, the holds shrink to 40 s and the delay prior lands on another, lower
    /// optimum (on late November's feeds −147,421 against −147,117 for the model without
    /// disruptions, which the model with them contains).
    ///
    /// - Complexity: O(rounds · constants · n · w) for n fixes in all, twice.
    public func run(from start: TripModelParameters = .init(), progress: (Int) -> Void = { _ in }) -> (
        parameters: TripModelParameters, logLikelihood: Double
    ) {
        var trials = 0
        let count = { (_: Int) in
            trials += 1
            progress(trials)
        }
        let start = start.sanitised
        guard isNested(from: start) else { return search(from: start, names: fittedNames, progress: count) }
        var simple = start
        simple.disruptionRate = 0
        let disruptions = ["tripDisruptionRate", "tripDisruptionMean"]
        let first = search(from: simple, names: fittedNames.filter { !disruptions.contains($0.name) }, progress: count)
        var extended = first.parameters
        extended.disruptionRate = start.disruptionRate
        extended.disruptionMean = start.disruptionMean
        let second = search(from: extended, names: fittedNames, progress: count)
        // (A start that was itself a fit with disruptions may be likelier than both.)
        return [(parameters: start, logLikelihood: score(start)), first, second].max { $0.logLikelihood < $1.logLikelihood }
            ?? second
    }

    /// About how many trials `run(from:)` makes, for a progress bar: three per constant and
    /// round, in each search.
    public func estimatedTrials(from start: TripModelParameters) -> Int {
        rounds * fittedNames.count * 3 * (isNested(from: start.sanitised) ? 2 : 1)
    }

    /// Whether `run(from:)` searches twice: the disruptions' rate is fitted and `start` has
    /// disruptions.
    private func isNested(from start: TripModelParameters) -> Bool {
        start.disruptionRate > 0 && fittedNames.contains { $0.name == "tripDisruptionRate" }
    }

    /// A coordinate search over `names` from `start`.
    private func search(
        from start: TripModelParameters, names: [(name: String, signed: Bool)], progress: (Int) -> Void
    ) -> (parameters: TripModelParameters, logLikelihood: Double) {
        var best = start
        var bestScore = score(best)
        let paths = TripModelParameters.tunables
        for round in 0..<rounds {
            let factor = [1.6, 1.25, 1.1, 1.05][min(round, 3)]
            let step: Seconds = [30, 10, 4, 2][min(round, 3)]
            for (name, signed) in names {
                guard let path = paths[name] else { continue }
                // Up and down, and on in the direction that pays while it pays.
                for direction in [1.0, -1.0] {
                    var moved = false
                    while true {
                        var trial = best
                        let value = trial[keyPath: path]
                        trial[keyPath: path] = signed ? value + direction * step : direction > 0 ? value * factor : value / factor
                        trial = trial.sanitised
                        guard trial[keyPath: path] != value else { break }
                        progress(0)
                        let trialScore = score(trial)
                        guard trialScore > bestScore + 1e-6 else { break }
                        best = trial
                        bestScore = trialScore
                        moved = true
                    }
                    if moved { break }
                }
            }
        }
        return (best, bestScore)
    }

    /// The rides' summed log-likelihood under `parameters`.
    public func score(_ parameters: TripModelParameters) -> Double {
        rides.reduce(0) { $0 + parameters.logLikelihood(of: $1, model: model) }
    }
}
