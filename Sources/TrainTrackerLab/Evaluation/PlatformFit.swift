import TrainTrackerCore

/// Learns where trains stand at stations (`LearntPlatform`) from recorded rides whose railway
/// and stops are known: each stand of a ride (its fixes staying within `standRadius` for at
/// least `shortestStand`) is placed along its railway's track and given to the nearest station
/// the ride's train stops at, within `reach`; a station's platform is the span of the most of its
/// stands that lie within `longestSpan` of one another, once they are `fewestStands`.
///
/// Real recordings decide: a simulated map (`simulate --map platforms`) moves every station's
/// stopping place by a seed, and the rides of one seed teach the map's platforms to the rides
/// of another on the same map.
public struct PlatformFit: Sendable {
    /// Fixes within this of a stand's first fix belong to the stand: a phone standing in a
    /// train jitters 3–10 m; a train creeping at walking pace leaves it within 10 s. Set by hand.
    public static let standRadius: Meters = 15
    /// A stand lasts at least this long: the railway tracker's shortest stop
    /// (`StopEvidence.minimumStop`).
    public static let shortestStand: Seconds = 8
    /// Fixes less sure than this are left out: a big station's cell position says nothing of
    /// its platform. Set by hand.
    public static let worstAccuracy: Meters = 50
    /// A stand farther than this from its railway's track is not on its train. Set by hand.
    public static let farthestAcross: Meters = 60
    /// A stand is given to a station within this along the track: beyond the longest platforms
    /// (400 m), as the displacements issue 59 measured reach 250 m. Set by hand.
    public static let reach: Meters = 400
    /// ... and within this share of the way to the station's nearer neighbour, so a stand
    /// between close stations belongs to neither. Set by hand.
    public static let neighbourShare = 0.45
    /// A platform's stands lie within this of one another: where most stood, not a signal
    /// short of it (Caltrain's recorded trains held 270 m short of Santa Clara and 300 m short of
    /// Millbrae: learnt from November, they cost October 0.8 points of railway held out). Set
    /// by hand.
    public static let longestSpan: Meters = 150
    /// A platform is learnt from this many stands or more: one may be a signal stop. Set by hand.
    public static let fewestStands = 2

    /// The network the rides ran on.
    public let network: RailwayNetwork

    /// A learner on `network`.
    public init(network: RailwayNetwork) { self.network = network }

    /// What a fit found.
    public struct Outcome: Sendable {
        /// The platforms learnt, by railway and station in the network's order.
        public var platforms: [LearntPlatform]
        /// The stands found.
        public var stands: Int
        /// The stands given to a station the train stops at.
        public var placed: Int
    }

    /// The platforms `rides` show.
    ///
    /// - Complexity: O(n · s) for n fixes and s stations a railway.
    public func learn(rides: [(fixes: [RecordedFix], truth: CaseTruth)]) -> Outcome {
        var offsets: [Int: [Int: [Meters]]] = [:]
        var (found, placed) = (0, 0)
        for ride in rides where ride.truth.transfer == nil {
            guard let railway = network.railwayIndex(id: ride.truth.railwayID) else { continue }
            let window = ride.truth.departure...max(ride.truth.departure, ride.truth.arrival)
            let stops = Set(ride.truth.stops)
            let fixes = ride.fixes.lazy.map(\.location).filter { window.contains($0.timestamp.secondsSince1970) }
            for stand in Self.stands(in: Array(fixes)) {
                found += 1
                guard let (station, offset) = place(stand, railway: railway, stops: stops) else { continue }
                placed += 1
                offsets[railway, default: [:]][station, default: []].append(offset)
            }
        }
        var platforms: [LearntPlatform] = []
        for (railway, stations) in offsets.sorted(by: { $0.key < $1.key }) {
            for (station, list) in stations.sorted(by: { $0.key < $1.key }) {
                guard let (low, high, count) = Self.densest(list) else { continue }
                // (To a decimetre, outwards: a compact file that still holds every stand.)
                let span = (low * 10).rounded(.down) / 10...(high * 10).rounded(.up) / 10
                let line = network.railways[railway]
                platforms.append(
                    LearntPlatform(
                        railwayID: line.id, stationID: line.stationIDs[station], offsets: span, stands: count))
            }
        }
        return Outcome(platforms: platforms, stands: found, placed: placed)
    }

    /// The span of the most stands that lie within `longestSpan` of one another (the one nearer
    /// the station's point of two as full) and how many, if it holds `fewestStands`: where trains stand,
    /// without a signal a few hundred metres short of the platform that held two of them.
    ///
    /// - Complexity: O(n log n) for n stands.
    static func densest(_ offsets: [Meters]) -> (low: Meters, high: Meters, count: Int)? {
        let sorted = offsets.sorted()
        var best: (count: Int, low: Meters, high: Meters)?
        var end = 0
        // How far a span lies from the point: 0 when it holds it.
        let nearer = { (low: Meters, high: Meters) in low <= 0 && high >= 0 ? 0 : min(abs(low), abs(high)) }
        for start in sorted.indices {
            end = max(end, start)
            while end + 1 < sorted.count, sorted[end + 1] - sorted[start] <= longestSpan { end += 1 }
            let count = end - start + 1
            let (low, high) = (sorted[start], sorted[end])
            if let current = best,
                count < current.count || (count == current.count && nearer(low, high) >= nearer(current.low, current.high))
            {
                continue
            }
            best = (count, low, high)
        }
        guard let best, best.count >= fewestStands else { return nil }
        return (best.low, best.high, best.count)
    }

    /// Where `fixes` (in time order) stood: the mean of each run of good fixes that stays within
    /// `standRadius` of its first for at least `shortestStand`.
    ///
    /// - Complexity: O(n) for n fixes.
    public static func stands(in fixes: [Location]) -> [Coordinate] {
        var stands: [Coordinate] = []
        var run: [Location] = []
        let close = {
            guard let first = run.first, let last = run.last, run.count >= 2,
                last.timestamp.seconds(since: first.timestamp) >= shortestStand
            else { return }
            let count = Double(run.count)
            stands.append(
                Coordinate(
                    latitude: run.reduce(0) { $0 + $1.coordinate.latitude } / count,
                    longitude: run.reduce(0) { $0 + $1.coordinate.longitude } / count))
        }
        for fix in fixes where fix.coordinate.isValid && (fix.horizontalAccuracy ?? 0) <= worstAccuracy {
            if let first = run.first, fix.coordinate.distance(to: first.coordinate) <= standRadius {
                run.append(fix)
            } else {
                close()
                run = [fix]
            }
        }
        close()
        return stands
    }

    /// The station of railway `railway` that `stand` is given to, one of `stops`, and the
    /// stand's offset from its point along the track.
    private func place(_ stand: Coordinate, railway: Int, stops: Set<String>) -> (station: Int, offset: Meters)? {
        let line = network.railways[railway]
        guard let along = line.track.polyline.projection(of: stand, within: Self.farthestAcross)?.alongTrack else {
            return nil
        }
        let positions = network.stationPositions(of: line)
        let offset = { (index: Int) in network.offsetFromPoint(railway: railway, station: index, position: along) }
        guard let nearest = positions.indices.min(by: { abs(offset($0)) < abs(offset($1)) }),
            abs(offset(nearest)) <= Self.reach, stops.contains(line.stationIDs[nearest])
        else { return nil }
        let neighbours = [nearest - 1, nearest + 1].filter(positions.indices.contains).map {
            abs(positions[$0] - positions[nearest])
        }
        if let gap = neighbours.min(), abs(offset(nearest)) > Self.neighbourShare * gap { return nil }
        return (nearest, offset(nearest))
    }
}
