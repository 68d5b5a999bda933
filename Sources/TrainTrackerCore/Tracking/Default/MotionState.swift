/// A robust stopped/moving signal from the recent fixes: a stop needs several seconds of
/// low reported speed or of staying in place, so a lone 0.0 while moving is not a stop and
/// a far-off fix while standing is not a departure.
struct MotionState: Sendable {
    /// Recent fixes: time, speed (reported or `nil`), position.
    private var recent: [(time: Timestamp, speed: MetersPerSecond?, coordinate: Coordinate, accuracy: Meters)] = []
    /// Whether the train is standing now.
    private(set) var isStopped = false
    /// When the current stop began.
    private(set) var stoppedSince: Timestamp?
    /// The window looked at.
    static let window: Seconds = 6

    /// Takes a fix; returns `.started` or `.ended(duration)` when a stop begins or ends.
    ///
    /// - Complexity: O(w) for the w fixes of the window (about six), without allocating.
    mutating func update(_ location: Location) -> Change? {
        recent.append((location.timestamp, location.speed, location.coordinate, location.horizontalAccuracy ?? 20))
        var drop = 0
        while drop < recent.count, location.timestamp.seconds(since: recent[drop].time) > Self.window { drop += 1 }
        if drop > 0 { recent.removeFirst(drop) }
        // Median and maximum of the reported speeds, by counting (the window is tiny).
        var speedCount = 0
        var slowCount = 0
        var fastest = 0.0
        var lastTwoFast = true
        var seen = 0
        for item in recent.reversed() {
            guard let speed = item.speed else { continue }
            speedCount += 1
            if speed < 0.8 { slowCount += 1 }
            fastest = max(fastest, speed)
            if seen < 2 { lastTwoFast = lastTwoFast && speed > 2 }
            seen += 1
        }
        let slowBySpeed = speedCount >= 2 && slowCount * 2 > speedCount && fastest < 3
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
        let fastNow = (location.speed ?? 0) > 3 && lastTwoFast
        let stoppedNow = !fastNow && (slowBySpeed || stillByPosition)
        defer { isStopped = stoppedNow }
        if stoppedNow, !isStopped {
            stoppedSince = recent.first(where: { ($0.speed ?? 0) < 0.8 })?.time ?? location.timestamp
            return .started
        }
        if !stoppedNow, isStopped, let since = stoppedSince {
            stoppedSince = nil
            return .ended(duration: location.timestamp.seconds(since: since))
        }
        return nil
    }

    enum Change {
        case started
        case ended(duration: Seconds)
    }
}
