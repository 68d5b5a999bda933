/// The focus rule: which station a rider is told about at a position along the track, and in
/// which phase (`now` within 200 m, `soon` within 500 m before the next station ahead, `next`
/// beyond). The tracker answers by it and the simulator's ground truth is written by it, so
/// the two can never disagree on the rule itself.
package struct FocusRule: Sendable {
    /// A station this near is `now`. Set by hand on 2026-11-22 to the published algorithm's
    /// visiting radius (`EkiParameters.visitingRadius`); not tuned.
    package static let nowRadius: Meters = 200
    /// The next station ahead this near is `soon`. Set by hand on 2026-11-22 to the published
    /// algorithm's approaching radius (`EkiParameters.approachingRadius`); not tuned.
    package static let soonDistance: Meters = 500

    /// (station id, along-track position) in line order.
    package let stations: [(id: String, position: Meters)]
    package let walk: TrackWalk

    package init(stations: [(id: String, position: Meters)], walk: TrackWalk) {
        self.stations = stations
        self.walk = walk
    }

    /// The focus at `position`, or `nil` when no station lies ahead (past the last).
    package func focus(at position: Meters) -> (station: String, phase: FocusPhase)? {
        guard let focus = Self.focus(positions: stations.map(\.position), walk: walk, at: position), !focus.pastTheEnd
        else { return nil }
        return (stations[focus.station].id, focus.phase)
    }

    /// The rule itself, over along-track station positions: the nearest station within 200 m
    /// is `now`; else the next station ahead is `soon` within 500 m and `next` beyond. Past
    /// the last station the nearest is `now`, with `pastTheEnd` set; `nil` without stations.
    ///
    /// `inTrackOrder` says the positions never decrease (`RailwayNetwork.stationsInTrackOrder`):
    /// off a loop, the two stations either side of `along` then decide, found by binary search,
    /// with the same answer as the scan.
    ///
    /// - Complexity: O(log n) in the number of stations in track order off a loop, else O(n).
    package static func focus(positions: [Meters], inTrackOrder: Bool = false, walk: TrackWalk, at along: Meters) -> (
        station: Int, phase: FocusPhase, pastTheEnd: Bool
    )? {
        guard !positions.isEmpty else { return nil }
        if inTrackOrder, !walk.isLoop, along.isFinite {
            return focusInOrder(positions: positions, ahead: walk.sign > 0, at: along)
        }
        var nearest = (station: 0, separation: Double.infinity)
        var next = (station: -1, ahead: Double.infinity)
        for (index, position) in positions.enumerated() {
            let separation = walk.separation(along, position)
            if separation < nearest.separation { nearest = (index, separation) }
            let ahead = walk.distanceAhead(from: along, to: position)
            if ahead > 0, ahead < next.ahead { next = (index, ahead) }
        }
        if nearest.separation <= nowRadius { return (nearest.station, .now, false) }
        guard next.station >= 0 else { return (nearest.station, .now, true) }
        return (next.station, next.ahead <= soonDistance ? .soon : .next, false)
    }

    /// The rule over positions that never decrease, off a loop, at a finite `along`, towards
    /// larger positions if `ahead`: as the scan, the first of equal stations wins.
    private static func focusInOrder(positions: [Meters], ahead: Bool, at along: Meters) -> (
        station: Int, phase: FocusPhase, pastTheEnd: Bool
    ) {
        let above = firstIndex(in: positions) { $0 >= along }  // the first at or past `along`
        let below = above > 0 ? firstIndex(in: positions) { $0 >= positions[above - 1] } : -1
        var nearest = (station: 0, separation: Double.infinity)
        if below >= 0 { nearest = (below, along - positions[below]) }
        if above < positions.count, positions[above] - along < nearest.separation {
            nearest = (above, positions[above] - along)
        }
        if nearest.separation <= nowRadius { return (nearest.station, .now, false) }
        // The next station ahead: the first beyond `along` going up, the last short of it going down.
        let next =
            ahead
            ? firstIndex(in: positions) { $0 > along } : (above > 0 ? below : positions.count)
        guard next < positions.count else { return (nearest.station, .now, true) }
        return (next, abs(positions[next] - along) <= soonDistance ? .soon : .next, false)
    }

    /// The first index whose position satisfies `isAtOrPast` (which holds from some index on),
    /// or `positions.count`.
    private static func firstIndex(in positions: [Meters], where isAtOrPast: (Meters) -> Bool) -> Int {
        var (low, high) = (0, positions.count)
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(positions[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
