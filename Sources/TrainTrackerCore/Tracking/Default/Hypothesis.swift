import RealModule

/// One (railway, direction) the train may be on: its score, where it places the train, and
/// what each kind of evidence keeps about it.
struct Hypothesis: Sendable {
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
    var pending: [(station: Int, position: Meters)] = []
    /// Where the latest stops were.
    var stops: [Meters] = []
    /// Where the train stands, during a stop.
    var stopPosition: Meters?
    /// The last fix that judged progress: when, where it placed the train, and its sigma.
    var progressAnchor: (time: Timestamp, along: Meters, sigma: Meters)?
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

/// A scheduled train a hypothesis may be: its weight and its delay at the last departure.
struct TripCandidate: Sendable, Codable {
    /// An index into the line's `TrackerModel.trips`.
    var trip: Int32
    /// Log weight (relative).
    var logWeight: Double
    /// Seconds it left the last station after its published time.
    var delay: Seconds
    /// Its service day's midnight, in seconds of the timetable's clock since 1970.
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

extension Hypothesis: Codable {
    /// A station crossed and not yet judged.
    private struct Pending: Codable {
        var station: Int
        var position: Meters
    }

    /// The last fix that judged progress.
    private struct ProgressAnchor: Codable {
        var time: Timestamp
        var along: Meters
        var sigma: Meters
    }

    private enum CodingKeys: String, CodingKey {
        case line, score, patternWeights, stopChance, trainTypeID, walk, offset, along, previousAlong, missed, pending
        case stops, stopPosition, progressAnchor, trips, lastPassage, passageUnmatched, passageLostTrain, trafficPrior
        case trafficStretch, evidence
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            line: try container.decode(LineDirection.self, forKey: .line),
            score: try container.decode(Double.self, forKey: .score),
            offset: try container.decode(LateralOffset.self, forKey: .offset),
            patternWeights: try container.decode([Double].self, forKey: .patternWeights),
            stopChance: try container.decode([Double].self, forKey: .stopChance),
            walk: try container.decode(TrackWalk.self, forKey: .walk))
        trainTypeID = try container.decodeIfPresent(String.self, forKey: .trainTypeID)
        along = try container.decodeIfPresent(Meters.self, forKey: .along)
        previousAlong = try container.decodeIfPresent(Meters.self, forKey: .previousAlong)
        missed = try container.decode(Int.self, forKey: .missed)
        pending = try container.decode([Pending].self, forKey: .pending).map { ($0.station, $0.position) }
        stops = try container.decode([Meters].self, forKey: .stops)
        stopPosition = try container.decodeIfPresent(Meters.self, forKey: .stopPosition)
        progressAnchor = try container.decodeIfPresent(ProgressAnchor.self, forKey: .progressAnchor).map {
            ($0.time, $0.along, $0.sigma)
        }
        trips = try container.decode([TripCandidate].self, forKey: .trips)
        lastPassage = try container.decodeIfPresent(Timestamp.self, forKey: .lastPassage)
        passageUnmatched = try container.decode(Bool.self, forKey: .passageUnmatched)
        passageLostTrain = try container.decode(Bool.self, forKey: .passageLostTrain)
        trafficPrior = try container.decode(Double.self, forKey: .trafficPrior)
        trafficStretch = try container.decode(Range<Meters>.self, forKey: .trafficStretch)
        evidence = try container.decodeIfPresent([Double].self, forKey: .evidence)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line, forKey: .line)
        try container.encode(score, forKey: .score)
        try container.encode(patternWeights, forKey: .patternWeights)
        try container.encode(stopChance, forKey: .stopChance)
        try container.encodeIfPresent(trainTypeID, forKey: .trainTypeID)
        try container.encode(walk, forKey: .walk)
        try container.encode(offset, forKey: .offset)
        try container.encodeIfPresent(along, forKey: .along)
        try container.encodeIfPresent(previousAlong, forKey: .previousAlong)
        try container.encode(missed, forKey: .missed)
        try container.encode(pending.map { Pending(station: $0.station, position: $0.position) }, forKey: .pending)
        try container.encode(stops, forKey: .stops)
        try container.encodeIfPresent(stopPosition, forKey: .stopPosition)
        try container.encodeIfPresent(
            progressAnchor.map { ProgressAnchor(time: $0.time, along: $0.along, sigma: $0.sigma) }, forKey: .progressAnchor)
        try container.encode(trips, forKey: .trips)
        try container.encodeIfPresent(lastPassage, forKey: .lastPassage)
        try container.encode(passageUnmatched, forKey: .passageUnmatched)
        try container.encode(passageLostTrain, forKey: .passageLostTrain)
        try container.encode(trafficPrior, forKey: .trafficPrior)
        try container.encode(trafficStretch, forKey: .trafficStretch)
        try container.encodeIfPresent(evidence, forKey: .evidence)
    }
}
