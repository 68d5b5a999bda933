import RealModule

/// The trip model: a hidden Markov model whose hidden state is a scheduled trip running that
/// day together with its delay, on a grid of `TripModelParameters.gridStep` seconds.
///
/// Per fix (the forward algorithm, so the answer at a fix uses that fix and earlier ones only):
/// 1. **Delay process**: each followed trip's delay wanders (a Laplace step growing with the
///    square root of the time since the last fix, and a drift).
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
    /// A jump of the delay between two fixes (a hold or a disruption): it happens with
    /// probability `share`, by an exponential amount of mean `mean`, spread over the grid cell
    /// by cell (each keeps `ratio` of the one before) as far as `reach` cells.
    private struct Jump {
        var share: Double
        var ratio: Double
        var reach: Int

        init(share: Double, mean: Seconds, step: Seconds) {
            self.share = share
            ratio = Double.exp(-step / mean)
            reach = Int(flooring: 20 * mean / step, within: 0...TripFollower.widestStep)
        }
    }

    /// A trip on one service day.
    struct Key: Hashable, Sendable {
        var line: Int32
        var trip: Int32
        /// Where the trip's service day's clock starts (seconds since 1970).
        var origin: Seconds

        /// The trip's railway and direction.
        var lineDirection: LineDirection { LineDirection(index: Int(line)) }
    }

    /// One trip followed: its belief over delays `low * step ...`.
    struct Followed: Sendable {
        var key: Key
        var low: Int
        var mass: [Double]
        var total: Double { mass.reduce(0, +) }
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
    private(set) var followed: [Followed] = []
    private(set) var offTimetable = 0.0
    private(set) var last: Timestamp?
    /// The sum of the fixes' log-likelihoods so far.
    private(set) var logLikelihood = 0.0
    /// The timelines of the trips seen at the last boarding and of those followed since (built
    /// once, not at every fix).
    private(set) var timelines: [Key: TripTimeline] = [:]
    /// Seconds since a share of the belief last boarded.
    private var sinceBoarding: Seconds = 0

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
    /// the same to the decimal.
    static let tripFloor = 1e-7
    /// Riders board (a share of the belief moves to the trips due near the fix) at most this
    /// often once a trip is followed. (30 s: on Tokyo's bench rides 1,239 → 279 µs a fix
    /// against boarding at every fix, 221–230 with `tripFloor` too; Caltrain's six held-out
    /// days the same to the decimal.)
    /// Set by hand for speed; not fitted.
    static let boardingInterval: Seconds = 30
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

    init(parameters: TripModelParameters = TripModelParameters(), onlyTrip: String? = nil) {
        self.parameters = parameters.sanitised
        self.onlyTrip = onlyTrip
    }

    /// The cell of delay `delay`.
    private func cell(_ delay: Seconds) -> Int { Int(flooring: delay / parameters.gridStep + 0.5, within: -100_000...100_000) }
    private var lowestCell: Int { cell(parameters.earliest) }
    private var highestCell: Int { cell(parameters.latest) }
}

extension TripFollower {
    /// Takes one fix: `reach` lists the lines within reach and where the fix lies on each.
    mutating func observe(_ location: Location, reach: [Reach], model: TrackerModel) {
        let time = location.timestamp
        let elapsed = last.map { max(0, time.seconds(since: $0)) }
        last = time
        if let elapsed {
            spread(over: elapsed)
            sinceBoarding += elapsed
        }
        if let boarding = boardingShare(first: elapsed == nil) {
            board(share: boarding, reach: reach, time: time, model: model)
        }
        weigh(location, reach: reach, elapsed: elapsed ?? 0, weight: elapsed.map { min(1, $0 / Self.independentAfter) } ?? 1)
        normalise()
    }

    /// The share of the belief that boards a trip at this fix, or nil when none does: all of
    /// it at the first fix and while no trip is followed; else what the boarding rate gives
    /// over the time since the last boarding, once `boardingInterval` has passed (a rider who
    /// changes trains is found that much later, and the trips due near a fix are looked up
    /// once per interval instead of at every fix).
    private mutating func boardingShare(first: Bool) -> Double? {
        if first || followed.isEmpty {
            sinceBoarding = 0
            return 1
        }
        guard onlyTrip == nil, sinceBoarding >= Self.boardingInterval else { return nil }
        defer { sinceBoarding = 0 }
        return 1 - Double.exp(-parameters.boardingRate * sinceBoarding / 3_600)
    }

    /// Step 1: every followed trip's delay wanders for `elapsed` seconds (a Laplace step and a
    /// drift), and may jump ahead by a hold (an exponential of mean `holdMean`, at `holdRate`
    /// per hour) or a disruption (a longer exponential, of mean `disruptionMean`, at
    /// `disruptionRate` per hour).
    private mutating func spread(over elapsed: Seconds) {
        let step = parameters.gridStep
        let scale = parameters.delayWalkScale * (max(elapsed, 1) / 60).squareRoot()
        let drift = parameters.delayDrift * elapsed / 60
        let reach = Int(flooring: (drift.magnitude + 10 * scale) / step + 0.5, within: 0...Self.widestStep)
        let jumps = [(parameters.holdRate, parameters.holdMean), (parameters.disruptionRate, parameters.disruptionMean)]
            .map { rate, mean in Jump(share: 1 - Double.exp(-rate * elapsed / 3_600), mean: mean, step: step) }
            .filter { $0.share > 0 }
        let kept = jumps.reduce(1) { $0 * (1 - $1.share) }
        let jumpReach = jumps.map(\.reach).max() ?? 0
        var kernel = (-reach...reach).map { Double.exp(-abs(Double($0) * step - drift) / scale) }
        let sum = kernel.reduce(0, +)
        guard sum > 0 else { return }
        kernel = kernel.map { $0 * kept / sum }
        // Each jump's share of what is not kept (the first happens, or the second, ...).
        var untaken = 1.0
        let shares = jumps.map { jump -> Double in
            defer { untaken *= 1 - jump.share }
            return untaken * jump.share
        }
        for index in followed.indices {
            let old = followed[index].mass
            var spreadOut = Array(repeating: 0.0, count: old.count + 2 * reach + jumpReach)
            for (cell, value) in old.enumerated() where value > 0 {
                for (offset, weight) in kernel.enumerated() { spreadOut[cell + offset] += value * weight }
            }
            for (jump, share) in zip(jumps, shares) {
                // y[i] = x[i] · (1 − ratio) · share + ratio · y[i − 1], from each cell onwards.
                var carried = 0.0
                for cell in 0..<(old.count + jump.reach) {
                    carried = carried * jump.ratio + (cell < old.count ? old[cell] * (1 - jump.ratio) * share : 0)
                    spreadOut[cell + reach] += carried
                }
            }
            var low = followed[index].low - reach
            // (Kept within the grid's range: what spreads beyond is dropped.)
            if low < lowestCell {
                spreadOut.removeFirst(min(lowestCell - low, spreadOut.count))
                low = lowestCell
            }
            let excess = low + spreadOut.count - 1 - highestCell
            if excess > 0 { spreadOut.removeLast(min(excess, spreadOut.count)) }
            followed[index].low = low
            followed[index].mass = spreadOut
        }
    }

    /// Step 2: a share `share` of the belief moves to trips boarded now: every trip due near
    /// the fix on a line within reach, its delay by the prior.
    private mutating func board(share: Double, reach: [Reach], time: Timestamp, model: TrackerModel) {
        let kept = 1 - share
        for index in followed.indices { followed[index].mass = followed[index].mass.map { $0 * kept } }
        offTimetable = offTimetable * kept + (onlyTrip == nil ? share * parameters.offTimetableShare : 0)
        var entries: [(key: Key, low: Int, mass: [Double])] = []
        var seen: [Key: TripTimeline] = [:]
        // (The day and its services once per fix, not once per line.)
        let day = model.serviceDay(at: time)
        for line in reach {
            for key in candidates(on: line.line, at: time, day: day, model: model) {
                guard let timeline = timeline(for: key, model: model) else { continue }
                seen[key] = timeline
                if let entry = entry(key: key, timeline: timeline, along: line.along, time: time) { entries.append(entry) }
            }
        }
        // Kept for the trips followed too, so the next fix finds them.
        for trip in followed where seen[trip.key] == nil { seen[trip.key] = timelines[trip.key] }
        timelines = seen
        guard !entries.isEmpty else { return }
        let each = share * (1 - (onlyTrip == nil ? parameters.offTimetableShare : 0)) / Double(entries.count)
        for entry in entries { add(entry.key, low: entry.low, mass: entry.mass.map { $0 * each }) }
    }

    /// The delay prior over the cells at which `key`'s train is near `along` at `time`, weighted
    /// up where it waits at its origin; nil where it is nowhere near.
    private func entry(key: Key, timeline: TripTimeline, along: Meters, time: Timestamp) -> (
        key: Key, low: Int, mass: [Double]
    )? {
        let clock = time.secondsSince1970 - key.origin
        let reference = timeline.place(at: clock - parameters.onTimeCentre)?.progress ?? 0
        let progress = timeline.progress(of: along, near: reference)
        guard let times = timeline.times(near: progress, reach: 8 * parameters.positionScale, endReach: parameters.endReach)
        else { return nil }
        let margin = 6 * parameters.timingScale + parameters.gridStep
        let low = max(cell(clock - times.upperBound - margin), lowestCell)
        let high = min(cell(clock - times.lowerBound + margin), highestCell)
        guard low <= high else { return nil }
        // Boarding is likelier while the train waits at its origin: at a delay at which it
        // has not left yet (a train twelve minutes late is still waiting at the time the next
        // train is due to wait).
        let departs = timeline.calls.first.map { $0.time + parameters.dwellAfter } ?? -.infinity
        let mass = (low...high).map { cell -> Double in
            let delay = Double(cell) * parameters.gridStep
            let waiting = clock - delay <= departs ? parameters.originBoarding : 1
            return delayPrior(delay) * parameters.gridStep * waiting
        }
        return (key, low, mass)
    }

    /// The prior density of a delay: on time (a Laplace about `onTimeCentre`, of scale
    /// `onTimeScale` on the late side and `earlyScale` on the early side) or late (an
    /// exponential beyond it).
    func delayPrior(_ delay: Seconds) -> Double {
        let beyond = delay - parameters.onTimeCentre
        let onTime =
            Double.exp(beyond >= 0 ? -beyond / parameters.onTimeScale : beyond / parameters.earlyScale)
            / (parameters.onTimeScale + parameters.earlyScale)
        let late = beyond > 0 ? Double.exp(-beyond / parameters.lateMean) / parameters.lateMean : 0
        return (1 - parameters.lateShare) * onTime + parameters.lateShare * late + 1e-9
    }

    /// Adds `mass` at cells `low...` to trip `key`'s belief.
    private mutating func add(_ key: Key, low: Int, mass: [Double]) {
        guard let index = followed.firstIndex(where: { $0.key == key }) else {
            followed.append(Followed(key: key, low: low, mass: mass))
            return
        }
        let old = followed[index]
        let from = min(old.low, low)
        let to = max(old.low + old.mass.count, low + mass.count)
        var merged = Array(repeating: 0.0, count: to - from)
        for (offset, value) in old.mass.enumerated() { merged[old.low - from + offset] += value }
        for (offset, value) in mass.enumerated() { merged[low - from + offset] += value }
        followed[index] = Followed(key: key, low: from, mass: merged)
    }

    /// Step 3: each trip's belief times the likelihood of the fix at each of its delays,
    /// raised to the fix's `weight` (`independentAfter`).
    private mutating func weigh(_ location: Location, reach: [Reach], elapsed: Seconds, weight: Double) {
        let accuracy = location.horizontalAccuracy.flatMap { $0.isFinite && $0 > 0 ? min($0, 3_000) : nil } ?? 0
        let across = (accuracy * accuracy + parameters.lateralScale * parameters.lateralScale).squareRoot()
        let lateral = { (distance: Meters) in Double.exp(-distance / across) / (2 * across) }
        let farthest = reach.map(\.across).max() ?? 0
        let away = tempered(lateral(max(farthest, 3 * across)) * parameters.outlierShare / parameters.outlierSpan, weight)
        var byLine: [Int: Reach] = [:]
        for line in reach { byLine[line.line.index] = line }
        let clockTime = location.timestamp.secondsSince1970
        for index in followed.indices {
            let key = followed[index].key
            guard let line = byLine[Int(key.line)], let timeline = timelines[key] else {
                followed[index].mass = followed[index].mass.map { $0 * away }
                continue
            }
            var mass = followed[index].mass
            followed[index].mass = []  // (so `mass` is changed in place, not copied)
            weigh(
                &mass, low: followed[index].low, timeline: timeline, clock: clockTime - key.origin, along: line.along,
                side: lateral(line.across), away: away, weight: weight)
            followed[index].mass = mass
        }
        let best = reach.map(\.across).min().map(lateral) ?? away
        // A train off the timetable may be anywhere it could have run to since the last fix.
        offTimetable *= tempered(best / max(parameters.outlierSpan, Self.fastestTrain * elapsed), weight)
    }

    /// `likelihood` raised to `weight` (as it is at a weight of 1).
    private func tempered(_ likelihood: Double, _ weight: Double) -> Double {
        weight >= 1 ? likelihood : Double.pow(likelihood, weight)
    }

    /// One trip's belief `mass` over delay cells `low...` times the likelihood of a fix at
    /// `along` on its line at `clock` (seconds of the trip's service day): along the track by
    /// where the trip would be at each delay, across it by `side`; `away` where the trip is
    /// out of service at that delay; each likelihood raised to `weight`.
    private func weigh(
        _ mass: inout [Double], low: Int, timeline: TripTimeline, clock: Seconds, along: Meters, side: Double,
        away: Double, weight: Double
    ) {
        let ahead = timeline.walk.distanceAhead(from: timeline.start, to: along)
        var reference: Meters?
        // The cells' times fall in order, so each knot search starts from the last one's.
        var knot = -1
        var scale = (speed: -1.0, value: 0.0)
        for cell in mass.indices where mass[cell] > 0 {
            let time = clock - Double(low + cell) * parameters.gridStep
            guard let place = timeline.place(at: time, hint: &knot) else {
                mass[cell] *= away
                continue
            }
            let progress = timeline.progress(ahead: ahead, near: reference ?? place.progress)
            reference = progress
            let offset = timeline.offset(of: progress, from: place.progress, at: time, endReach: parameters.endReach)
            if place.speed != scale.speed {
                let squared =
                    parameters.positionScale * parameters.positionScale
                    + place.speed * place.speed * parameters.timingScale * parameters.timingScale
                scale = (place.speed, squared.squareRoot())
            }
            let density =
                (1 - parameters.outlierShare) * Double.exp(-abs(offset) / scale.value) / (2 * scale.value)
                + parameters.outlierShare / parameters.outlierSpan
            mass[cell] *= tempered(density * side, weight)
        }
    }

    /// Step 4: the beliefs sum to one again; small ones are dropped.
    private mutating func normalise() {
        let total = followed.reduce(offTimetable) { $0 + $1.total }
        guard total > 0, total.isFinite else {
            // Nothing explains the fix: start afresh at the next.
            followed = []
            offTimetable = onlyTrip == nil ? 1 : 0
            logLikelihood += -50
            return
        }
        logLikelihood += Double.log(total)
        offTimetable /= total
        let largest = followed.reduce(0) { max($0, $1.mass.max() ?? 0) } / total
        let floor = largest * Self.pruneRatio
        for index in followed.indices {
            var mass = followed[index].mass.map { $0 / total }
            var low = followed[index].low
            let first = mass.firstIndex { $0 > floor } ?? mass.count
            let lastKept = mass.lastIndex { $0 > floor } ?? -1
            if first <= lastKept {
                mass = Array(mass[first...lastKept])
                low += first
            } else {
                mass = []
            }
            followed[index].mass = mass
            followed[index].low = low
        }
        // (Against the trips' own total, not the belief's: while "on no trip" explains the
        // fixes, the trips it outweighs are kept, and so is what it learnt.)
        let floorOfTrips = followed.reduce(0) { $0 + $1.total } * Self.tripFloor
        followed.removeAll { $0.mass.isEmpty || $0.total < floorOfTrips }
    }
}
