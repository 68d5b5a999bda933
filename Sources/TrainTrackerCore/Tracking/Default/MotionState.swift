/// A robust stopped/moving signal from the recent fixes: a stop needs several seconds of
/// low reported speed or of staying in place, so a lone 0.0 while moving is not a stop and
/// a far-off fix while standing is not a departure.
struct MotionState: Sendable, Codable {
    /// The previous fix without a speed: time, position, accuracy.
    private var previousUnspeeded: Unspeeded?
    /// Two fixes without speed this far apart in time, or farther, staying in place mean a stop
    /// (a sparse phone's fixes seldom fill the window).
    static let pairSpan: ClosedRange<Seconds> = 5...120
    /// Recent fixes: time, speed (reported or `nil`), position.
    private var recent: [Recent] = []
    /// Whether the train is standing now.
    private(set) var isStopped = false
    /// When the current stop began.
    private(set) var stoppedSince: Timestamp?
    /// The window looked at.
    static let window: Seconds = 6
    /// Stops from the reported speeds (three slow readings over two seconds, never a lone 0.0).
    private var stops = StopDetector()
    /// Whether the rider is on foot: walking speeds, held longer than a train takes to pass
    /// through them, mean the rider has left the train.
    private(set) var isWalking = false
    /// The run of walking speeds: when it began, when the last one came, how many.
    private var walkingRun: WalkingRun?
    /// Walking speeds, in metres per second, and how long they must last.
    static let walkingSpeeds: ClosedRange<MetersPerSecond> = 0.6...2.6
    static let walkingTime: Seconds = 15
    /// Where a stop seen without speeds stands: the mean of its good fixes and how far they
    /// wander about it. While the fixes stay within reach of it, the phone stands, however
    /// they jitter under a station roof (`StandingPoint.reach`).
    private var standingPoint: StandingPoint?

    /// Takes a fix; returns `.started` or `.ended(duration)` when a stop begins or ends.
    ///
    /// - Complexity: O(w) for the w fixes of the window (about six), without allocating.
    mutating func update(_ location: Location) -> Change? {
        let sincePrevious = recent.last.map { location.timestamp.seconds(since: $0.time) }
        recent.append(
            Recent(
                time: location.timestamp, speed: location.speed, coordinate: location.coordinate,
                accuracy: location.horizontalAccuracy ?? 20))
        var drop = 0
        while drop < recent.count, location.timestamp.seconds(since: recent[drop].time) > Self.window { drop += 1 }
        if drop > 0 { recent.removeFirst(drop) }
        // How many speeds the window holds, the fastest, and whether the last two were fast.
        var speedCount = 0
        var fastest = 0.0
        var lastTwoFast = true
        var seen = 0
        for item in recent.reversed() {
            guard let speed = item.speed else { continue }
            speedCount += 1
            fastest = max(fastest, speed)
            if seen < 2 { lastTwoFast = lastTwoFast && speed > 2 }
            seen += 1
        }
        // The speed filters' stop detector decides when the phone reports speeds.
        let detectorStopped = stops.update(speed: location.speed, at: location.timestamp)
        // (The detector itself needs several readings: a sparse phone has one in the window.)
        let slowBySpeed = speedCount >= 1 && detectorStopped && fastest < 3
        // Staying in place: good fixes within a small circle over the window.
        var stillByPosition = false
        if speedCount == 0, let first = recent.first(where: { $0.accuracy <= 60 }) {
            let projection = LocalProjection(origin: first.coordinate)
            var good = 0
            var spread = 0.0
            var span: Seconds = 0
            for item in recent where item.accuracy <= 60 {
                good += 1
                spread = max(spread, projection.distance(to: item.coordinate))
                span = item.time.seconds(since: first.time)
            }
            stillByPosition = good >= 3 && span >= 3 && spread < 12 + min(first.accuracy, 30)
        }
        let stillSince = stillByPair(location)
        let fastNow = (location.speed ?? 0) > 3 && lastTwoFast
        updateWalking(location)
        // A stop seen without speeds lasts while the fixes, seconds apart, stay about where it
        // began: a fix that wanders off and back is jitter, not a train creeping. (A fix tens of
        // metres out after a longer wait is the train moving on, as `stillByPair` judges it.)
        let standsWhereItStood =
            isStopped && (sincePrevious ?? .infinity) <= Self.window && standingPoint?.keeps(location) == true
        let stoppedNow =
            !fastNow && (slowBySpeed || stillByPosition || stillSince != nil || isWalking || standsWhereItStood)
        defer {
            isStopped = stoppedNow
            if stoppedNow, location.speed == nil {
                if standingPoint == nil { standingPoint = StandingPoint(origin: location.coordinate) }
                standingPoint?.add(location)
            } else {
                standingPoint = nil
            }
        }
        if stoppedNow, !isStopped {
            stoppedSince = stillSince ?? recent.first(where: { ($0.speed ?? 0) < 0.8 })?.time ?? location.timestamp
            return .started
        }
        if !stoppedNow, isStopped, let since = stoppedSince {
            stoppedSince = nil
            return .ended(duration: location.timestamp.seconds(since: since))
        }
        return nil
    }

    /// When the train stood since, if this fix and the previous one (both without speed, good,
    /// `pairSpan` apart) lie within a few metres of each other.
    private mutating func stillByPair(_ location: Location) -> Timestamp? {
        guard location.speed == nil else {
            previousUnspeeded = nil
            return nil
        }
        let accuracy = location.horizontalAccuracy ?? 20
        defer { previousUnspeeded = Unspeeded(time: location.timestamp, coordinate: location.coordinate, accuracy: accuracy) }
        guard let previous = previousUnspeeded, accuracy <= 60, previous.accuracy <= 60,
            Self.pairSpan.contains(location.timestamp.seconds(since: previous.time))
        else { return nil }
        let still = previous.coordinate.distance(to: location.coordinate) < 12 + min(max(accuracy, previous.accuracy), 30)
        return still ? previous.time : nil
    }

    /// A run of walking speeds lasts while they keep coming (a slower one now and then is a
    /// pause); a train's speed ends it.
    private mutating func updateWalking(_ location: Location) {
        guard let speed = location.speed else { return }
        let time = location.timestamp
        if Self.walkingSpeeds.contains(speed) {
            if let run = walkingRun, time.seconds(since: run.last) <= 5 {
                walkingRun = WalkingRun(start: run.start, last: time, count: run.count + 1)
            } else {
                walkingRun = WalkingRun(start: time, last: time, count: 1)
            }
        } else if speed > Self.walkingSpeeds.upperBound
            || walkingRun.map({ time.seconds(since: $0.last) > 5 }) == true
        {
            walkingRun = nil
        }
        guard let run = walkingRun else {
            isWalking = false
            return
        }
        let span = run.last.seconds(since: run.start)
        // Mostly walking speeds over the span: one a second, give or take dropped fixes.
        isWalking = isWalking || (span >= Self.walkingTime && Double(run.count) >= 0.6 * span)
    }

    enum Change {
        case started
        case ended(duration: Seconds)
    }
}

extension MotionState {
    /// A fix as the window keeps it.
    struct Recent: Sendable, Codable {
        var time: Timestamp
        var speed: MetersPerSecond?
        var coordinate: Coordinate
        var accuracy: Meters
    }

    /// A fix without speed, kept to pair with the next.
    struct Unspeeded: Sendable, Codable {
        var time: Timestamp
        var coordinate: Coordinate
        var accuracy: Meters
    }

    /// Where a phone without speeds stands: the mean of the stop's good fixes, in metres east
    /// and north of its first.
    struct StandingPoint: Sendable, Codable {
        var origin: Coordinate
        private var count = 0
        private var east = 0.0
        private var north = 0.0
        /// Good fixes in a row out of reach (one alone is a wild fix, not a departure).
        private var outOfReach = 0
        /// A standing phone's fixes may lie this far from where it stands, plus their accuracy:
        /// a departing train is this far out 11–16 s after it moves off (0.5–1 m/s²), while
        /// jitter under a roof seldom goes this far (simulated phones wander 5–30 m about a point
        /// that is itself off by their error; set by hand).
        static let reach: Meters = 60

        init(origin: Coordinate) { self.origin = origin }

        /// Takes a fix of the stop (a good one: within 60 m).
        mutating func add(_ location: Location) {
            guard (location.horizontalAccuracy ?? 20) <= 60 else { return }
            let offset = LocalProjection(origin: origin).vector(to: location.coordinate)
            count += 1
            east += offset.east
            north += offset.north
        }

        /// Whether the phone still stands here at `location`: unless it and the good fix before
        /// lie out of reach of the point (a poor fix, over 60 m, says nothing against it).
        mutating func keeps(_ location: Location) -> Bool {
            let accuracy = location.horizontalAccuracy ?? 20
            guard count > 0, accuracy <= 60 else { return true }
            let mean = PlanarVector(east: east / Double(count), north: north / Double(count))
            let offset = LocalProjection(origin: origin).vector(to: location.coordinate) - mean
            outOfReach = offset.length <= Self.reach + min(accuracy, 30) ? 0 : outOfReach + 1
            return outOfReach < 2
        }
    }

    /// A run of walking-pace fixes.
    struct WalkingRun: Sendable, Codable {
        var start: Timestamp
        var last: Timestamp
        var count: Int
    }
}
