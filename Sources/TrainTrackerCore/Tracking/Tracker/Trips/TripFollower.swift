import RealModule

/// The trip model: a hidden Markov model whose hidden state is a scheduled trip running that
/// day together with its delay, on a grid of `TripModelParameters.gridStep` seconds.
///
/// Per fix (the forward algorithm, so the answer at a fix uses that fix and earlier ones only):
/// 1. **Delay process** (`TripFollower+Delay.swift`): each followed trip's delay wanders (a
///    Laplace step growing with the square root of the time since the last fix, and a drift),
///    may jump, and its train may come to stand on its way, where it stays while its delay
///    grows (`Followed.standing`).
/// 2. **Boarding**: a rider may board or change to any trip, at a rate per hour of riding
///    (looked at once every `boardingInterval`; likelier at a trip's origin at the delays at
///    which its train still waits there); the entered trip's delay is drawn from the delay
///    prior (on time, or late by an exponential).
/// 3. **Emission**: the fix is projected on each trip's line and compared with where that trip
///    would be at that delay (`TripTimeline`: dwells at its calls, runs between them), along
///    the track (a Laplace of scale `positionScale` standing, wider by the timing scale at
///    speed, with a share of outliers) and across it (the fix's distance from the track).
/// 4. The beliefs are normalised; their sum's logarithm is the fix's log-likelihood.
///
/// A state "on no trip of the timetable" keeps the model honest on a day the timetable does not
/// cover. The railway is the believed trip's route, the direction its direction.
///
///     var follower = TripFollower(model: model)
///     follower.observe(fix, reach: lines)       // lines within reach, with their projections
///     follower.belief?.trip                     // the likeliest trip and its delay
///
/// - Complexity: O(k · w) per fix for k trips followed or due near the fix and w delay cells
///   each (a few dozen once a trip is known).
struct TripFollower: Sendable {
    /// A trip on one service day.
    struct Key: Hashable, Sendable {
        var line: Int32
        var trip: Int32
        /// Where the trip's service day's clock starts (seconds since 1970).
        var origin: Seconds

        /// The trip's railway and direction.
        var lineDirection: LineDirection { LineDirection(index: Int(line)) }
    }

    /// One trip followed: its belief over delays `low * step ...`, with its train running
    /// (`mass`) or standing still on its way (`standing`: empty, or as many cells as `mass`).
    struct Followed: Sendable {
        var key: Key
        var low: Int
        var mass: [Double]
        var standing: [Double] = []
        var total: Double { mass.reduce(0, +) + standing.reduce(0, +) }

        /// The belief at cell `cell` (an index into `mass`), running or standing.
        func value(at cell: Int) -> Double { mass[cell] + (standing.isEmpty ? 0 : standing[cell]) }

        /// The belief at every delay, running and standing, times `factor`.
        mutating func scale(by factor: Double) {
            for cell in mass.indices { mass[cell] *= factor }
            for cell in standing.indices { standing[cell] *= factor }
        }

        /// The belief at cell `cell`, running and standing, times `factor`.
        mutating func scale(cell: Int, by factor: Double) {
            mass[cell] *= factor
            if !standing.isEmpty { standing[cell] *= factor }
        }
    }

    /// A line within reach of a fix: where the fix lies along and across its track.
    struct Reach: Sendable {
        var line: LineDirection
        var along: Meters
        var across: Meters
    }

    /// What the model believes after a fix.
    struct Belief: Sendable {
        var key: Key
        /// The trip's share of the belief, and its line's (all its trips').
        var share: Double
        var lineShare: Double
        /// The trip's likeliest delay.
        var delay: Seconds
        /// The share of "on no trip of the timetable".
        var offTimetable: Double
    }

    let parameters: TripModelParameters
    /// Only this trip id is followed (fitting: the likelihood of a ride under its true trip).
    let onlyTrip: String?
    var followed: [Followed] = []
    var offTimetable = 0.0
    private(set) var last: Timestamp?
    /// The sum of the fixes' log-likelihoods so far.
    var logLikelihood = 0.0
    /// The timelines of the trips seen at the last boarding and of those followed since (built
    /// once, not at every fix).
    private(set) var timelines: [Key: TripTimeline] = [:]
    /// Seconds since a share of the belief last boarded.
    private var sinceBoarding: Seconds = 0
    /// Where the ride's first fix lay, and whether a fix has since lain beyond
    /// `departureDistance` of it (the rider's train has left).
    private var firstPlace: Coordinate?
    private var departed = false
    /// The delay prior of each railway's trains, by index, as looked up.
    private var priors: [Int: PriorCells] = [:]
    /// The rider on a platform, on no train, after walking away from one (`leaveTrain`).
    var platform: Platform?
    /// Whether what cannot last a fix is left unweighed: trips boarded at it (`dropHopeless`)
    /// and cells at a trip's ends (`trimHopeless`). False: everything is weighed, to check that
    /// leaving them out changes nothing.
    var dropsHopeless = true
    /// How many boarded trips and cells were left unweighed so far (`dropsHopeless`).
    var unweighed = (trips: 0, cells: 0)

    /// A railway's delay prior, and its mass at each cell of the grid (`lowestCell` first):
    /// worked out once per railway, not at every boarding's every cell (three exponentials a
    /// cell, for the 150 trips a boarding enters on Tokyo's dense lines).
    struct PriorCells: Sendable {
        var prior: TripModelParameters.DelayPrior
        var mass: [Double]
    }

    /// Beliefs smaller than this share of the largest are dropped. (1e-8: a hold's exponential
    /// tail is cut after about 100 cells instead of 200; on Caltrain's six recorded days, with
    /// the hand-set constants, every figure the same to the decimal as at 1e-12, at 203 µs a
    /// fix instead of 327. A disruption's tail, of a mean of 14 minutes, is small enough per cell
    /// to outlive it up to its 60-minute reach.)
    /// Set by hand for speed; not fitted.
    static let pruneRatio = 1e-8
    /// A trip holding less than this share of all the trips' belief is dropped (boarding brings
    /// it back if its train comes to explain the fixes).
    /// Set by hand on 2026-11-27 for speed with `boardingInterval`: Caltrain's six held-out days
    /// the same to the decimal. Raised from 1e-7 on 2026-12-07: Tokyo's bench rides 30.6–32.1 →
    /// 27.4–28.6 µs a fix; Caltrain's recordings with the compiled-in constants the same to the
    /// decimal, its six days held out the same overall (train 98.9 %, 1 December 97.9 %, 2
    /// December 98.8 → 98.9 %, South County 97.1 → 96.9 %); Tokyo's tuning and fresh seeds within
    /// 0.4 point either way (docs/performance.md). At 1e-5, 24 µs, but 15 October 97.4 → 97.3 %
    /// not held out.
    static let tripFloor = 1e-6
    /// Riders board (a share of the belief moves to the trips due near the fix) at most this
    /// often once a trip is followed. (30 s: on Tokyo's bench rides 1,239 → 279 µs a fix
    /// against boarding at every fix, 221–230 with `tripFloor` too; Caltrain's six held-out
    /// days the same to the decimal.)
    /// Set by hand for speed; not fitted.
    static let boardingInterval: Seconds = 30
    /// A rider changes trains while both stand at a station, a minute or so: a longer gap
    /// between fixes makes boarding no likelier than this long does. (Growing with the gap, a
    /// 9-minute hold re-seeded 7 % of the belief on other trains, and one running 4-6 minutes
    /// early took the ride; a train held is likelier than a rider who changed trains without
    /// a stop.)
    /// Set by hand: a minute, Caltrain's recorded positions' usual gap.
    static let boardingWindow: Seconds = 60
    /// The fastest a train off the timetable is taken to run, for where it may be after a gap.
    /// Set by hand on 2026-11-27; the reason for 60 m/s is not recorded.
    static let fastestTrain: MetersPerSecond = 60
    /// A trip's delay window spreads by at most this many cells per fix.
    /// Set by hand on 2026-11-27: 240 cells of the 15 s grid are the 60 minutes at which a jump's
    /// exponential is cut.
    static let widestStep = 240
    /// Fixes closer together than this are not independent evidence: a phone's error and a
    /// train's timing against its timetable stay much the same from one second to the next, so
    /// a fix `elapsed` seconds after the last counts as `elapsed / independentAfter` of one (its
    /// likelihood raised to that power). `TripTracker` gives the model at most one fix per this
    /// long (`TripTracker.weighingInterval`); a caller that gives it every fix (a fit on dense
    /// positions) is kept from counting one second's evidence sixty times a minute. Set by
    /// hand: about twice a phone's error correlation of 10 s; Caltrain's recorded positions,
    /// 45 s or more apart, are weighed as before.
    static let independentAfter: Seconds = 20
    /// A ride has left its first station once a fix lies this far from its first: until then,
    /// boarding is likelier where a train still waits at its origin (`originBoarding`).
    /// Set by hand: `evaluate`'s departure, 300 m, longer than a platform.
    static let departureDistance: Meters = 300

    init(parameters: TripModelParameters = TripModelParameters(), onlyTrip: String? = nil) {
        self.parameters = parameters.sanitised
        self.onlyTrip = onlyTrip
    }

    /// The cell of delay `delay`.
    func cell(_ delay: Seconds) -> Int { Int(flooring: delay / parameters.gridStep + 0.5, within: -100_000...100_000) }
    var lowestCell: Int { cell(parameters.earliest) }
    var highestCell: Int { cell(parameters.latest) }
}

extension TripFollower {
    /// Takes one fix: `reach` lists the lines within reach and where the fix lies on each;
    /// `lineEvidence`, what the railway tracker's evidence the model lacks said of each line
    /// since the last fix (`RailwayTracker.takeLineEvidence()`), weighs each trip by its line,
    /// its stops by how far apart the fixes they were read off lie (`fixInterval`, seconds);
    /// `feed`, the operator's latest word on the trips (`weighFeed`).
    mutating func observe(
        _ location: Location, reach: [Reach], motion: Motion = .unknown, lineEvidence: [Int: LineEvidence] = [:],
        fixInterval: Seconds = 0, feed: LiveTrips? = nil, model: TrackerModel
    ) {
        let time = location.timestamp
        let elapsed = last.map { max(0, time.seconds(since: $0)) }
        last = time
        // Whether the ride was still at its first station at the last fix (read before this fix
        // may show it left).
        let waited = !departed
        if let firstPlace {
            departed = departed || location.coordinate.distance(to: firstPlace) > Self.departureDistance
        } else {
            firstPlace = location.coordinate
        }
        if let elapsed {
            spread(over: elapsed)
            sinceBoarding += elapsed
        }
        // (The trips boarded at this fix are appended from here.)
        let fresh = followed.count
        if let elapsed { boardFromPlatform(over: elapsed, reach: reach, time: time, model: model) }
        if let boarding = boardingShare(first: elapsed == nil, waited: waited) {
            board(share: boarding.any, reach: reach, time: time, model: model, start: !departed)
            if boarding.laidOver > 0, let elapsed {
                board(
                    share: boarding.laidOver, reach: reach, time: time, model: model, start: !departed,
                    waitingAt: time.adding(-elapsed))
            }
        }
        let weight = elapsed.map { min(1, $0 / Self.independentAfter) } ?? 1
        weigh(
            location, reach: reach, motion: motion, elapsed: elapsed ?? 0, weight: weight, feed: feed,
            lines: lineFactors(lineEvidence, stopsTrust: parameters.stopsTrust(interval: fixInterval)), fresh: fresh)
        normalise()
    }

    /// The share of the belief that boards a trip at this fix, or nil when none does: all of
    /// it at the first fix and while no trip is followed; else what the boarding rate gives
    /// over the time since the last boarding, once `boardingInterval` has passed (a rider who
    /// changes trains is found that much later, and the trips due near a fix are looked up
    /// once per interval instead of at every fix). A gap counts for at most `boardingWindow`
    /// (`any`: a train held is likelier than a change of train without a stop), except while
    /// the ride `waited` at its first station: there the rest of the gap boards too
    /// (`laidOver`), onto trains that had not left their origin at the last fix. A train laid
    /// over at its origin with its phone silent (Caltrain's recordings: a position from the
    /// yard, then none until the train is on its way an hour or more later) is the one that
    /// leaves then, not one that left at the first fix and ran an hour late, nor one that was
    /// on its way already.
    private mutating func boardingShare(first: Bool, waited: Bool) -> (any: Double, laidOver: Double)? {
        if first || (followed.isEmpty && platform == nil) {
            sinceBoarding = 0
            return (1, 0)
        }
        guard onlyTrip == nil, sinceBoarding >= Self.boardingInterval else { return nil }
        defer { sinceBoarding = 0 }
        let rate = parameters.boardingRate / 3_600
        let any = 1 - Double.exp(-rate * min(sinceBoarding, Self.boardingWindow))
        guard waited, sinceBoarding > Self.boardingWindow else { return (any, 0) }
        // Of what the window left, the share the rest of the gap gives.
        let laidOver = (1 - any) * (1 - Double.exp(-rate * (sinceBoarding - Self.boardingWindow)))
        return (any, laidOver)
    }

    /// Step 2: a share `share` of the belief moves to trips boarded now: every trip due near
    /// the fix on a line within reach, its delay by the prior; until the ride leaves its first
    /// station (`start`), likelier where a train still waits at its origin; with `waitingAt`,
    /// only at delays at which the train had not left its origin at that time.
    /// With `fromPlatform`, the share is the platform's (`boardFromPlatform`): the trips
    /// followed keep theirs, and a trip of a line the rider walked away from is less likely.
    mutating func board(
        share: Double, reach: [Reach], time: Timestamp, model: TrackerModel, start: Bool, waitingAt: Timestamp? = nil,
        fromPlatform: Bool = false
    ) {
        if !fromPlatform {
            let kept = 1 - share
            for index in followed.indices {
                followed[index].scale(by: kept)
            }
            platform?.share *= kept
            offTimetable = offTimetable * kept + (onlyTrip == nil ? share * parameters.offTimetableShare : 0)
        }
        var entries: [(key: Key, low: Int, mass: [Double])] = []
        var seen: [Key: TripTimeline] = [:]
        seen.reserveCapacity(timelines.count)
        // (The day and its services once per fix, not once per line.)
        let day = model.serviceDay(at: time)
        for line in reach {
            let prior = delayPrior(on: line.line.railway, model: model)
            let origins = Origins(line: line.line, model: model)
            for key in candidates(on: line.line, at: time, day: day, model: model) {
                if waitsOutOfReach(key, along: line.along, at: time, origins: origins, model: model)
                    || passedOutOfReach(key, along: line.along, at: time, origins: origins, model: model)
                {
                    continue
                }
                guard let timeline = timeline(for: key, model: model) else { continue }
                seen[key] = timeline
                if let entry = entry(
                    key: key, timeline: timeline, along: line.along, time: time, start: start, prior: prior,
                    waitingAt: waitingAt)
                {
                    entries.append(entry)
                }
            }
        }
        // Kept for the trips followed too, so the next fix finds them.
        for trip in followed where seen[trip.key] == nil { seen[trip.key] = timelines[trip.key] }
        timelines = seen
        guard !entries.isEmpty else { return }
        let each = share * (1 - (onlyTrip == nil ? parameters.offTimetableShare : 0)) / Double(entries.count)
        var places = Dictionary(followed.indices.map { (followed[$0].key, $0) }, uniquingKeysWith: { first, _ in first })
        for entry in entries {
            let left = fromPlatform ? platform?.leftLines[Int(entry.key.line)].map { Double.exp(-$0) } ?? 1 : 1
            add(entry.key, low: entry.low, mass: entry.mass.map { $0 * each * left }, places: &places)
        }
    }

    /// The delay prior over the cells at which `key`'s train is near `along` at `time`, weighted
    /// up where it waits at its origin; with `waitingAt`, only the cells at which it had not
    /// left its origin at that time; nil where it is nowhere near.
    func entry(
        key: Key, timeline: TripTimeline, along: Meters, time: Timestamp, start: Bool, prior: PriorCells,
        waitingAt: Timestamp? = nil
    ) -> (
        key: Key, low: Int, mass: [Double]
    )? {
        let clock = time.secondsSince1970 - key.origin
        let reference = timeline.place(at: clock - prior.prior.onTimeCentre)?.progress ?? 0
        let progress = timeline.progress(of: along, near: reference)
        guard let times = timeline.times(near: progress, reach: entryReach, endReach: parameters.endReach)
        else { return nil }
        let margin = entryMargin
        let low = max(cell(clock - times.upperBound - margin), lowestCell)
        let high = min(cell(clock - times.lowerBound + margin), highestCell)
        guard low <= high else { return nil }
        // Until the ride leaves its first station (`start`), boarding is likelier while the
        // train waits at its origin: at a delay at which it has not left yet (a train twelve
        // minutes late is still waiting at the time the next train is due to wait). Not later:
        // a rider whose train stood at a station where another line's trains start was given
        // to a train waiting there (Tokyo's simulated seed 7171: railway 97.8 → 98.4 %).
        let departs = timeline.calls.first.map { $0.time + parameters.dwellAfter } ?? -.infinity
        let lowest = lowestCell
        let then = waitingAt.map { $0.secondsSince1970 - key.origin }
        let mass = (low...high).map { cell -> Double in
            let delay = Double(cell) * parameters.gridStep
            if let then, then - delay > departs { return 0 }
            let waiting = start && clock - delay <= departs ? parameters.originBoarding : 1
            return prior.mass[cell - lowest] * waiting
        }
        if then != nil, !mass.contains(where: { $0 > 0 }) { return nil }
        return (key, low, mass)
    }

    /// The prior density of a delay where the parameters' prior holds
    /// (`TripModelParameters.DelayPrior.density`).
    func delayPrior(_ delay: Seconds) -> Double { parameters.delayPrior.density(delay) }

    /// The delay prior of `railway`'s trains (`TripModelParameters.delayPrior(on:)`) and its mass
    /// at each cell, worked out once per railway.
    mutating func delayPrior(on railway: Int, model: TrackerModel) -> PriorCells {
        if let known = priors[railway] { return known }
        let railways = model.network.railways
        let prior = railways.indices.contains(railway) ? parameters.delayPrior(on: railways[railway]) : parameters.delayPrior
        let step = parameters.gridStep
        let cells = PriorCells(
            prior: prior, mass: (lowestCell...max(lowestCell, highestCell)).map { prior.density(Double($0) * step) * step })
        priors[railway] = cells
        return cells
    }

    /// Adds `mass` at cells `low...` to trip `key`'s belief; `places` gives each followed
    /// trip's index in `followed`.
    private mutating func add(_ key: Key, low: Int, mass: [Double], places: inout [Key: Int]) {
        guard let index = places[key] else {
            places[key] = followed.count
            followed.append(Followed(key: key, low: low, mass: mass))
            return
        }
        let old = followed[index]
        let from = min(old.low, low)
        let to = max(old.low + old.mass.count, low + mass.count)
        var merged = Array(repeating: 0.0, count: to - from)
        for (offset, value) in old.mass.enumerated() { merged[old.low - from + offset] += value }
        for (offset, value) in mass.enumerated() { merged[low - from + offset] += value }
        var standing: [Double] = []
        if !old.standing.isEmpty {
            standing = Array(repeating: 0.0, count: to - from)
            for (offset, value) in old.standing.enumerated() { standing[old.low - from + offset] = value }
        }
        followed[index] = Followed(key: key, low: from, mass: merged, standing: standing)
    }
}
