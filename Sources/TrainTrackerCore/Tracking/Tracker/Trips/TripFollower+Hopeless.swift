/// What cannot last a fix, left unweighed: trips boarded at it and the cells at a trip's ends.
///
/// A boarding enters every trip due near the fix on every line within reach (on Tokyo's
/// dense lines about 150 at once, both directions of each line), and nearly all of them hold
/// less than `tripFloor` of the belief once the fix is weighed, so `normalise` drops them;
/// between fixes a disruption's jump spreads each trip's belief over up to an hour of later
/// delays, and nearly all of those cells end under `pruneRatio` of the largest, so `normalise`
/// cuts them. Weighing them was most of a fix's time. The likeliest a fix can be at a cell is
/// known before it is weighed (along the track the density's peak, or at the nearest point of
/// the stretch its train is on; across it the fix's distance from the line; the phone's motion
/// at its likelier; the feed's best word; the line's own evidence), so what cannot reach the
/// floor against what is weighed already is left out. Exact but for the left-out slivers' own
/// share of the fix's total (each under `tripFloor` or `pruneRatio` of it): Tokyo's bench rides
/// and Caltrain's recordings answer the same (docs/performance.md).
extension TripFollower {
    /// A trip boarded at a fix is dropped unweighed, or a cell cut, only if even at the fix's
    /// likeliest it holds less than this share of its floor (`tripFloor` of the trips weighed,
    /// `pruneRatio` of the largest cell): `normalise` prunes small cells before it sums the
    /// trips' belief, so the sum it compares with lies a hair below the one here, and the
    /// likeliest is worked out with the same exponentials in another order.
    /// Set by hand: a factor of 2, far beyond that hair (cells under `pruneRatio`, 1e-8, of
    /// the largest).
    static let hopelessMargin = 0.5

    /// Empties the trips at `boarded` (those entered at this fix, not yet weighed) whose belief
    /// times the likeliest the fix can be at any of their cells (`evidence`, the `feed`'s best,
    /// their line's factor in `lines`) is under `hopelessMargin` of `tripFloor` of the trips
    /// weighed already: `normalise` would drop them after weighing. Not while fitting one trip.
    ///
    /// - Complexity: O(t) for t trips boarded.
    mutating func dropHopeless(_ boarded: Range<Int>, _ evidence: Evidence, feed: LiveTrips?, lines: [Int: Double]) {
        guard dropsHopeless, onlyTrip == nil, !boarded.isEmpty else { return }
        let weighed = followed[..<boarded.lowerBound].reduce(0) { $0 + $1.total }
        guard weighed > 0, weighed.isFinite else { return }
        let floor = weighed * Self.tripFloor * Self.hopelessMargin
        // Along the track at the density's peak (the tightest scale, no offset); the motion at
        // its likelier; the feed's word at its best (a report at the trip's delay).
        let peak = alongDensity(0, scale: parameters.positionScale)
        let motion = max(evidence.whereStanding, evidence.whereRunning)
        for index in boarded {
            let line = Int(followed[index].key.line)
            let side = evidence.byLine[line].map { evidence.lateral($0.across) } ?? 0
            let likeliest = max(tempered(peak * side * motion, evidence.weight), evidence.away)
            let most =
                followed[index].total * likeliest * mostAfterTheFix(on: line, feed: feed, weight: evidence.weight, lines: lines)
            if most < floor {
                followed[index].mass = []
                followed[index].standing = []
                unweighed.trips += 1
            }
        }
    }

    /// The most a trip's cell on `line` can still be multiplied by once the fix has weighed it:
    /// by a `feed`'s report at its best (a report at the cell's delay, `weighFeed`, at the fix's
    /// `weight`) and by its line's factor (`lineFactors`).
    func mostAfterTheFix(on line: Int, feed: LiveTrips?, weight: Double, lines: [Int: Double]) -> Double {
        let feedBest = feed == nil ? 1 : max(1, tempered(feedLikelihood(gap: 0), weight))
        return feedBest * (lines[line] ?? 1)
    }

    /// Cuts the cells at either end of `trip`'s belief (on `line`, at `clock` of its service
    /// day) that, weighed by the fix at their likeliest, stay under `floor`: `normalise` would
    /// cut them after weighing, as under `pruneRatio` of the largest cell. A disruption's tail
    /// spreads each trip over up to an hour of later delays between fixes, nearly all of it
    /// kilometres from the fix, and reading where the train is at each of its cells was most
    /// of a fix's time. The cells whose times fall between the same two knots of the trip's
    /// timeline (`TripTimeline`) have their train on the same stretch at the same pace, so the
    /// likeliest such a cell can be is worked out once for them all: the density at the
    /// stretch's nearest point to the fix (less `endReach` at the trip's ends), at the
    /// stretch's scale, the phone's motion at its likelier. A cell with a train standing on
    /// its way is kept. Not on a loop, whose lap at a cell is read from the cell before.
    ///
    /// Returns how many cells were cut.
    ///
    /// - Complexity: O(c + k) for the trip's c cells and its timeline's k knots.
    func trimHopeless(
        _ trip: inout Followed, timeline: TripTimeline, clock: Seconds, at line: Reach, _ evidence: Evidence, floor: Double
    ) -> Int {
        let times = timeline.times
        guard dropsHopeless, floor > 0, clock.isFinite, !timeline.walk.isLoop, times.count >= 2, !trip.mass.isEmpty
        else { return 0 }
        let stretches = StretchLikelihood(
            timeline: timeline, ahead: timeline.walk.distanceAhead(from: timeline.start, to: line.along),
            side: evidence.lateral(line.across), evidence: evidence, follower: self)
        let hasStanding = !trip.standing.isEmpty
        var knot = times.count - 1
        var block = (knot: Int.min, likeliest: 0.0)
        var first: Int?
        var last = -1
        for cell in trip.mass.indices {
            let mass = trip.mass[cell]
            var kept = hasStanding && trip.standing[cell] > 0
            if !kept, mass > 0 {
                // The last knot at or before the cell's time (the cells' times fall in order),
                // -1 before the timeline, or out of service after it.
                let time = clock - Double(trip.low + cell) * parameters.gridStep
                while knot >= 0, times[knot] > time { knot -= 1 }
                let at = time > times[times.count - 1] ? times.count : knot
                if at != block.knot { block = (at, stretches.likeliest(from: at)) }
                // (Not a number is kept, for `normalise` to judge.)
                kept = !(mass * block.likeliest < floor)
            }
            guard kept else { continue }
            if first == nil { first = cell }
            last = cell
        }
        let count = trip.mass.count
        guard let first else {
            trip.mass = []
            trip.standing = []
            return count
        }
        guard first > 0 || last < count - 1 else { return 0 }
        trip.mass = Array(trip.mass[first...last])
        if hasStanding { trip.standing = Array(trip.standing[first...last]) }
        trip.low += first
        return count - trip.mass.count
    }

    /// The likeliest a fix can be, weighed where a trip's running train is between two knots
    /// of its timeline (`trimHopeless`).
    struct StretchLikelihood {
        let timeline: TripTimeline
        /// The fix's progress along the trip's way.
        let ahead: Meters
        /// The fix's likelihood across the track.
        let side: Double
        let evidence: Evidence
        let follower: TripFollower

        /// The likeliest at the stretch from knot `knot` to the next (the last knot: standing
        /// there; -1 or past the last: out of service, the evidence's `away`).
        func likeliest(from knot: Int) -> Double {
            let times = timeline.times
            let places = timeline.places
            guard knot >= 0, knot < times.count else { return evidence.away }
            let next = min(knot + 1, times.count - 1)
            var nearest = max(0, places[knot] - ahead, ahead - places[next])
            // (`TripTimeline.offset` forgives `endReach` at the trip's first and last stretches.)
            if knot == 0 || knot >= times.count - 2 { nearest = max(0, nearest - follower.parameters.endReach) }
            let parameters = follower.parameters
            let stretch = places[next] - places[knot]
            let duration = times[next] - times[knot]
            let speed = next > knot && stretch > 0 && duration > 0 ? stretch / duration : 0
            let scale =
                (parameters.positionScale * parameters.positionScale
                + speed * speed * parameters.timingScale * parameters.timingScale).squareRoot()
            let motion = max(evidence.whereRunning, evidence.whereStanding)
            return follower.tempered(follower.alongDensity(nearest, scale: scale) * side * motion, evidence.weight)
        }
    }
}
