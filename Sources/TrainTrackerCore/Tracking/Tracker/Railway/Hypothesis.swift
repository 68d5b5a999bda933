import RealModule

/// One (railway, direction) the train may be on: its score, where it places the train, what
/// its line's timetable says about the train so far, and what each kind of evidence keeps
/// about it, in a struct of that kind's own (`StopEvidence.State`, ...).
///
/// Adding a field here changes the snapshot's form: bump `RailwayTracker.Snapshot.currentVersion`
/// (`SnapshotShapeTests` fails until then).
struct Hypothesis: Sendable, Codable {
    /// The railway and direction it stands for.
    let line: LineDirection
    /// Its log score, relative to the leader after each fix.
    var score: Nats
    /// Walking along the railway in the hypothesis's direction.
    let walk: TrackWalk
    /// How far to one side of the drawn track its train runs.
    var offset: LateralOffset
    /// Where it places the train along the track, once a fix has placed it.
    var along: Meters?
    /// Fixes in a row with the railway out of reach.
    var missed = 0
    /// Which of the line's service patterns the train runs, as its stops and times say.
    var patterns: PatternBelief
    /// The scheduled trains it may be, once a departure or a passage named some.
    var trains = FollowedTrains()
    /// What `StopEvidence` keeps: stations crossed, stops made.
    var stops = StopEvidence.State()
    /// What `ProgressEvidence` keeps: the last fix that judged progress.
    var progress = ProgressEvidence.State()
    /// What `TrafficEvidence` keeps: the prior now in the score.
    var traffic = TrafficEvidence.State()
    /// What `PassageEvidence` keeps: when it last judged.
    var passages = PassageEvidence.State()
    /// What each kind of evidence added at the latest fix, when the tracker explains.
    var evidence: [Nats]?
    /// What the kinds of evidence the trip tracker takes (`EvidenceTerm.lineEvidence`) added
    /// since it last took them (`RailwayTracker.takeLineEvidence()`).
    var untaken = LineEvidence()

    init(line: LineDirection, score: Nats, offset: LateralOffset, patterns: PatternBelief, walk: TrackWalk) {
        self.line = line
        self.score = score
        self.offset = offset
        self.patterns = patterns
        self.walk = walk
    }

    /// Adds `nats` of `term` to the score, and to the explanation when one is kept.
    mutating func charge(_ term: EvidenceTerm, _ nats: Nats) {
        score += nats
        if let share = term.lineEvidence { untaken[keyPath: share] += nats }
        if evidence != nil { evidence?[term.index] += nats }
    }

    /// Starts a fresh explanation for the next fix.
    mutating func startExplaining() {
        evidence = Array(repeating: 0, count: EvidenceTerm.allCases.count)
    }

    /// The rider left the train: what its stops and times said about it no longer applies
    /// (where the line places the rider, and its traffic prior, stay).
    mutating func forgetTrain(model: TrackerModel) {
        patterns = PatternBelief(model: model, line: line)
        trains = FollowedTrains()
        stops.forgetTrain()
        progress = ProgressEvidence.State()
        passages = PassageEvidence.State()
    }
}

/// Which of a line's service patterns the train runs: a normalised log posterior per pattern,
/// and what it implies (the chance of a stop at each station, the train type when clear). Stop,
/// departure and passage evidence re-weight it.
struct PatternBelief: Sendable, Codable {
    /// Log posterior of each service pattern, normalised.
    var weights: [Double]
    /// The chance the train stops at each station of the railway, under those patterns.
    var stopChance: [Double]
    /// The train type those patterns point to, if clear.
    var trainTypeID: String?

    /// The line's prior: each pattern weighted by its trains.
    init(model: TrackerModel, line: LineDirection) {
        weights = model.patternPriors[line: line]
        stopChance = model.initialStopChance[line: line]
    }
}

extension Hypothesis {
    /// Re-weights the service patterns by each one's log likelihood of an event (`logLikelihood`
    /// of a pattern's index) and returns the mixture's log likelihood: what the event says for
    /// the hypothesis. The weights stay a normalised log posterior.
    mutating func weighPatterns(model: TrackerModel, _ logLikelihood: (Int) -> Double) -> Double {
        var total = -Double.infinity
        for index in patterns.weights.indices {
            patterns.weights[index] += logLikelihood(index)
            total = LogSpace.sum(total, patterns.weights[index])
        }
        for index in patterns.weights.indices { patterns.weights[index] -= total }
        patterns.stopChance = model.stopChance(line: line, weights: patterns.weights)
        patterns.trainTypeID = model.trainType(line: line, weights: patterns.weights)
        return total
    }
}

/// The scheduled trains a hypothesis may be, shared by departure and passage evidence.
struct FollowedTrains: Sendable, Codable {
    /// The candidates, each with its weight and delay.
    var trips: [TripCandidate] = []
    /// Whether a passage found no train of the line due and said so (once until one is).
    var unmatched = false
    /// Whether the followed trains stopped fitting at the last passage (the next looks afresh).
    var lost = false
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
