/// When an operator's feeds reported each trip lately: a train the feeds have never reported,
/// on a line whose trains they report, has most likely not left yet; one they reported an
/// hour ago and lost since is most likely running with a stale report (real feeds lose a
/// train for minutes at a time). Passages weigh the first by `PassageEvidence.unreportedShare`
/// and leave the second alone.
///
///     var sightings = TripSightings()
///     for feed in feedsInTimeOrder { sightings.advance(with: feed) }
///     sightings.reported(trip, of: line, before: now)   // true once any feed up to now reported it
public struct TripSightings: Sendable {
    /// A report further back than this says nothing of today's run (a trip runs once a day).
    /// Set by hand on 2026-11-26; the reason for three hours is not recorded.
    public static let lookback: Seconds = 3 * 3_600
    /// A report within this long of the last one kept for its trip is not kept (feeds come
    /// every few seconds from several sources; one a minute says as much). Set by hand; not tuned.
    static let spacing: Seconds = 60
    /// A report dated this far after the time it is pruned at is dropped (a clock gone wrong
    /// would otherwise hide the trip's later reports). Set by hand on 2026-11-26; the reason
    /// for a minute is not recorded.
    static let aheadOfNow: Seconds = 60

    /// A trip of a line.
    private struct Train: Hashable, Sendable {
        let line: Int32
        let trip: Int32
    }

    /// Per trip, the times of the feeds that reported it, in time order.
    private var times: [Train: [Double]] = [:]

    /// None yet.
    public init() {}

    /// The reports kept in all.
    public var count: Int { times.values.reduce(0) { $0 + $1.count } }

    /// Takes the operator's reports in `trips` (a feed made after every feed taken so far):
    /// a trip update or a vehicle position, not riders' word.
    ///
    /// - Complexity: O(R) for R reports of the feed.
    public mutating func advance(with trips: LiveTrips) {
        let time = trips.timestamp.secondsSince1970
        for (index, reports) in trips.lines.enumerated() {
            for (trip, reports) in reports where reports.contains(where: { $0.informs && !$0.cancelled }) {
                let train = Train(line: Int32(index), trip: trip)
                if let last = times[train]?.last, time < last + Self.spacing { continue }
                times[train, default: []].append(time)
            }
        }
    }

    /// Forgets reports more than `lookback` before `time` or more than `aheadOfNow` after it
    /// (a server's, whose feeds never end).
    ///
    /// - Complexity: O(T + r) for T trips and r reports dropped.
    public mutating func prune(at time: Timestamp) {
        let window = (time.secondsSince1970 - Self.lookback)...(time.secondsSince1970 + Self.aheadOfNow)
        for (train, list) in times where !(list.first.map(window.contains) ?? true) || !(list.last.map(window.contains) ?? true) {
            let kept = list.filter { window.contains($0) }
            times[train] = kept.isEmpty ? nil : kept
        }
    }

    /// Whether a feed made within `lookback` before `time` (and not after it) reported trip
    /// `trip` of `line`.
    ///
    /// - Complexity: O(log n) for the trip's n reports.
    func reported(_ trip: Int32, of line: LineDirection, before time: Timestamp) -> Bool {
        guard let list = times[Train(line: Int32(line.index), trip: trip)] else { return false }
        let now = time.secondsSince1970
        // The last report at or before now.
        let after = list.partitioningIndex { $0 > now }
        return after > 0 && list[after - 1] >= now - Self.lookback
    }
}
