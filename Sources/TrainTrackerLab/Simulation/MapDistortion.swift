import RealModule
import TrainTrackerCore

/// A model of how a drawn map differs from the track trains really run on: each railway's
/// real track lies a smooth lateral offset away from its drawn one, and now and then on the
/// far side of a parallel neighbour (the map draws the two lines in the wrong order).
///
/// The simulator runs its trains on the real track and gives the tracker the drawn one.
/// The same seed gives every railway the same offsets in every ride, as a real map's errors
/// are the same each time.
///
/// - The offset is `base + swing · sin(2π s / wavelength + phase)` of the along-track position
///   `s`, kept within `offset` on one side of the drawn line.
/// - With `swapProbability`, where another line's drawn track runs within `neighbourReach`
///   (and not on top of it, `sharedTrack`), the real track lies `beyond` metres past it instead;
///   the two offsets are blended over `blendLength` so the real track stays smooth.
public struct MapDistortion: Hashable, Sendable {
    /// The size of the lateral offset, either side.
    public var offset: ClosedRange<Meters> = 5...40
    /// The wavelength of its swing along the track.
    public var wavelength: ClosedRange<Meters> = 3_000...12_000
    /// The share of railways drawn on the wrong side of a parallel neighbour.
    public var swapProbability = 0.3
    /// How near a neighbour's drawn track must run to be swapped with.
    public var neighbourReach: Meters = 60
    /// Nearer than this, two lines are drawn on one track: no order to swap.
    public var sharedTrack: Meters = 4
    /// How far past the neighbour the real track of a swapped line lies.
    public var beyond: Meters = 8
    /// Over how much track the offset changes between the swapped and the plain offset.
    public var blendLength: Meters = 600
    /// How often along the track the neighbours are looked for.
    public var sampleSpacing: Meters = 50
    /// The seed of every railway's offsets.
    public var seed: UInt64

    /// `sampleSpacing`, at least a metre.
    private var spacing: Meters { max(sampleSpacing, 1) }

    /// The model with the documented defaults.
    public init(seed: UInt64) { self.seed = seed }

    /// The real track of `railway` of `network`, and a function taking a position along the
    /// drawn track to the same place along the real one.
    ///
    /// - Complexity: O(n + (L / sampleSpacing) · R log V) for n vertices, length L and the
    ///   R railways of the network.
    public func realTrack(of railway: Railway, in network: RailwayNetwork) -> (track: Track, along: @Sendable (Meters) -> Meters)
    {
        let drawn = railway.track.polyline
        let coordinates = drawn.coordinates
        let lengths = drawn.cumulativeLengths
        guard coordinates.count >= 2, drawn.length > 0 else { return (railway.track, { $0 }) }
        var generator = SeededGenerator(seed: seed ^ Self.stableHash(railway.id))
        let plain = plainOffset(generator: &generator)
        let swapped = Double.random(in: 0..<1, using: &generator) < swapProbability
        let samples = swapped ? swappedOffsets(of: railway, in: network, plain: plain) : []
        let offsetAt = { (along: Meters) -> Meters in
            guard !samples.isEmpty else { return plain(along) }
            let position = min(max(along / spacing, 0), Double(samples.count - 1))
            let low = Int(position.rounded(.down))
            let high = min(low + 1, samples.count - 1)
            let fraction = position - Double(low)
            return samples[low] * (1 - fraction) + samples[high] * fraction
        }
        var moved: [Coordinate] = []
        moved.reserveCapacity(coordinates.count)
        for index in coordinates.indices {
            let projection = LocalProjection(origin: coordinates[index])
            let before = projection.vector(to: coordinates[max(index - 1, 0)])
            let after = projection.vector(to: coordinates[min(index + 1, coordinates.count - 1)])
            guard let along = (after - before).normalized else {
                moved.append(coordinates[index])
                continue
            }
            let left = PlanarVector(east: -along.north, north: along.east)
            moved.append(projection.coordinate(at: left * offsetAt(lengths[index])))
        }
        let real = Polyline(moved)
        // The vertices correspond one to one unless two fell together: then the drawn track stays.
        guard real.coordinates.count == coordinates.count else { return (railway.track, { $0 }) }
        let track = Track(polyline: real, undergroundEdges: railway.track.undergroundEdges)
        let realLengths = real.cumulativeLengths
        return (
            track,
            { along in
                let edge = drawn.edge(atAlongTrack: along)
                let span = lengths[edge + 1] - lengths[edge]
                let fraction = span > 0 ? (along - lengths[edge]) / span : 0
                return realLengths[edge] + (realLengths[edge + 1] - realLengths[edge]) * fraction
            }
        )
    }

    /// The plain offset: one side, a base and a swing within `offset`.
    private func plainOffset(generator: inout SeededGenerator) -> @Sendable (Meters) -> Meters {
        let side: Double = Bool.random(using: &generator) ? 1 : -1
        let base = Double.random(in: offset.lowerBound...offset.upperBound, using: &generator)
        let room = min(base - offset.lowerBound, offset.upperBound - base)
        let swing = Double.random(in: 0...max(room, 0), using: &generator)
        let length = Double.random(in: wavelength, using: &generator)
        let phase = Double.random(in: 0..<(2 * .pi), using: &generator)
        return { along in side * (base + swing * Double.sin(2 * .pi * along / length + phase)) }
    }

    /// Offsets every `sampleSpacing` metres that put the real track past the nearest parallel
    /// neighbour where there is one, blended into the plain offset elsewhere.
    private func swappedOffsets(of railway: Railway, in network: RailwayNetwork, plain: (Meters) -> Meters) -> [Meters] {
        let polyline = railway.track.polyline
        // (Bounded: a sampling of zero metres or a continental track cannot trap.)
        let count = Int(flooring: polyline.length / spacing, within: 0...1_000_000) + 1
        var targets: [Meters?] = []
        targets.reserveCapacity(count)
        for sample in 0..<count {
            let along = Double(sample) * spacing
            let (point, course) = polyline.point(atAlongTrack: along)
            let projection = LocalProjection(origin: point)
            let left = PlanarVector(course: course - 90)
            var nearest: (distance: Meters, side: Meters)?
            for other in network.railways where other.id != railway.id {
                guard let place = other.track.polyline.projection(of: point, within: neighbourReach),
                    place.distance >= sharedTrack, nearest.map({ place.distance < $0.distance }) ?? true
                else { continue }
                nearest = (place.distance, projection.vector(to: place.coordinate).dot(left))
            }
            targets.append(nearest.map { $0.side + ($0.side >= 0 ? beyond : -beyond) })
        }
        // Blend: a moving average over `blendLength` of the target where there is one, the plain offset elsewhere.
        let raw = targets.enumerated().map { $0.element ?? plain(Double($0.offset) * spacing) }
        let half = max(1, Int(flooring: blendLength / spacing / 2, within: 0...1_000_000))
        var prefix = [0.0]
        for value in raw { prefix.append(prefix[prefix.count - 1] + value) }
        return raw.indices.map { index in
            let low = max(0, index - half)
            let high = min(raw.count, index + half + 1)
            return (prefix[high] - prefix[low]) / Double(high - low)
        }
    }

    /// FNV-1a of the UTF-8 bytes: the same on every run and machine (unlike `hashValue`).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
