import RealModule

/// Step 3 of the trip model, the evidence of one fix: how likely it is at each trip and delay
/// the belief holds, along the track by where the trip's train would be at that delay (a
/// running train or one standing on its way), across it by the fix's distance from the track.
extension TripFollower {
    /// What the phone says of its train's motion at a fix (`MotionState`: a stop needs several
    /// seconds of low speed or of staying in place; running, a reported speed above
    /// `RailwayTracker.movingSpeed`).
    enum Motion: Sendable, Equatable {
        case standing, running, unknown

        /// The motion a fix shows: `stopped` by the motion state, else running at a reported
        /// `speed` above the moving speed, else unknown.
        init(stopped: Bool, speed: MetersPerSecond?) {
            if stopped {
                self = .standing
            } else if let speed, speed.isFinite, speed > RailwayTracker.movingSpeed {
                self = .running
            } else {
                self = .unknown
            }
        }
    }

    /// A train timetabled slower than this at a moment (gathering speed, braking) is taken as
    /// standing there, for the phone's motion (`Motion`).
    /// Set by hand: below a walking pace a phone's speeds read as standing.
    static let crawlSpeed: MetersPerSecond = 2

    /// What one fix says, worked out once for every trip.
    struct Evidence {
        /// The fix's likelihood across the track at a distance.
        let lateral: (Meters) -> Double
        /// The likelihood where a trip cannot explain the fix (off its line, out of service).
        let away: Double
        /// The fix's weight (`independentAfter`).
        let weight: Double
        /// The likelihood of the phone's motion where the train stands and where it runs.
        let whereStanding: Double
        let whereRunning: Double
        /// The lines within reach, by `LineDirection.index`.
        let byLine: [Int: Reach]
        /// The fix's time (seconds since 1970).
        let clockTime: Seconds
    }

    /// The likelihood of the phone's `motion` where the train stands and where it runs: a
    /// phone reads a running train as standing `stillWhileRunning` of the time, a standing
    /// one as running `runningWhileStill`; an unknown motion says nothing.
    func motionLikelihood(_ motion: Motion) -> (standing: Double, running: Double) {
        switch motion {
        case .unknown: (1, 1)
        case .standing: (1 - parameters.runningWhileStill, parameters.stillWhileRunning)
        case .running: (parameters.runningWhileStill, 1 - parameters.stillWhileRunning)
        }
    }

    /// Step 3: each trip's belief times the likelihood of the fix at each of its delays, then
    /// the `feed`'s word on it (`weighFeed`) and its line's evidence (`lines`, the factors of
    /// `lineFactors`); the platform's at the rider's place (`weighPlatform`); all raised to the
    /// fix's `weight` (`independentAfter`). The trips from index `fresh` on, boarded at this
    /// fix, are weighed last, and those that cannot keep `tripFloor` of the belief are dropped
    /// unweighed (`dropHopeless`), as are the cells at a trip's ends that cannot keep
    /// `pruneRatio` of the largest (`trimHopeless`).
    mutating func weigh(
        _ location: Location, reach: [Reach], motion: Motion, elapsed: Seconds, weight: Double, feed: LiveTrips? = nil,
        lines: [Int: Double] = [:], fresh: Int? = nil
    ) {
        let accuracy = location.horizontalAccuracy.flatMap { $0.isFinite && $0 > 0 ? min($0, 3_000) : nil } ?? 0
        let across = (accuracy * accuracy + parameters.lateralScale * parameters.lateralScale).squareRoot()
        let lateral = { (distance: Meters) in Double.exp(-distance / across) / (2 * across) }
        let farthest = reach.map(\.across).max() ?? 0
        let away = tempered(lateral(max(farthest, 3 * across)) * strayDensity, weight)
        let motions = motionLikelihood(motion)
        var byLine: [Int: Reach] = [:]
        for line in reach { byLine[line.line.index] = line }
        let evidence = Evidence(
            lateral: lateral, away: away, weight: weight, whereStanding: motions.standing, whereRunning: motions.running,
            byLine: byLine, clockTime: location.timestamp.secondsSince1970)
        let boarded = min(max(fresh ?? followed.count, 0), followed.count)..<followed.count
        // The largest cell weighed so far: cells at a trip's ends that cannot reach
        // `pruneRatio` of it are cut unweighed (`trimHopeless`). The likeliest trips first, so
        // that it is soon near the largest of all.
        var largest = 0.0
        let totals = followed[..<boarded.lowerBound].map(\.total)
        for index in totals.indices.sorted(by: { totals[$0] > totals[$1] }) {
            weighTrip(at: index, evidence, feed: feed, lines: lines, largest: &largest)
        }
        dropHopeless(boarded, evidence, feed: feed, lines: lines)
        for index in boarded where !followed[index].mass.isEmpty {
            weighTrip(at: index, evidence, feed: feed, lines: lines, largest: &largest)
        }
        let nearest = reach.map(\.across).min()
        weighPlatform(at: location.coordinate, across: nearest ?? 3 * across, evidence)
        let best = nearest.map(lateral) ?? away
        // A train off the timetable may be anywhere it could have run to since the last fix.
        offTimetable *= tempered(best / max(parameters.outlierSpan, Self.fastestTrain * elapsed), weight)
    }

    /// The trip at `index` weighed by the fix (along and across its line, where its line is
    /// within reach), then by the `feed` and its line's factor; `largest`, the largest cell
    /// weighed so far, cuts its ends (`trimHopeless`) and is kept up to date.
    private mutating func weighTrip(
        at index: Int, _ evidence: Evidence, feed: LiveTrips?, lines: [Int: Double], largest: inout Double
    ) {
        let key = followed[index].key
        if let line = evidence.byLine[Int(key.line)], let timeline = timelines[key] {
            var trip = followed[index]
            followed[index].mass = []  // (so the arrays are changed in place, not copied)
            followed[index].standing = []
            let clock = evidence.clockTime - key.origin
            let after = mostAfterTheFix(on: Int(key.line), feed: feed, weight: evidence.weight, lines: lines)
            let floor = largest * Self.pruneRatio * Self.hopelessMargin / after
            unweighed.cells += trimHopeless(&trip, timeline: timeline, clock: clock, at: line, evidence, floor: floor)
            weigh(&trip.mass, low: trip.low, timeline: timeline, clock: clock, at: line, evidence, standing: false)
            weigh(&trip.standing, low: trip.low, timeline: timeline, clock: clock, at: line, evidence, standing: true)
            followed[index] = trip
        } else {
            followed[index].scale(by: evidence.away)
        }
        if let feed { weighFeed(feed, weight: evidence.weight, trip: index) }
        if let factor = lines[Int(key.line)] { followed[index].scale(by: factor) }
        if dropsHopeless {
            let trip = followed[index]
            largest = max(largest, trip.mass.max() ?? 0, trip.standing.max() ?? 0)
        }
    }

    /// The factor by which each line's trips are weighed (by `LineDirection.index`, only those
    /// below 1): what its line's evidence of stops and passes, course and place says
    /// (`lineEvidence`), each kind at its weight (`lineStopsWeight`, ...), against the line it
    /// says most for: one belief over trips that reads a line as the railway tracker does.
    /// Stops count at `stopsTrust` of their weight (`TripModelParameters.stopsTrust`: less when
    /// they were read off sparse fixes). A line the railway tracker does not hold, and "on no
    /// trip of the timetable", are weighed as that line.
    func lineFactors(_ lineEvidence: [Int: LineEvidence], stopsTrust: Double = 1) -> [Int: Double] {
        // (A kind weighed 0 adds nothing, even where it said minus infinity.)
        let weighed = { (weight: Double, nats: Nats) in weight > 0 ? weight * nats : 0 }
        let stopsWeight = parameters.lineStopsWeight * min(max(stopsTrust, 0), 1)
        let nats = lineEvidence.mapValues {
            weighed(stopsWeight, $0.stops) + weighed(parameters.lineCourseWeight, $0.course)
                + weighed(parameters.linePlaceWeight, $0.place)
        }
        guard let most = nats.values.filter(\.isFinite).max() else { return [:] }
        var factors: [Int: Double] = [:]
        for (line, said) in nats where !said.isNaN {
            let factor = Double.exp(max(said - most, -Self.lineEvidenceFloor))
            if factor < 1 { factors[line] = factor }
        }
        return factors
    }

    /// One step of line evidence takes at most this much from a trip (nats): enough to settle
    /// a line against a parallel one, and to keep a belief finite when a line's score falls
    /// to minus infinity.
    /// Set by hand when the railway tracker's switch cost (the most it lets evidence lead a
    /// line by before another may take over) was 14 nats: about twice it. At 26 (issue 59) it
    /// is a little above it; not re-tuned (the trip model's figures did not move).
    static let lineEvidenceFloor: Nats = 30

    /// How likely a fix is along the track at a distance from where the train is: a Laplace of
    /// a scale, or a looser one (a share `outlierShare`, of `outlierScale`: a train off its
    /// timetable's even run), or anywhere (`strayShare` over `outlierSpan`). Its shares are
    /// worked out once a fix, not at each delay cell.
    struct AlongDensity {
        let tight: Double
        let loose: Double
        let looseScale: Meters
        let stray: Double

        /// The density at `offset` metres from the train's place, about a Laplace of `scale`.
        func callAsFunction(_ offset: Meters, scale: Meters) -> Double {
            tight * Double.exp(-offset / scale) / (2 * scale) + loose * Double.exp(-offset / looseScale) + stray
        }
    }

    /// The constants' density along the track (`AlongDensity`).
    var alongDensity: AlongDensity {
        AlongDensity(
            tight: 1 - parameters.outlierShare - parameters.strayShare,
            loose: parameters.outlierShare / (2 * parameters.outlierScale), looseScale: parameters.outlierScale,
            stray: strayDensity)
    }

    /// The density of a fix anywhere within `outlierSpan` of where the train is: what a stray
    /// fix (a reflection, a phone's cell position) or a trip that cannot explain a fix is worth.
    var strayDensity: Double { parameters.strayShare / parameters.outlierSpan }

    /// `likelihood` raised to `weight` (as it is at a weight of 1).
    func tempered(_ likelihood: Double, _ weight: Double) -> Double {
        weight >= 1 ? likelihood : Double.pow(likelihood, weight)
    }

    /// One trip's belief `mass` over delay cells `low...` times the likelihood of a fix on its
    /// `line` at `clock` (seconds of the trip's service day): along the track by where the trip
    /// would be at each delay (a train `standing` on its way stands where its timeline had it
    /// when it stopped: anywhere in the stretch its cell covers at the clock less the delay),
    /// across it by the
    /// fix's distance from the track; the evidence's `away` where the trip is out of service
    /// at that delay.
    ///
    /// The phone's motion weighs each delay by whether the train stands or runs there then
    /// (`motionLikelihood(_:)`): a train that stops where its trip passes, or runs through
    /// where it calls, is told from it by its stops, as the railway tracker tells services.
    ///
    /// Along the track the fix lies by a Laplace about the train's place (of `positionScale`
    /// standing, wider by `timingScale` at the run's speed), or by a looser one (a share
    /// `outlierShare`, of `outlierScale`: a train off its timetable's even run), or anywhere
    /// (`strayShare` over `outlierSpan`).
    private func weigh(
        _ mass: inout [Double], low: Int, timeline: TripTimeline, clock: Seconds, at line: Reach, _ evidence: Evidence,
        standing: Bool
    ) {
        guard !mass.isEmpty else { return }
        let side = evidence.lateral(line.across)
        let ahead = timeline.walk.distanceAhead(from: timeline.start, to: line.along)
        let density = alongDensity
        var reference: Meters?
        // The cells' times fall in order, so each knot search starts from the last one's.
        var knot = -1
        var scale = (speed: -1.0, value: 0.0)
        for cell in mass.indices where mass[cell] > 0 {
            let time = clock - Double(low + cell) * parameters.gridStep
            guard let place = timeline.place(at: time, hint: &knot) else {
                mass[cell] *= evidence.away
                continue
            }
            let progress = timeline.progress(ahead: ahead, near: reference ?? place.progress)
            reference = progress
            var offset = abs(timeline.offset(of: progress, from: place.progress, at: time, endReach: parameters.endReach))
            // A train standing on its way stands somewhere within the stretch its running train
            // covers in its delay cell (the grid's step at the run's speed): anywhere there is
            // its place, found once, not a place the grid puts up to half a cell off at every
            // fix while it stands.
            if standing { offset = max(0, offset - max(place.now, place.speed) * parameters.gridStep / 2) }
            let speed = standing ? 0 : place.speed
            if speed != scale.speed {
                let squared =
                    parameters.positionScale * parameters.positionScale
                    + speed * speed * parameters.timingScale * parameters.timingScale
                scale = (speed, squared.squareRoot())
            }
            let moving = !standing && place.now >= Self.crawlSpeed
            let motion = moving ? evidence.whereRunning : evidence.whereStanding
            mass[cell] *= tempered(density(offset, scale: scale.value) * side * motion, evidence.weight)
        }
    }
}
