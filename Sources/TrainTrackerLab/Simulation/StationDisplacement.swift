import RealModule
import TrainTrackerCore

/// A model of where trains really stop against the map's station points: open station
/// coordinates lie a median 48 m and up to 250 m from where trains stand on long platforms
/// (real phones on shared track, issue 59). Each station's trains stop `offset` along the
/// track from its point, on a side drawn at random; the tracker is given the points.
///
/// The same seed gives every station the same displacement in every ride, as a real map's
/// errors are the same each time.
public struct StationDisplacement: Hashable, Sendable {
    /// How far along the track from the station point trains stop (drawn log-uniformly, so
    /// that short displacements are as common as long ones by ratio).
    public var offset: ClosedRange<Meters> = 20...250
    /// The most of the distance to a neighbouring station a displacement may take, so that
    /// stations keep their order.
    public var neighbourShare = 0.4
    /// The seed of every station's displacement.
    public var seed: UInt64

    /// The model with the documented defaults.
    public init(seed: UInt64) { self.seed = seed }

    /// Where trains stop at each of the stations `places` name (a station's name, so that one
    /// place served by several railways moves by the same distance along each), whose points lie at `positions`
    /// along a track of `length` metres (in the same order).
    ///
    /// - Complexity: O(n) for n stations.
    public func stoppingPlaces(of places: [String], at positions: [Meters], length: Meters) -> [Meters] {
        positions.indices.map { index in
            var generator = SeededGenerator(seed: seed ^ MapDistortion.stableHash(places[index]))
            let low = Double.log(max(offset.lowerBound, 1))
            let high = Double.log(max(offset.upperBound, offset.lowerBound, 1))
            var size = Double.exp(Double.random(in: low...high, using: &generator))
            let neighbours = [index - 1, index + 1].filter(positions.indices.contains).map {
                abs(positions[$0] - positions[index])
            }
            if let nearest = neighbours.min() { size = min(size, neighbourShare * nearest) }
            let signed = Bool.random(using: &generator) ? size : -size
            return min(max(positions[index] + signed, 0), max(length, 0))
        }
    }
}
