/// Where trains stand at one station of one railway, learnt from recordings: the span along the
/// railway's track, measured from the station's point, over which recorded trains stood.
///
/// Open station coordinates lie a median 48 m and up to 250 m from where trains stand on long
/// platforms (real phones on shared track, issue 59). A stop is matched to a station by how
/// far it lies from where trains stand (`RailwayNetwork.beyondPlatform`): within
/// `StopEvidence.stationReach` of its point where nothing was learnt, within
/// `StopEvidence.learntReach` of the learnt span where something was.
///
///     LearntPlatform(railwayID: "JR-East.Tokaido", stationID: "JR-East.Tokaido.Kawasaki",
///                    offsets: -40...180, stands: 7)
public struct LearntPlatform: Hashable, Sendable, Codable {
    /// The railway whose track the offsets are measured along.
    public var railwayID: String
    /// The station.
    public var stationID: String
    /// Where trains stood, in metres along the railway's track from the station's point
    /// (positive: towards the railway's later stations).
    public var offsets: ClosedRange<Meters>
    /// How many stands the span was learnt from.
    public var stands: Int

    /// The farthest a learnt stand may lie from its station's point: 2 km, beyond any platform.
    public static let largestOffset: Meters = 2_000
    /// The widest span a network takes: 600 m, half as long again as the longest platforms
    /// (400 m); a wider one mixes a platform with a signal short of it.
    public static let widestSpan: Meters = 600

    /// Creates a learnt platform.
    public init(railwayID: String, stationID: String, offsets: ClosedRange<Meters>, stands: Int) {
        self.railwayID = railwayID
        self.stationID = stationID
        self.offsets = offsets
        self.stands = stands
    }

    /// Whether the span is finite and within `largestOffset` of the station's point, and the
    /// count not negative: what a file read from outside must hold.
    public var isPlausible: Bool {
        offsets.lowerBound.isFinite && offsets.upperBound.isFinite && offsets.lowerBound >= -Self.largestOffset
            && offsets.upperBound <= Self.largestOffset && stands >= 0
    }
}

extension RailwayNetwork {
    /// The network with trains standing where `platforms` say, and those it could not place
    /// (a railway or station it does not have, the station not on the railway, an implausible
    /// span, one wider than `LearntPlatform.widestSpan`, or on a loop one reaching half way
    /// round less `CrossingEvidence.judgedBehind`). A platform given twice takes the later one.
    ///
    /// - Complexity: O(p · s) for p platforms and s stations a railway.
    public func placing(_ platforms: [LearntPlatform]) -> (network: RailwayNetwork, unplaced: [LearntPlatform]) {
        var network = self
        var unplaced: [LearntPlatform] = []
        for platform in platforms {
            guard platform.isPlausible,
                platform.offsets.upperBound - platform.offsets.lowerBound <= LearntPlatform.widestSpan,
                let railway = railwayIndex(id: platform.railwayID),
                let station = railways[railway].stationIDs.firstIndex(of: platform.stationID),
                !isLoop[railway]
                    || max(-platform.offsets.lowerBound, platform.offsets.upperBound)
                        < trackPolylines[railway].length / 2 - CrossingEvidence.judgedBehind
            else {
                unplaced.append(platform)
                continue
            }
            network.platformOffsets[railway][station] = platform.offsets
        }
        return (network, unplaced)
    }

    /// How far `position` (along railway `railway`'s track) lies beyond the reach of where
    /// trains stand at its `station`-th station: within `learntReach` of a learnt span, else
    /// within `reach` of the station's point; negative inside. The short way round on a loop.
    ///
    /// - Complexity: O(1).
    func beyondPlatform(railway: Int, station: Int, position: Meters, reach: Meters, learntReach: Meters) -> Meters {
        let offset = offsetFromPoint(railway: railway, station: station, position: position)
        guard let span = platformOffsets[railway][station] else { return abs(offset) - reach }
        return min(abs(offset) - reach, max(span.lowerBound - offset, offset - span.upperBound, 0) - learntReach)
    }

    /// How far `position` lies from where trains stand at railway `railway`'s `station`-th
    /// station: from its point, or from its learnt span where that is nearer. Stops go to the
    /// station nearest by this (`beyondPlatform` only says whether within reach).
    ///
    /// - Complexity: O(1).
    func distanceFromPlatform(railway: Int, station: Int, position: Meters) -> Meters {
        let offset = offsetFromPoint(railway: railway, station: station, position: position)
        guard let span = platformOffsets[railway][station] else { return abs(offset) }
        return min(abs(offset), max(span.lowerBound - offset, offset - span.upperBound, 0))
    }

    /// `position` less the station's point along the track, the short way round on a loop.
    package func offsetFromPoint(railway: Int, station: Int, position: Meters) -> Meters {
        let offset = position - stationAlongTrack[railway][station]
        let length = trackPolylines[railway].length
        guard isLoop[railway], length > 0 else { return offset }
        let wrapped = offset.truncatingRemainder(dividingBy: length)
        return wrapped > length / 2 ? wrapped - length : wrapped < -length / 2 ? wrapped + length : wrapped
    }

    /// Where a train running the way `walk` runs has left railway `railway`'s `station`-th
    /// station behind: the end of its learnt platform it reaches last, or its point when that
    /// comes later (a station is never judged sooner than at its point).
    func platformFarEnd(railway: Int, station: Int, walk: TrackWalk) -> Meters {
        let point = stationAlongTrack[railway][station]
        guard let span = platformOffsets[railway][station] else { return point }
        return walk.advance(point, by: max(0, walk.sign > 0 ? span.upperBound : -span.lowerBound))
    }
}
