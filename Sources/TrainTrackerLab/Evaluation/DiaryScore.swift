import TrainTrackerCore

/// How many logged legs a diary found, and with the right kind of vehicle: a logged leg is
/// found when one vehicle leg of the same device covers at least half of it; its kind is
/// right when that leg (the one covering most) is of its kind.
public struct DiaryScore: Hashable, Sendable {
    /// Logged legs scored.
    public var logged = 0
    /// ... found.
    public var found = 0
    /// ... found with the right kind (rail or road).
    public var rightKind = 0
    /// Detected vehicle legs that no logged leg overlaps for half their length (a walk or a
    /// stay taken for a ride), on the log's devices.
    public var spurious = 0

    /// A score of `found` and `rightKind` legs out of `logged`.
    public init(logged: Int, found: Int, rightKind: Int, spurious: Int = 0) {
        (self.logged, self.found, self.rightKind, self.spurious) = (logged, found, rightKind, spurious)
    }

    /// Two scores as one, as if their logs were one.
    public static func + (left: DiaryScore, right: DiaryScore) -> DiaryScore {
        DiaryScore(
            logged: left.logged + right.logged, found: left.found + right.found, rightKind: left.rightKind + right.rightKind,
            spurious: left.spurious + right.spurious)
    }

    /// Scores the vehicle legs `detected` against `log`.
    public init(detected: [LoggedLeg], log: [LoggedLeg]) {
        for truth in log {
            logged += 1
            let length = truth.end.seconds(since: truth.start)
            guard length > 0 else { continue }
            let covering = detected.filter { $0.device == truth.device }.map { leg -> (LoggedLeg, Seconds) in
                let overlap = min(leg.end, truth.end).seconds(since: max(leg.start, truth.start))
                return (leg, max(0, overlap))
            }
            guard let best = covering.max(by: { $0.1 < $1.1 }), best.1 >= length / 2 else { continue }
            found += 1
            if best.0.kind == truth.kind { rightKind += 1 }
        }
        let devices = Set(log.map(\.device))
        for leg in detected where devices.contains(leg.device) {
            let covered = log.filter { $0.device == leg.device }.reduce(0.0) { total, truth in
                total + max(0, min(leg.end, truth.end).seconds(since: max(leg.start, truth.start)))
            }
            if covered < leg.end.seconds(since: leg.start) / 2 { spurious += 1 }
        }
    }

    /// The shares, 0 ... 1.
    public var foundShare: Double { logged == 0 ? 0 : Double(found) / Double(logged) }
    public var rightKindShare: Double { logged == 0 ? 0 : Double(rightKind) / Double(logged) }

    /// The device numbering of `other` that best matches `log`'s: each of `other`'s devices
    /// goes to the log device whose legs its vehicle legs overlap longest (the recognised
    /// summary numbers the phones differently from the device data).
    public static func matchDevices(_ other: [LoggedLeg], to log: [LoggedLeg]) -> [Int: Int] {
        var overlaps: [(from: Int, to: Int, seconds: Seconds)] = []
        for from in Set(other.map(\.device)) {
            for to in Set(log.map(\.device)) {
                var total: Seconds = 0
                for leg in other where leg.device == from {
                    for truth in log where truth.device == to {
                        total += max(0, min(leg.end, truth.end).seconds(since: max(leg.start, truth.start)))
                    }
                }
                overlaps.append((from, to, total))
            }
        }
        var mapping: [Int: Int] = [:]
        var taken = Set<Int>()
        for pair in overlaps.sorted(by: { ($0.seconds, $1.from, $1.to) > ($1.seconds, $0.from, $0.to) }) where pair.seconds > 0 {
            guard mapping[pair.from] == nil, !taken.contains(pair.to) else { continue }
            mapping[pair.from] = pair.to
            taken.insert(pair.to)
        }
        return mapping
    }
}
