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
    mutating func update(_ location: Location) -> Change? {
        recent.append((location.timestamp, location.speed, location.coordinate, location.horizontalAccuracy ?? 20))
        while let first = recent.first, location.timestamp.seconds(since: first.time) > Self.window { recent.removeFirst() }
        let speeds = recent.compactMap(\.speed)
        let slowBySpeed = speeds.count >= 2 && speeds.sorted()[speeds.count / 2] < 0.8 && (speeds.max() ?? 0) < 3
        // Staying in place: good fixes within a small circle over the window.
        let good = recent.filter { $0.accuracy <= 60 }
        var stillByPosition = false
        if good.count >= 3, let first = good.first, let last = good.last, last.time.seconds(since: first.time) >= 3 {
            let projection = LocalProjection(origin: first.coordinate)
            let spread = good.map { projection.distance(to: $0.coordinate) }.max() ?? .infinity
            stillByPosition = spread < 12 + min(first.accuracy, 30)
        }
        let fastNow = (location.speed ?? 0) > 3 && speeds.suffix(2).allSatisfy { $0 > 2 }
        let stoppedNow = !fastNow && (slowBySpeed || (speeds.isEmpty && stillByPosition))
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
