import RealModule

extension MotionState {
    /// The hardest a train accelerates from a stand, m/s²: a phone that claims speed `v` must
    /// lie at least v² / 2a from where the train stood. (Trains move off at 0.5–1 m/s²; set by
    /// hand with a margin, so that a real departure is believed within a second or two of its
    /// speed passing `RailwayTracker.movingSpeed`.)
    static let hardestMovingOff = 1.5
    /// ... less this, for the error of where the stand is taken to be. (Set by hand: a
    /// standing phone's mean position settles within a few metres.)
    static let standMargin: Meters = 3

    /// `location` as the tracker should read it: while the train stands, a claimed speed (and
    /// its course) that where the fix lies does not bear out is the phone's noise, read as
    /// standing. A standing iPhone reported 7 m/s on a course 180° off (real phones on shared
    /// track, issue 59): a train that claims speed `v` has moved at least v² / 2a
    /// (`hardestMovingOff`) from where it stood, beyond the fix's own error, and runs away from
    /// it along its course.
    func borneOut(_ location: Location) -> Location {
        // (A claim after a silence is the train's: a logger that writes only on movement was
        // silent while it stood.)
        guard isStopped, let speed = location.speed, speed.isFinite, speed > Self.claimFloor,
            let stand = speedStand, StandingPoint.isGood(location),
            let last = recent.last, location.timestamp.seconds(since: last.time) <= Self.window
        else { return location }
        // Where the fix lies from the stand, less what its own error may account for.
        let offset = stand.offset(to: location.coordinate)
        let accuracy = location.horizontalAccuracy ?? MotionState.assumedAccuracy
        let needed =
            speed * speed / (2 * Self.hardestMovingOff) - Self.standMargin
            + min(accuracy * Self.errorShare, Self.largestAllowance)
        // A train moving off runs away from where it stood: its course points away from the stand.
        let pointsAway =
            location.course.map { course in
                guard course.isFinite, offset.length > 0 else { return false }
                let bearing = PlanarVector(course: course)
                return (bearing.east * offset.east + bearing.north * offset.north) / offset.length >= Self.awayCosine
            } ?? true
        guard offset.length < needed || !pointsAway else { return location }
        var standing = location
        standing.speed = 0
        standing.course = nil
        return standing
    }

    /// The share of a fix's reported accuracy, up to `largestAllowance`, that its place may be off
    /// from the stand's by its own error. (Set by hand on seed 6363's drifting phones on a held
    /// day: all of it delayed good phones' departures by 5 s, costing 0.3 points of railway.)
    static let errorShare = 0.5
    static let largestAllowance: Meters = 10

    /// A claimed course this far from the way the fix lies from the stand (the cosine of 60°)
    /// is not a train moving off. (Set by hand: a departing train's fixes run along its course;
    /// a standing phone's claims point anywhere.)
    static let awayCosine = 0.5

    /// A claimed speed at or below this is not doubted: walking and creeping are the stop's own
    /// tests' to read (`MotionState.walkingSpeeds`). (Set by hand on seed 6363: doubting claims
    /// from 1 m/s, the stop detector's moving speed, held a drifting phone's long stands 0.5
    /// points better but delayed good phones' and movement loggers' departures, costing them
    /// 0.7 and 4.8 points of railway.)
    static let claimFloor: MetersPerSecond = MotionState.walkingSpeeds.upperBound

    /// Where a phone that measures speed stands during a stop: the mean of the stop's good fixes.
    struct StandCentre: Sendable, Codable {
        private var origin: Coordinate
        private var count = 1
        private var meanEast: Meters = 0
        private var meanNorth: Meters = 0

        /// A centre at `location`, if it is a good fix.
        init?(_ location: Location) {
            guard StandingPoint.isGood(location) else { return nil }
            origin = location.coordinate
        }

        /// Takes a good fix of the stop into the mean (the latest `StandingPoint.remembered`).
        mutating func add(_ location: Location) {
            guard StandingPoint.isGood(location) else { return }
            let offset = LocalProjection(origin: origin).vector(to: location.coordinate)
            if count < StandingPoint.remembered { count += 1 }
            let share = 1 / Double(count)
            meanEast += (offset.east - meanEast) * share
            meanNorth += (offset.north - meanNorth) * share
        }

        /// Where `coordinate` lies from the centre, in metres east and north.
        func offset(to coordinate: Coordinate) -> PlanarVector {
            LocalProjection(origin: origin).vector(to: coordinate) - PlanarVector(east: meanEast, north: meanNorth)
        }
    }
}
