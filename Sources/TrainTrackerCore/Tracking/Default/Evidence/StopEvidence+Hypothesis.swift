import Algorithms
import RealModule

extension StopEvidence {
    /// What the train did since the last fix, for one hypothesis: stations crossed (judged by
    /// `judgeLeftBehind` once the train is well past them), stops made. A stop that ends after a gap in the fixes (a
    /// tunnel) is judged where the train stood, and the stations crossed in the gap say nothing
    /// unless the train ran too fast to stop. Returns the station the train just left after a
    /// stop seen to its end, whose departure time is then known.
    ///
    /// - Parameters:
    ///   - change: the stop that started or ended at this fix.
    ///   - travelled: the most the train can have travelled since the last fix; a longer step
    ///     is a correction of its position, which crosses nothing.
    ///   - gap: seconds since the last fix.
    func observe(
        _ hypothesis: inout Hypothesis, model: TrackerModel, change: MotionState.Change?, stopped: Bool, travelled: Meters,
        gap: Seconds
    ) -> Int? {
        guard let along = hypothesis.along else { return nil }
        if let previous = hypothesis.previousAlong {
            cross(&hypothesis, model: model, from: previous, to: along, travelled: travelled, gap: gap)
        }
        hypothesis.previousAlong = along
        var departed: Int?
        switch change {
        case .started:
            hypothesis.stopPosition = along
        case .ended(let duration):
            if duration >= minimumStop, let standing = hypothesis.stopPosition {
                departed = stop(&hypothesis, model: model, at: gap > self.gap ? standing : along, seenToItsEnd: gap <= self.gap)
            }
            hypothesis.stopPosition = nil
        case nil:
            // Where it stands, as the fixes of the stop settle it (the rider's last place, when
            // a walk to the platform ends the stop: not where the walk began).
            if stopped, hypothesis.stopPosition != nil { hypothesis.stopPosition = along }
        }
        return departed
    }

    /// Stations crossed between `previous` and `along` wait in `pending` until the train is
    /// well past them. Only the train's own progress crosses stations, not a correction.
    private func cross(
        _ hypothesis: inout Hypothesis, model: TrackerModel, from previous: Meters, to along: Meters, travelled: Meters,
        gap: Seconds
    ) {
        let walk = hypothesis.walk
        let step = walk.distanceAhead(from: previous, to: along)
        guard step > 0, step <= travelled, !mayHaveStoppedUnseen(gap: gap, distance: step) else { return }
        let end = walk.advance(previous, by: step)
        let (low, high) = walk.sign > 0 ? (previous, end) : (end, previous)
        // (Lists are read in place, only where needed: this runs per hypothesis per fix.)
        let order = model.stationOrder[hypothesis.line.railway]
        // Positions in (low, high], wrapping once on a loop.
        let wraps = high < low
        for part in 0..<(wraps ? 2 : 1) {
            let (from, to) = !wraps ? (low, high) : part == 0 ? (low, walk.length) : (-1, high)
            var index = order.partitioningIndex { $0.position > from }
            while index < order.count, order[index].position <= to {
                let (position, station) = order[index]
                index += 1
                guard
                    showsCrossing(
                        gap: gap, before: walk.separation(position, previous), after: walk.separation(position, end))
                else { continue }
                if !hypothesis.pending.contains(where: { $0.station == station }) {
                    hypothesis.pending.append(PendingStation(station: station, position: position))
                }
            }
        }
    }

    /// A stop at `position`: at the nearest station within reach, an event of the patterns
    /// (unless already pending), else a stray stop. Returns the station, when the stop was
    /// `seenToItsEnd` so its departure time is known.
    private func stop(_ hypothesis: inout Hypothesis, model: TrackerModel, at position: Meters, seenToItsEnd: Bool) -> Int? {
        hypothesis.stops.append(position)
        if hypothesis.stops.count > Self.rememberedStops { hypothesis.stops.removeFirst() }
        let walk = hypothesis.walk
        let positions = model.network.stationAlongTrack[hypothesis.line.railway]
        let nearest = positions.enumerated().min { walk.separation($0.element, position) < walk.separation($1.element, position) }
        guard let nearest, walk.separation(nearest.element, position) <= stationReach else {
            hypothesis.charge(.stops, -strayStopCost)
            return nil
        }
        if !hypothesis.pending.contains(where: { $0.station == nearest.offset }) {
            record(&hypothesis, model: model, station: nearest.offset, stopped: true)
        }
        return seenToItsEnd ? nearest.offset : nil
    }

    /// Judges the pending stations the train has left well behind: stopped at if a stop was
    /// within reach of them, passed otherwise.
    func judgeLeftBehind(_ hypothesis: inout Hypothesis, model: TrackerModel) {
        guard let along = hypothesis.along else { return }
        let walk = hypothesis.walk
        let leftBehind = { (position: Meters) in
            let behind = walk.distanceAhead(from: position, to: along)
            return behind > Self.judgedBehind && !(walk.isLoop && behind > walk.length / 2)
        }
        guard hypothesis.pending.contains(where: { leftBehind($0.position) }) else { return }
        var remaining: [PendingStation] = []
        for item in hypothesis.pending {
            guard leftBehind(item.position) else {
                remaining.append(item)
                continue
            }
            let stopped = hypothesis.stops.contains { walk.separation($0, item.position) <= stationReach }
            record(&hypothesis, model: model, station: item.station, stopped: stopped)
        }
        hypothesis.pending = remaining
    }

    /// Evidence from stopping at, or passing, station `station`: the likelihood under the
    /// hypothesis's service patterns, which are re-weighted by it.
    func record(_ hypothesis: inout Hypothesis, model: TrackerModel, station: Int, stopped: Bool) {
        let patterns = model.patterns[line: hypothesis.line]
        let hasTimetable = model.hasTimetable
        let nats = hypothesis.weighPatterns(model: model) { index in
            let pattern = patterns[index]
            let stops = station < pattern.stops.count && pattern.stops[station]
            let runs = station >= pattern.runs.count || pattern.runs[station]
            return Double.log(probability(stopped: stopped, patternStops: stops, patternRuns: runs, hasTimetable: hasTimetable))
        }
        hypothesis.charge(.stops, nats)
    }
}
