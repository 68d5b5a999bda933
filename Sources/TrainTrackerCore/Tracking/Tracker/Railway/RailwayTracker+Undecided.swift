import RealModule

/// Honest while undecided (issue 59): before the first station that tells the services on a
/// shared track apart, each explains the ride as well as the others, and the answer says so.
extension RailwayTracker {
    /// A service (a line's service pattern) is still possible while it holds at least this
    /// share of the belief (the default of `Parameters.possibleShare`). Set by hand on 2026-12-07: one in twenty, the share below which a
    /// rider is better served by one answer than by a list (a line's reverse direction or a
    /// track across the street falls below it within a few fixes); not fitted.
    static let possibleShare = 0.05
    /// Two railways' stations this close are one place, where services of both stop alike.
    /// Set by hand, as the simulator's rival services (`RivalServices.samePlace`): stations of
    /// one place on parallel lines lie up to a long platform apart.
    static let samePlace: Meters = 300

    /// A possible service and where on its railway its trains stop next (an index into the
    /// railway's stations).
    struct Possibility {
        var service: PossibleService
        var line: LineDirection
        var stop: Int?
    }

    /// The services still possible, most likely first: each placed line's service patterns
    /// holding at least `Parameters.possibleShare` of the belief (`normaliser`: the sum of the placed
    /// hypotheses' exponentiated scores), those of one line and train type that stop next at
    /// the same station taken as one. Empty or one when the services are told apart.
    ///
    /// - Complexity: O(h + p · s) for h hypotheses and the p patterns above the share, over
    ///   railways of s stations.
    func possibleServices(normaliser: Double) -> [Possibility] {
        guard normaliser > 0 else { return [] }
        var shares: [(hypothesis: Int, pattern: Int?, share: Double)] = []
        for index in hypotheses.indices where hypotheses[index].along != nil {
            let lineShare = Double.exp(hypotheses[index].score) / normaliser
            guard lineShare >= parameters.possibleShare else { continue }
            let weights = hypotheses[index].patterns.weights
            guard !weights.isEmpty else {
                shares.append((index, nil, lineShare))
                continue
            }
            for (pattern, chance) in model.probabilities(weights).enumerated()
            where lineShare * chance >= parameters.possibleShare {
                shares.append((index, pattern, lineShare * chance))
            }
        }
        guard shares.count > 1 else { return [] }
        var found: [Possibility] = []
        for (index, pattern, share) in shares {
            guard let along = hypotheses[index].along else { continue }
            let line = hypotheses[index].line
            let patterns = model.patterns[line: line]
            let stop: Int?
            let trainTypeID: String?
            if let pattern, patterns.indices.contains(pattern) {
                let stops = patterns[pattern].stops
                stop = nextStation(on: hypotheses[index], from: along) { stops.indices.contains($0) && stops[$0] }?.station
                trainTypeID = patterns[pattern].trainTypeID
            } else {
                stop = nextStop(of: hypotheses[index], from: along)?.station
                trainTypeID = nil
            }
            if let same = found.firstIndex(where: { $0.line == line && $0.stop == stop && $0.service.trainTypeID == trainTypeID })
            {
                found[same].service.share += share
            } else {
                found.append(possibility(on: line, trainTypeID: trainTypeID, stop: stop, share: share))
            }
        }
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
    /// ahead of `along`: its station within `samePlace` of theirs; nil when they stop next at
    /// different places (or one makes no more stops).
    func sharedStop(of possible: [Possibility], on hypothesis: Hypothesis, from along: Meters)
        -> (station: Int, position: Meters)?
    {
        let network = model.network
        var place: Coordinate?
        for possibility in possible {
            guard let stop = possibility.stop else { return nil }
            let here = network.stations[network.railwayStations[possibility.line.railway][stop]].coordinate
            if let place {
                guard place.distance(to: here) <= Self.samePlace else { return nil }
            } else {
                place = here
            }
        }
        guard let place else { return nil }
        let stations = network.railwayStations[hypothesis.line.railway]
        return nextStation(on: hypothesis, from: along) {
            network.stations[stations[$0]].coordinate.distance(to: place) <= Self.samePlace
        }
    }
}
