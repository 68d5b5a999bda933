/// The runs trains made lately into their stops, as an operator's feeds placed them one
/// snapshot after another: for each line and stop, when each train was how far out and when
/// it arrived. An arrival time reads the followed train's run still to go against the last
/// few trains with the same two stops as well as against its timetable (docs/realtime.md,
/// "Arrival times"): a timetable gives whole minutes and a padded run; the trains ahead ran
/// today's.
///
///     var runs = RecentRuns()
///     for feed in feedsInTimeOrder { runs.advance(with: feed, model: model) }
///     runs.remaining(on: line, into: stop, from: before, out: 1_200, excluding: trip, at: now)   // 95 s
///
/// Only an operator's positions count (riders' trains are placed by their timetable and
/// delay, which says nothing new); a position the feed published again unchanged is no
/// new one.
public struct RecentRuns: Sendable {
    /// A train counts as arrived once this far before a stop's mark (a platform is long; the
    /// same mark as the recorded rides' truth). Set by hand on 2026-11-26 to that truth; not tuned.
    public static let arrivalMark: Meters = 50
    /// A run that ended longer ago than this says nothing about the next train's (two hours:
    /// a line with a train an hour has two runs to compare). Chosen by hand on 2026-11-26 with
    /// `scripts/arrival-ceiling.py` on Caltrain's recording (the last 3, 5 or 7 runs within 2,
    /// 3 or 4 hours scored 87.3–87.5 %); not fitted.
    public static let reach: Seconds = 7_200
    /// An arrival time reads the median of this many latest runs, or of as many as there are:
    /// one train held at a signal says little about the next (on Caltrain's recording with its
    /// feed, 87.8 % of arrival times within a minute against 86.4 % with the last train alone).
    /// Chosen by hand with `scripts/arrival-ceiling.py`; not fitted.
    public static let runsCompared = 5
    /// A train unseen for longer than this starts a new run when seen again (a lost train,
    /// another service day). Set by hand on 2026-11-26; the reason for 15 minutes is not recorded.
    public static let longestGap: Seconds = 900
    /// A position dated more than this after its feed was made is not believed (a clock gone
    /// wrong would hide the train's later positions). Set by hand on 2026-11-26; the reason
    /// for a minute is not recorded.
    static let aheadOfFeed: Seconds = 60
    /// A server keeps at most this many runs into each stop (the latest: an arrival time
    /// reads only the last with the same stop before).
    static let mostPerStop = 64
    /// At most this many positions are kept of a run under way (a train standing for an hour
    /// with a wandering fix).
    static let longestTrack = 240

    /// Where a train was, as distance before the stop it ran into, and when (seconds since 1970).
    struct Point: Sendable {
        var time: Double
        var out: Meters
    }

    /// One train's run into a stop.
    struct Run: Sendable {
        /// The trip (the model's index on the line).
        let trip: Int32
        /// The stop it called at before (slot on the railway; -1: none).
        let from: Int32
        /// When it came within `arrivalMark` of the stop's mark, in seconds since 1970.
        let arrival: Double
        /// When the feed that showed it arrived was made: no tracker knows the run before.
        let known: Double
        /// Its places on the way, in time order, the arrival last.
        let track: [Point]
    }

    /// A line and one of its stops (slot on the railway).
    struct Stop: Hashable, Sendable {
        let line: Int32
        let slot: Int32
    }

    /// A trip of a line.
    private struct Train: Hashable, Sendable {
        let line: Int32
        let trip: Int32
    }

    /// A train seen on its way: its last place, and its places since it last arrived.
    private struct Underway: Sendable {
        var coordinate: Coordinate
        var time: Double
        var places: [(time: Double, along: Meters)]
    }

    /// Per stop, the runs into it in the order they became known.
    private(set) var runs: [Stop: [Run]] = [:]
    /// Per line and trip, the train on its way.
    private var underway: [Train: Underway] = [:]

    /// None yet.
    public init() {}

    /// The runs in all.
    public var count: Int { runs.values.reduce(0) { $0 + $1.count } }

    /// Takes the operator's vehicle positions in `trips` (made after every feed taken so far,
    /// as a rule; an older one is taken in its place): each train's place on its line, and a
    /// run for every stop it reached since it was last seen.
    ///
    /// - Complexity: O(V · (log P + C)) for V vehicles, P track vertices and C calls per trip.
    public mutating func advance(with trips: LiveTrips, model: TrackerModel) {
        var ended: [(stop: Stop, run: Run)] = []
        for (index, reports) in trips.lines.enumerated() {
            for (trip, reports) in reports {
                // One place per train and feed, its latest (a feed may report a trip for two
                // service days; taking both in turn would make runs of neither).
                let seen = reports.filter { $0.informs && !$0.cancelled }.compactMap(\.vehicle).max { $0.time < $1.time }
                guard let seen else { continue }
                let train = Train(line: Int32(index), trip: trip)
                if let run = place(
                    train, at: seen.coordinate, time: seen.time.secondsSince1970, known: trips.timestamp.secondsSince1970,
                    model: model)
                {
                    ended.append(run)
                }
            }
        }
        // In arrival order (a feed's trips come in no particular order), each stop's runs kept
        // in the order they became known: a feed older than the last (a second source, a
        // cache's stale copy) puts its runs before those known later.
        for (stop, run) in ended.sorted(by: { ($0.run.arrival, $0.run.trip) < ($1.run.arrival, $1.run.trip) }) {
            let index = runs[stop, default: []].partitioningIndex { $0.known > run.known }
            runs[stop, default: []].insert(run, at: index)
        }
    }

    /// Forgets runs that ended more than `reach` before `time` (or after it: a clock gone
    /// wrong), all but the latest `mostPerStop` of each stop, and trains not seen within
    /// `longestGap` of it (a server's, whose feeds never end).
    public mutating func prune(at time: Timestamp) {
        let now = time.secondsSince1970
        let window = (now - Self.reach)...(now + Self.aheadOfFeed)
        for (stop, list) in runs where list.count > Self.mostPerStop || list.contains(where: { !window.contains($0.arrival) }) {
            let kept = list.filter { window.contains($0.arrival) }.suffix(Self.mostPerStop)
            runs[stop] = kept.isEmpty ? nil : Array(kept)
        }
        if underway.values.contains(where: { abs(now - $0.time) > Self.longestGap }) {
            underway = underway.filter { abs(now - $0.value.time) <= Self.longestGap }
        }
    }

    /// Train `train` seen at `coordinate` at `time` in a feed made at `known`: its run into
    /// the first of its stops whose mark it passed since it was last seen, if any.
    private mutating func place(_ train: Train, at coordinate: Coordinate, time: Double, known: Double, model: TrackerModel)
        -> (stop: Stop, run: Run)?
    {
        let line = LineDirection(index: Int(train.line))
        let railway = model.network.railways[line.railway]
        let trips = model.trips[line: line]
        guard trips.indices.contains(Int(train.trip)), time <= known + Self.aheadOfFeed,
            let along = railway.track.polyline.projection(of: coordinate, within: TrackerModel.delayReach)?.alongTrack
        else { return nil }
        guard var seen = underway[train], time - seen.time <= Self.longestGap, time > seen.time else {
            if underway[train].map({ time - $0.time > Self.longestGap }) ?? true {
                underway[train] = Underway(coordinate: coordinate, time: time, places: [(time, along)])
            }
            return nil
        }
        // The same place published again: no new fix.
        guard seen.coordinate != coordinate, let last = seen.places.last else { return nil }
        seen.coordinate = coordinate
        seen.time = time
        let walk = TrackWalk(railway: railway, direction: line.direction)
        let positions = model.network.stationAlongTrack[line.railway]
        let calls = trips[Int(train.trip)].callSlots
        let moved = walk.distanceAhead(from: last.along, to: along)
        // The nearest stop whose mark lies between the last place and this one.
        var reached: (call: Int, share: Double)?
        for (index, slot) in calls.enumerated() where positions.indices.contains(slot) {
            let mark = walk.advance(positions[slot], by: -Self.arrivalMark)
            let ahead = walk.distanceAhead(from: last.along, to: mark)
            guard ahead > 0, moved >= ahead, moved > 0, reached.map({ ahead / moved < $0.share }) ?? true else { continue }
            reached = (index, ahead / moved)
        }
        if let reached {
            let slot = calls[reached.call]
            let arrival = last.time + (time - last.time) * reached.share
            let track =
                seen.places.map { Point(time: $0.time, out: walk.distanceAhead(from: $0.along, to: positions[slot])) }
                + [Point(time: arrival, out: Self.arrivalMark)]
            let from = reached.call > 0 ? Int32(calls[reached.call - 1]) : -1
            seen.places = [(time, along)]
            underway[train] = seen
            return (
                Stop(line: train.line, slot: Int32(slot)),
                Run(trip: train.trip, from: from, arrival: arrival, known: known, track: track)
            )
        }
        seen.places.append((time, along))
        if seen.places.count > Self.longestTrack { seen.places.removeFirst(seen.places.count - Self.longestTrack) }
        underway[train] = seen
        return nil
    }

    /// How long the last trains of `line` that called at `from` and then at stop `slot` took
    /// from `out` metres before the stop to arriving there: the median over the latest
    /// `runsCompared` runs known at `time` that ended within `reach` before it, not trip
    /// `trip`'s own, and that were seen at least that far out. Nil when there is none.
    ///
    /// - Complexity: O(log R + r · p) for R runs into the stop, r of them known within `reach`
    ///   before `time`, and p places of each.
    func remaining(on line: LineDirection, into slot: Int, from: Int, out: Meters, excluding trip: Int32, at time: Timestamp)
        -> Seconds?
    {
        guard let list = runs[Stop(line: Int32(line.index), slot: Int32(slot))] else { return nil }
        let now = time.secondsSince1970
        let distance = max(out, Self.arrivalMark)
        // Runs are in the order they became known: those known by now end here.
        var index = list.partitioningIndex { $0.known > now }
        var times: [Seconds] = []
        while index > 0, times.count < Self.runsCompared {
            index -= 1
            let run = list[index]
            // (A run arrives before the feed that shows it: none known earlier is within reach.)
            guard run.known >= now - Self.reach else { break }
            guard run.arrival >= now - Self.reach, run.trip != trip, Int(run.from) == from,
                let time = run.remaining(from: distance)
            else { continue }
            times.append(time)
        }
        return times.median
    }
}

extension RecentRuns.Run {
    /// How long the run took from `distance` metres out to its arrival; nil when it was not
    /// seen that far out.
    func remaining(from distance: Meters) -> Seconds? {
        for (before, after) in zip(track, track.dropFirst())
        where before.out >= distance && distance >= after.out && before.out > after.out {
            let passed = before.time + (after.time - before.time) * (before.out - distance) / (before.out - after.out)
            return max(0, arrival - passed)
        }
        return nil
    }
}
