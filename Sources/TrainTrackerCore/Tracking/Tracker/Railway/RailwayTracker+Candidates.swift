import RealModule

extension RailwayTracker {
    /// The candidates step: the railways within reach of the fix (`findRailways(near:)`), the
    /// hypotheses of lines with no train running now dropped, and every line within reach not
    /// yet held added in both directions, at the switch cost below the leader. Returns the
    /// leader's score before the new ones came (0 with no hypothesis).
    mutating func findCandidates(for fix: Fix) -> Nats {
        findRailways(near: fix)
        let time = fix.location.timestamp
        // Calendars are law: a line with no train running now is no hypothesis.
        var ended: [Int] = []
        for index in hypotheses.indices where !isRunning(hypotheses[index].line, at: time) {
            ended.append(index)
        }
        if !ended.isEmpty {
            for index in ended.reversed() {
                slots[line: hypotheses[index].line] = -1
                hypotheses.remove(at: index)
            }
            for index in hypotheses.indices { slots[line: hypotheses[index].line] = Int32(index) }
        }
        var leaderScore = hypotheses.isEmpty ? 0 : -Double.infinity
        // (Fields read in place, by index: copying a hypothesis copies and retains its lists.)
        for index in hypotheses.indices { leaderScore = max(leaderScore, hypotheses[index].score) }
        // The rider may be boarding: standing, or silent long enough to have stood unseen.
        let boarding = fix.stopped || fix.dt > fix.silentAfter
        addHypotheses(below: leaderScore, at: time, boarding: boarding)
        return leaderScore
    }

    /// Every railway within reach is a hypothesis in both directions: a new one starts the
    /// switch cost below `leader`, or `firstTrainCost` below it when the rider may be
    /// `boarding` and the line, running now, was not running at the last fix (its calendar
    /// asked again: the answer rests on what a snapshot keeps): its first train may be the one
    /// the rider waited for. A rider on a moving train cannot have boarded a line that just
    /// started running.
    private mutating func addHypotheses(below leader: Nats, at time: Timestamp, boarding: Bool) {
        for item in near {
            for direction in TravelDirection.allCases {
                let line = LineDirection(railway: item.railway, direction: direction)
                guard slots[line: line] < 0, isRunning(line, at: time) else { continue }
                let startedRunning =
                    boarding && lastFix.map { !model.hasTrainRunning(line: line.index, at: $0.timestamp) } == true
                slots[line: line] = Int32(hypotheses.count)
                var hypothesis = Hypothesis(
                    line: line, score: leader - parameters.switching.entryCost(firstTrain: startedRunning),
                    offset: LateralOffset(spread: parameters.position.mapOffsetSpread),
                    patterns: PatternBelief(model: model, line: line),
                    walk: TrackWalk(railway: model.network.railways[item.railway], direction: direction))
                if explains { hypothesis.startExplaining() }
                hypotheses.append(hypothesis)
            }
        }
    }

    /// A calendar is asked at most once a minute per line.
    static let calendarPeriod: Seconds = 60

    /// Whether `line` has a train running at `time` by its calendar (asked of the model once a
    /// minute per line).
    mutating func isRunning(_ line: LineDirection, at time: Timestamp) -> Bool {
        guard model.hasTimetable else { return true }
        let minute = Int32(
            clamping: Int(flooring: time.secondsSince1970 / Self.calendarPeriod, within: -1_000_000_000...1_000_000_000))
        if serviceMinute[line: line] != minute {
            serviceMinute[line: line] = minute
            serviceRunning[line: line] = model.hasTrainRunning(line: line.index, at: time)
        }
        return serviceRunning[line: line]
    }
}
