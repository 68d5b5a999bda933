import RealModule

/// Honest while undecided (issue 59): before the first station that tells the services on a
/// shared track apart, each explains the ride as well as the others, and the answer says so.
extension RailwayTracker {
    /// A service (a line's service pattern) is still possible while it holds at least this
    /// share of the belief (the default of `Parameters.possibleShare`). Set by hand on 2026-12-07: one in twenty (a line's reverse direction
    /// or a track across the street falls below it within a few fixes). 15 % and 30 % tried on
    /// seed 6363 (`evaluate --tune possibleShare=`): the stops they add are right two times in
    /// three, a guess shown as a stop where the answer should show what all make: not taken.
    static let possibleShare = 0.05
    /// Two railways' stations this close are one place, where services of both stop alike.
    /// Set by hand, as the simulator's rival services had it: stations of one place on parallel
    /// lines lie up to a long platform apart. (The simulator's rivals and the evaluator's
    /// stops at one place use it too.)
    package static let samePlace: Meters = 300

    /// A possible service and where on its railway its trains stop next (an index into the
    /// railway's stations).
    struct Possibility {
        var service: PossibleService
        var line: LineDirection
        var stop: Int?
    }

    /// The services still possible, most likely first: the placed lines' service patterns,
    /// those of one line and train type that stop next at the same station taken as one, each
    /// holding at least `Parameters.possibleShare` of the belief (`normaliser`: the sum of the
    /// placed hypotheses' exponentiated scores; the cut applies to the service, not to each of
    /// its patterns). Empty when one or none is left.
    ///
    /// - Complexity: O(h + p · s) for h hypotheses and the p patterns of the lines above the
    ///   share, over railways of s stations.
    func possibleServices(normaliser: Double) -> [Possibility] {
        guard normaliser > 0 else { return [] }
        let cut = parameters.possibleShare
        // Only a line above the cut can hold a service above it.
        var lines: [(hypothesis: Int, share: Double, chances: [Double])] = []
        for index in hypotheses.indices where hypotheses[index].along != nil {
            let lineShare = Double.exp(hypotheses[index].score) / normaliser
            guard lineShare >= cut else { continue }
            let weights = hypotheses[index].patterns.weights
            lines.append((index, lineShare, weights.isEmpty ? [] : model.probabilities(weights)))
        }
        // One line whose likeliest pattern leaves less than the cut to the others: one service.
        if lines.count == 1, let only = lines.first, only.share * (1 - (only.chances.max() ?? 1)) < cut { return [] }
        guard !lines.isEmpty else { return [] }
        var found: [Possibility] = []
        for (index, lineShare, chances) in lines {
            guard let along = hypotheses[index].along else { continue }
            let line = hypotheses[index].line
            let patterns = model.patterns[line: line]
            var options: [(stop: Int?, trainTypeID: String?, share: Double)] = []
            if chances.isEmpty || chances.count != patterns.count {
                options.append((nextStop(of: hypotheses[index], from: along)?.station, nil, lineShare))
            } else {
                for (pattern, chance) in chances.enumerated() where chance > 0 {
                    let stops = patterns[pattern].stops
                    let stop = nextStation(on: hypotheses[index], from: along) { stops.indices.contains($0) && stops[$0] }
                    options.append((stop?.station, patterns[pattern].trainTypeID, lineShare * chance))
                }
            }
            for (stop, trainTypeID, share) in options {
                if let same = found.firstIndex(where: {
                    $0.line == line && $0.stop == stop && $0.service.trainTypeID == trainTypeID
                }) {
                    found[same].service.share += share
                } else {
                    found.append(possibility(on: line, trainTypeID: trainTypeID, stop: stop, share: share))
                }
            }
        }
        found.removeAll { $0.service.share < cut }
        guard found.count > 1 else { return [] }
        return found.sorted {
            $0.service.share != $1.service.share
                ? $0.service.share > $1.service.share
                : ($0.line, $0.service.trainTypeID ?? "", $0.stop ?? -1) < ($1.line, $1.service.trainTypeID ?? "", $1.stop ?? -1)
        }
    }

    /// A possible service of `line` whose trains of type `trainTypeID` stop next at its
    /// railway's station `stop`.
    private func possibility(on line: LineDirection, trainTypeID: String?, stop: Int?, share: Double) -> Possibility {
        let network = model.network
        let railway = network.railways[line.railway]
        let service = PossibleService(
            railwayID: railway.id, direction: line.direction,
            directionName: line.direction == .ascending ? railway.ascendingName : railway.descendingName,
            trainTypeID: trainTypeID, nextStopID: stop.map { network.stations[network.railwayStations[line.railway][$0]].id },
            share: share)
        return Possibility(service: service, line: line, stop: stop)
    }

    /// Where `hypothesis`'s railway has the stop every one of `possible` makes next, at or
    /// ahead of `along`: its station within `samePlace` of each of theirs (all of them within
    /// `samePlace` of one another), where its own train more likely stops than not; nil when
    /// they stop next at different places (or one makes no more stops).
    func sharedStop(of possible: [Possibility], on hypothesis: Hypothesis, from along: Meters)
        -> (station: Int, position: Meters)?
    {
        let network = model.network
        var places: [Coordinate] = []
        for possibility in possible {
            guard let stop = possibility.stop else { return nil }
            let here = network.stations[network.railwayStations[possibility.line.railway][stop]].coordinate
            guard places.allSatisfy({ $0.distance(to: here) <= Self.samePlace }) else { return nil }
            places.append(here)
        }
        guard !places.isEmpty else { return nil }
        let stations = network.railwayStations[hypothesis.line.railway]
        let chance = hypothesis.patterns.stopChance
        return nextStation(on: hypothesis, from: along) { index in
            let coordinate = network.stations[stations[index]].coordinate
            return (!chance.indices.contains(index) || chance[index] >= Self.nextStopChance)
                && places.allSatisfy { $0.distance(to: coordinate) <= Self.samePlace }
        }
    }
}
