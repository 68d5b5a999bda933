/// The published Eki Live algorithm, every step of it, as a streaming value.
///
/// Per fix it
/// 1. scores every railway within 3 km by its distance to the fix (speed-weighted and
///    summed over the session) and keeps the top 8 as candidates;
/// 2. accumulates, per railway, the course against the vector between the two nearest
///    consecutive stations to learn the direction;
/// 3. keeps per-station histories of visiting, approaching and departure fixes, turns
///    them into station phases and picks the focus station;
/// 4. ranks the candidates by score less the passed-station and stray-stop penalties.
///
///     var tracker = EkiTracker(network: network)
///     for fix in fixes {
///         let result = tracker.process(fix)
///         print(result.best?.focusStationID ?? "-")
///     }
///
/// All network data is in memory; no database is touched per fix. Memory is bounded by
/// the network (per railway and station counters), not by the length of the session.
public struct EkiTracker: TrackingAlgorithm {
    /// The network tracked against.
    public let network: RailwayNetwork
    /// The algorithm's constants.
    public let parameters: EkiParameters

    private var proximityScores: [Double]
    private var directionScores: [Double]
    private var directions: [TravelDirection?]
    /// The track edge nearest the previous fix, per railway (-1: none), to start the next search.
    private var nearestEdges: [Int32]
    /// Per `LineDirection`, created when first a candidate.
    private var lines: [LineState?]

    /// A tracker with no history.
    public init(network: RailwayNetwork, parameters: EkiParameters = EkiParameters()) {
        self.network = network
        self.parameters = parameters
        proximityScores = Array(repeating: 0, count: network.railways.count)
        directionScores = Array(repeating: 0, count: network.railways.count)
        directions = Array(repeating: nil, count: network.railways.count)
        lines = Array(repeating: nil, count: network.railways.count * 2)
        nearestEdges = Array(repeating: -1, count: network.railways.count)
    }

    /// Takes the next fix (timestamps must not go backwards) and returns the ranked candidates.
    ///
    /// - Complexity: O(R log V + C·S) for R railways, V track vertices per railway, C = 8
    ///   candidates and S stations per candidate.
    public mutating func process(_ location: Location) -> TrackingResult {
        let projection = LocalProjection(origin: location.coordinate)
        let nearby = scoreProximity(location, projection: projection)
        updateDirections(location, projection: projection, nearby: nearby)
        let lineKeys = topProximityRailways().compactMap { railway in
            directions[railway].map { LineDirection(railway: railway, direction: $0) }
        }
        if let course = location.courseVector {
            for key in lineKeys {
                record(location, course: course, projection: projection, lineKey: key)
            }
        }
        for key in lineKeys {
            updatePhasesAndFocus(lineKey: key)
        }
        return rankCandidates(lineKeys)
    }

    // MARK: Step 1, railway: proximity scores

    /// Adds each nearby railway's speed-weighted proximity score; returns the railways within reach.
    private mutating func scoreProximity(_ location: Location, projection: LocalProjection) -> [Int] {
        let weight = parameters.speedWeight(location.speed)
        var nearby: [Int] = []
        for (index, polyline) in network.trackPolylines.enumerated() {
            let hint = nearestEdges[index] >= 0 ? Int(nearestEdges[index]) : nil
            guard let nearest = polyline.nearestEdge(from: projection, within: parameters.proximityWorstDistance, hint: hint)
            else {
                nearestEdges[index] = -1
                continue
            }
            nearestEdges[index] = Int32(nearest.edge)
            nearby.append(index)
            proximityScores[index] += parameters.proximityScore(distance: nearest.distance) * weight
        }
        return nearby
    }

    /// The railways with the highest proximity scores, best first.
    private func topProximityRailways() -> [Int] {
        var top: [Int] = []
        top.reserveCapacity(parameters.candidateCount + 1)
        for (index, score) in proximityScores.enumerated() where score > 0 {
            guard top.count < parameters.candidateCount || score > proximityScores[top[top.count - 1]] else { continue }
            let position = top.firstIndex { score > proximityScores[$0] } ?? top.count
            top.insert(index, at: position)
            if top.count > parameters.candidateCount { top.removeLast() }
        }
        return top
    }

    // MARK: Step 2, direction

    /// Course vs the vector between the two nearest consecutive stations, accumulated and clipped.
    private mutating func updateDirections(_ location: Location, projection: LocalProjection, nearby: [Int]) {
        guard let course = location.courseVector, let speed = location.speed, speed > parameters.directionMinimumSpeed
        else { return }
        for railway in nearby {
            guard let alignment = stationAlignment(railway: railway, course: course, projection: projection) else { continue }
            let limit = parameters.directionScoreLimit
            let score = min(limit, max(-limit, directionScores[railway] + alignment))
            directionScores[railway] = score
            directions[railway] = abs(score) > parameters.directionThreshold ? (score > 0 ? .ascending : .descending) : nil
        }
    }

    /// The squared, signed dot product of the course with the unit vector from the nearer-ordered
    /// to the later-ordered of the two stations nearest the fix, if they are neighbours.
    private func stationAlignment(railway: Int, course: PlanarVector, projection: LocalProjection) -> Double? {
        let coordinates = network.stationCoordinates[railway]
        var nearest = (index: -1, distance: Double.infinity)
        var second = (index: -1, distance: Double.infinity)
        for (index, coordinate) in coordinates.enumerated() {
            let offset = projection.vector(to: coordinate)
            let distance = offset.dot(offset)
            if distance < nearest.distance {
                second = nearest
                nearest = (index, distance)
            } else if distance < second.distance {
                second = (index, distance)
            }
        }
        guard second.index >= 0 else { return nil }
        let count = coordinates.count
        let (low, high) = (min(nearest.index, second.index), max(nearest.index, second.index))
        let from: Int
        let to: Int
        if high - low == 1 {
            (from, to) = (low, high)
        } else if network.isLoop[railway], low == 0, high == count - 1 {
            (from, to) = (high, low)  // the loop closes from its last station to its first
        } else {
            return nil
        }
        guard let segment = (projection.vector(to: coordinates[to]) - projection.vector(to: coordinates[from])).normalized
        else { return nil }
        let dot = course.dot(segment)
        let magnitude = EkiParameters.normalized(dot, best: 1, worst: 0, exponent: 2)
        return dot > 0 ? magnitude : -magnitude
    }

    // MARK: Step 3, station phase

    /// The station positions of railway `railway` in the order a train in `direction` meets them.
    private func travelOrder(railway: Int, direction: TravelDirection) -> StrideTo<Int> {
        let count = network.railwayStations[railway].count
        return direction == .ascending ? stride(from: 0, to: count, by: 1) : stride(from: count - 1, to: -1, by: -1)
    }

    /// The last station in travel order, which is always visited; `nil` on a loop.
    private func terminal(railway: Int, direction: TravelDirection) -> Int? {
        guard !network.isLoop[railway] else { return nil }
        return direction == .ascending ? network.railwayStations[railway].count - 1 : 0
    }

    /// The station after `position` in travel order, if any.
    private func following(_ position: Int, railway: Int, direction: TravelDirection) -> Int? {
        let count = network.railwayStations[railway].count
        let next = position + (direction == .ascending ? 1 : -1)
        if (0..<count).contains(next) { return next }
        return network.isLoop[railway] ? (next + count) % count : nil
    }

    /// Step 1 of the focus station algorithm: assign the fix to at most one station of the line.
    private mutating func record(
        _ location: Location, course: PlanarVector, projection: LocalProjection, lineKey: LineDirection
    ) {
        let railway = lineKey.railway
        let direction = lineKey.direction
        let coordinates = network.stationCoordinates[railway]
        let terminal = terminal(railway: railway, direction: direction)
        let time = location.timestamp
        let isStopped = location.speed.map { $0 <= parameters.stoppedSpeed } ?? false
        // Taken out of the array while it is updated, so its storage is not copied.
        var line = lines[line: lineKey] ?? LineState(stationCount: coordinates.count)
        lines[line: lineKey] = nil
        var placed = false
        var departureCandidate: (station: Int, distance: Meters)?
        // Stations earlier in travel order claim the fix first.
        for position in travelOrder(railway: railway, direction: direction) {
            let offset = projection.vector(to: coordinates[position])
            let distance = offset.length
            let ahead = offset.normalized.map { $0.dot(course) } ?? 0
            if distance <= parameters.visitingRadius {
                var log = line.stations[position]
                log.visitingCount += 1
                if log.firstVisit == nil { log.firstVisit = time }
                if isStopped {
                    if log.firstStoppedVisit == nil { log.firstStoppedVisit = time }
                    log.lastStoppedVisit = time
                }
                if position == terminal {
                    if log.departure == nil { line.departedStations += 1 }
                    log.departure = time
                }
                line.stations[position] = log
                placed = true
                break
            } else if distance <= parameters.approachingRadius, ahead > 0 {
                line.stations[position].approachingCount += 1
                placed = true
                break
            } else if ahead < 0 {
                let log = line.stations[position]
                if log.hasFixes, log.departure == nil {
                    // A station in progress is now behind the train: it has been departed.
                    line.stations[position].departure = time
                    line.departedStations += 1
                } else if departureCandidate.map({ distance < $0.distance }) ?? true {
                    departureCandidate = (position, distance)
                }
            }
        }
        // Stopping between stations is a loose hint that this is the wrong (express) line.
        if !placed, let speed = location.speed, speed < parameters.stoppedSpeed {
            line.strayStops += 1
        }
        // Start-up rule: with no departure yet, the nearest station behind is the departure station.
        if line.departedStations == 0, let candidate = departureCandidate {
            // The talk replaces the station's location history; its phase history stays.
            line.stations[candidate.station] = StationLog(departure: time, phase: line.stations[candidate.station].phase)
            line.departedStations = 1
        }
        lines[line: lineKey] = line
    }

    /// Steps 2 and 3 of the focus station algorithm for one line.
    private mutating func updatePhasesAndFocus(lineKey: LineDirection) {
        guard var line = lines[line: lineKey] else { return }
        lines[line: lineKey] = nil
        let railway = lineKey.railway
        let direction = lineKey.direction
        updatePhases(&line, terminal: terminal(railway: railway, direction: direction))
        updateFocus(&line, railway: railway, direction: direction)
        lines[line: lineKey] = line
    }

    /// Step 2: turn each station's history into a phase, forward transitions only.
    private func updatePhases(_ line: inout LineState, terminal: Int?) {
        for position in line.stations.indices where !line.stations[position].isEmpty {
            let log = line.stations[position]
            guard let proposed = log.proposedPhase(isTerminal: position == terminal, parameters: parameters) else { continue }
            if let current = log.phase, !current.allowsTransition(to: proposed) { continue }
            if log.phase == .passed { line.passedStations -= 1 }
            if proposed == .passed { line.passedStations += 1 }
            line.stations[position].phase = proposed
        }
    }

    /// Step 3: the focus follows the last station in travel direction that has a phase.
    private func updateFocus(_ line: inout LineState, railway: Int, direction: TravelDirection) {
        var focus: (station: Int, phase: FocusPhase)?
        for position in travelOrder(railway: railway, direction: direction) {
            guard let phase = line.stations[position].phase else { continue }
            switch phase {
            case .departure, .visited, .passed:
                if let next = following(position, railway: railway, direction: direction) {
                    focus = (next, .next)
                } else {
                    focus = (position, .now)  // the end of the line
                }
            case .approaching:
                focus = (position, .soon)
            case .visiting:
                focus = (position, .now)
            }
        }
        if let focus { line.focus = focus }
    }

    // MARK: Step 4, ranking

    /// Scores the candidate lines with their penalties and describes those with a focus.
    private func rankCandidates(_ lineKeys: [LineDirection]) -> TrackingResult {
        let scored = lineKeys.map { key -> (key: LineDirection, score: Double) in
            let line = lines[line: key]
            let penalty =
                Double(line?.passedStations ?? 0) * parameters.passedStationPenalty
                + Double(line?.strayStops ?? 0) * parameters.strayStopPenalty
            return (key, proximityScores[key.railway] - penalty)
        }
        .sorted { $0.score != $1.score ? $0.score > $1.score : $0.key < $1.key }
        let candidates = scored.compactMap { key, score -> TrackingCandidate? in
            guard let focus = lines[line: key]?.focus else { return nil }
            let railwayIndex = key.railway
            let direction = key.direction
            let railway = network.railways[railwayIndex]
            let stationIndices = network.railwayStations[railwayIndex]
            var later: [String] = []
            var position = focus.station
            while later.count < 2, let next = following(position, railway: railwayIndex, direction: direction),
                next != focus.station
            {
                later.append(network.stations[stationIndices[next]].id)
                position = next
            }
            let destination = terminal(railway: railwayIndex, direction: direction).map {
                network.stations[stationIndices[$0]].id
            }
            return TrackingCandidate(
                railwayID: railway.id, direction: direction, directionName: railway.name(of: direction),
                destinationStationID: destination, focusStationID: network.stations[stationIndices[focus.station]].id,
                phase: focus.phase, laterStationIDs: later, score: score
            )
        }
        return TrackingResult(candidates: candidates)
    }
}
