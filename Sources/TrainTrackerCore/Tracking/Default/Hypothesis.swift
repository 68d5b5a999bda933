import RealModule

/// One (railway, direction) the train may be on: its score, where it places the train, and
/// what each kind of evidence keeps about it.
struct Hypothesis: Sendable, Codable {
    /// The railway and direction it stands for.
    let line: LineDirection
    /// Its log score, relative to the leader after each fix.
    var score: Double
    /// Log posterior of each service pattern, normalised.
    var patternWeights: [Double]
    /// The chance the train stops at each station of the railway, under those patterns.
    var stopChance: [Double]
    /// The train type those patterns point to, if clear.
    var trainTypeID: String?
    /// Walking along the railway in the hypothesis's direction.
    let walk: TrackWalk
    /// How far to one side of the drawn track its train runs.
    var offset: LateralOffset
    /// Where it places the train along the track, once a fix has placed it.
    var along: Meters?
    /// ... as of the previous fix (stations in between were crossed).
    var previousAlong: Meters?
    /// Fixes in a row with the railway out of reach.
    var missed = 0
    /// Stations crossed and not yet judged (the train is not yet well past them).
    var pending: [PendingStation] = []
    /// Where the latest stops were.
    var stops: [Meters] = []
    /// Where the train stands, during a stop.
    var stopPosition: Meters?
    /// The last fix that judged progress: when, where it placed the train, and its sigma.
    var progressAnchor: ProgressAnchor?
    /// The scheduled trains it may be, once it has left a station.
    var trips: [TripCandidate] = []
    /// The last fix that judged a passage.
    var lastPassage: Timestamp?
    /// Whether a passage found no train of the line due and said so (once until one is).
    var passageUnmatched = false
    /// Whether the followed trains stopped fitting at the last passage (the next looks afresh).
    var passageLostTrain = false
    /// The traffic prior now in its score.
    var trafficPrior = 0.0
    /// The stretch between two stations that prior belongs to.
    var trafficStretch: Range<Meters> = 0..<0
    /// What each kind of evidence added at the latest fix, when the tracker explains.
    var evidence: [Double]?

    init(
        line: LineDirection, score: Double, offset: LateralOffset, patternWeights: [Double], stopChance: [Double], walk: TrackWalk
    ) {
        self.line = line
        self.score = score
        self.offset = offset
        self.patternWeights = patternWeights
        self.stopChance = stopChance
        self.walk = walk
    }

    /// Adds `nats` of `term` to the score, and to the explanation when one is kept.
    mutating func charge(_ term: EvidenceTerm, _ nats: Double) {
        score += nats
        if evidence != nil { evidence?[term.index] += nats }
    }

    /// Starts a fresh explanation for the next fix.
    mutating func startExplaining() {
        evidence = Array(repeating: 0, count: EvidenceTerm.allCases.count)
    }

    /// Whether a fix `distance` from where the line's trains run, with error `sigma`, is good
    /// enough to place the train: near this track, and not wildly inaccurate.
    static func placesTheTrain(distance: Meters, sigma: Meters) -> Bool {
        distance <= max(3 * sigma, 60) && sigma <= 150
    }

    /// Re-weights the service patterns by each one's log likelihood of an event (`logLikelihood`
    /// of a pattern's index) and returns the mixture's log likelihood: what the event says for
    /// the hypothesis. The weights stay a normalised log posterior.
    mutating func weighPatterns(model: TrackerModel, _ logLikelihood: (Int) -> Double) -> Double {
        var total = -Double.infinity
        for index in patternWeights.indices {
            patternWeights[index] += logLikelihood(index)
            total = LogSpace.sum(total, patternWeights[index])
        }
        for index in patternWeights.indices { patternWeights[index] -= total }
        stopChance = model.stopChance(line: line, weights: patternWeights)
        trainTypeID = model.trainType(line: line, weights: patternWeights)
        return total
    }
}

/// A station crossed and not yet judged: which, and where along the track.
struct PendingStation: Sendable, Codable {
    var station: Int
    var position: Meters
}

/// The last fix that judged progress: when, where it placed the train, and its sigma.
struct ProgressAnchor: Sendable, Codable {
    var time: Timestamp
    var along: Meters
    var sigma: Meters
}

/// A scheduled train a hypothesis may be: its weight and its delay at the last departure.
struct TripCandidate: Sendable, Codable {
    /// An index into the line's `TrackerModel.trips`.
    var trip: Int32
    /// Log weight (relative).
    var logWeight: Double
    /// Seconds it left the last station after its published time.
    var delay: Seconds
    /// Where its service day's clock starts (`TimeZoneRules.serviceDayOrigin`), in seconds
    /// since 1970 (UTC).
    var origin: Seconds
    /// How much its delay may change by the next observation, as the last one left it: a
    /// departure's delay is sharp, a passage's less so.
    var delayScale: Seconds
}

/// Arithmetic on logarithms of probabilities.
enum LogSpace {
    /// log(exp(a) + exp(b)), without overflow.
    static func sum(_ a: Double, _ b: Double) -> Double {
        if a == -.infinity { return b }
        if b == -.infinity { return a }
        let high = max(a, b)
        return high + Double.log(Double.exp(a - high) + Double.exp(b - high))
    }
}
