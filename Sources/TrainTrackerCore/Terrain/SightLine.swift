import RealModule

/// A named summit.
public struct Peak: Hashable, Sendable {
    /// Its name, as the peaks file gives it.
    public var name: String
    /// Where its summit is.
    public var coordinate: Coordinate
    /// Its elevation, metres (from the peaks file, else the terrain).
    public var elevation: Meters

    /// A peak.
    public init(name: String, coordinate: Coordinate, elevation: Meters) {
        self.name = name
        self.coordinate = coordinate
        self.elevation = elevation
    }
}

/// Where a sight line meets the ground, and what is there.
public struct SightResult: Hashable, Sendable {
    /// The point looked at.
    public var hit: Coordinate
    /// The ground elevation there, metres above sea level.
    public var elevation: Meters
    /// Metres along the ground from the observer.
    public var distance: Meters
    /// True when the line never met the ground and the answer is the highest point in view.
    public var fallback: Bool
    /// True when the line left the elevation data before meeting the ground.
    public var leftCoverage: Bool
    /// The peak nearest the hit, if one is near.
    public var peak: Peak?
    /// How far off the line of sight that peak lies, degrees.
    public var peakOffsetDegrees: Degrees?
}

/// What the camera looks along: position, heading, pitch, and where in the view was tapped.
public struct SightQuery: Hashable, Sendable {
    /// Where the observer stands.
    public var observer: Coordinate
    /// Eye altitude above sea level; nil: ground elevation plus `eyeHeight`.
    public var altitude: Meters?
    /// The eye's height above the ground, when `altitude` is nil.
    /// Set by hand on 2026-11-22: a standing person's eye; not measured.
    public var eyeHeight: Meters = 1.6
    /// Degrees clockwise from true north.
    public var heading: Degrees
    /// Degrees up from the horizontal (−90 ... 90).
    public var pitch: Degrees
    /// A tap in the camera view, 0 ... 1 from the left and from the top; the centre when nil.
    public var tap: Tap?
    /// The view's horizontal field of view.
    public var fieldOfView: Degrees = 60
    /// The view's width over its height.
    public var aspectRatio = 4.0 / 3.0
    /// The march step along the line, metres.
    /// Set by hand on 2026-11-22; the reason for 10 m is not recorded.
    public var step: Meters = 10
    /// The farthest the line is followed, metres.
    /// Set by hand on 2026-11-22; the reason for 50 km is not recorded.
    public var maximumDistance: Meters = 50_000
    /// Atmospheric refraction coefficient k: over the curved earth the line rises by
    /// (1 − k)·d²/(2R) at distance d; 0 turns the earth model off (the flat model of the
    /// original app).
    /// Set by hand on 2026-11-22 to the usual coefficient of terrestrial refraction; not measured
    /// here.
    public var refraction = 0.13

    /// A query looking along `heading` at `pitch` from `observer`.
    public init(observer: Coordinate, altitude: Meters? = nil, heading: Degrees, pitch: Degrees) {
        self.observer = observer
        self.altitude = altitude
        self.heading = heading
        self.pitch = pitch
    }

    /// Where in the camera view the user tapped: 0 ... 1 from the left and from the top.
    public struct Tap: Hashable, Sendable {
        /// 0 at the left edge, 1 at the right.
        public var x: Double
        /// 0 at the top edge, 1 at the bottom.
        public var y: Double

        /// A tap at (`x`, `y`).
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The farthest a sight line is followed: 1,000 km, beyond any view on Earth.
    public static let farthestDistance: Meters = 1_000_000

    /// Throws for a number no camera gives: a heading that is not finite, a pitch outside
    /// −90 ... 90, an altitude outside `DomainRange.altitude`, a tap outside the view, a field
    /// of view outside 1 ... 179°, an aspect ratio outside 0.1 ... 10, a step that is not
    /// positive or a distance beyond `farthestDistance`.
    public func check() throws(TerrainError) {
        func require(_ holds: Bool, _ name: String, _ problem: String) throws(TerrainError) {
            guard holds else { throw .badArgument(name: name, problem: problem) }
        }
        try require(observer.isValid, "observer", "is not a position")
        try require(heading.isFinite, "heading", "must be a finite number of degrees")
        try require((-90...90).contains(pitch), "pitch", "must be −90 to 90 degrees")
        if let altitude { try require(altitude.within(DomainRange.altitude) != nil, "altitude", "must be −12,000 to 100,000 m") }
        try require((0...10).contains(eyeHeight), "eye height", "must be 0 to 10 m")
        if let tap { try require((0...1).contains(tap.x) && (0...1).contains(tap.y), "tap", "must be 0 to 1 across and down") }
        try require((1...179).contains(fieldOfView), "field of view", "must be 1 to 179 degrees")
        try require((0.1...10).contains(aspectRatio), "aspect ratio", "must be 0.1 to 10")
        try require((-1...1).contains(refraction), "refraction", "must be −1 to 1")
        try require(
            step > 0 && step.isFinite && maximumDistance > step && maximumDistance <= Self.farthestDistance, "step",
            "and the maximum distance must be positive, the distance larger and at most 1,000 km")
    }

    /// How much a line rises over the curved earth per metre² of distance: (1 − k) / 2R, or 0
    /// for the flat model (`refraction` 0).
    var curvature: Double { refraction == 0 ? 0 : (1 - refraction) / (2 * .earthRadius) }

    /// Heading and pitch of the tapped point: the tap's offset from the view's centre, through
    /// the lens (a pinhole camera with the given field of view and aspect ratio).
    public var direction: (heading: Degrees, pitch: Degrees) {
        guard let tap else { return (heading, pitch) }
        let halfWidth = Double.tan(fieldOfView / 2 * .radiansPerDegree)
        let halfHeight = halfWidth / aspectRatio
        let across = Double.atan((2 * tap.x - 1) * halfWidth) / .radiansPerDegree
        let up = Double.atan((1 - 2 * tap.y) * halfHeight) / .radiansPerDegree
        var newHeading = (heading + across).truncatingRemainder(dividingBy: 360)
        if newHeading < 0 { newHeading += 360 }
        return (newHeading, max(-90, min(90, pitch + up)))
    }
}

/// Finds the point on the ground a camera looks at: marches along the line of sight over
/// the terrain until it passes below the ground, refines the crossing, and names the peak.
///
/// - Complexity: O(d / step) elevation lookups, asked in batches of 512.
public enum SightLine {
    /// Points asked of the provider at once.
    public static let batch = 512

    /// The point looked at.
    ///
    /// - Throws: `TerrainError.badArgument` for a query outside the ranges `SightQuery.check()`
    ///   names, or an observer with no terrain under it (and no altitude).
    public static func resolve(_ query: SightQuery, terrain: any ElevationProvider, peaks: [Peak] = []) throws -> SightResult {
        try query.check()
        let ground = try terrain.elevations(at: [query.observer])[0]
        guard let eye = query.altitude ?? ground.map({ $0 + query.eyeHeight }) else {
            throw TerrainError.badArgument(
                name: "observer", problem: "has no elevation data under it (add the tile, or give the altitude)")
        }
        let (heading, pitch) = query.direction
        let slope = Double.tan(pitch * .radiansPerDegree)
        let curvature = query.curvature
        // Heights are above the curved sea level: a straight line rises over the earth as it
        // curves away, less what refraction bends it down.
        func rayHeight(_ distance: Meters) -> Meters { eye + distance * slope + curvature * distance * distance }
        func point(_ distance: Meters) -> Coordinate { query.observer.destination(distance: distance, bearing: heading) }

        var previousDistance: Meters = 0
        var best: (distance: Meters, angle: Double, elevation: Meters)?
        var leftCoverage = false
        var distance = query.step
        marching: while distance <= query.maximumDistance {
            let distances = (0..<batch).map { distance + Double($0) * query.step }.filter { $0 <= query.maximumDistance }
            let elevations = try terrain.elevations(at: distances.map(point))
            for (d, elevation) in zip(distances, elevations) {
                guard let elevation else {
                    leftCoverage = true
                    break marching
                }
                let above = rayHeight(d) - elevation
                // Apparent elevation angle of the ground here, for the fallback.
                let angle = (elevation - eye - curvature * d * d) / d
                if best.map({ angle > $0.angle }) ?? true { best = (d, angle, elevation) }
                if above <= 0 {
                    // Crossed between the previous sample and this one: bisect.
                    var low = previousDistance
                    var high = d
                    var hitElevation = elevation
                    for _ in 0..<12 {
                        let middle = (low + high) / 2
                        guard let middleElevation = try terrain.elevations(at: [point(middle)])[0] else { break }
                        if rayHeight(middle) - middleElevation > 0 {
                            low = middle
                        } else {
                            high = middle
                            hitElevation = middleElevation
                        }
                    }
                    return finish(
                        query, heading: heading, pitch: pitch, eye: eye, hit: point(high), elevation: hitElevation,
                        distance: high, fallback: false, leftCoverage: false, peaks: peaks)
                }
                previousDistance = d
            }
            distance += Double(batch) * query.step
        }
        guard let best else {
            throw TerrainError.badArgument(name: "heading", problem: "leads straight out of the elevation data")
        }
        return finish(
            query, heading: heading, pitch: pitch, eye: eye, hit: point(best.distance), elevation: best.elevation,
            distance: best.distance, fallback: true, leftCoverage: leftCoverage, peaks: peaks)
    }

    private static func finish(
        _ query: SightQuery, heading: Degrees, pitch: Degrees, eye: Meters, hit: Coordinate, elevation: Meters, distance: Meters,
        fallback: Bool, leftCoverage: Bool, peaks: [Peak]
    ) -> SightResult {
        var result = SightResult(
            hit: hit, elevation: elevation, distance: distance, fallback: fallback, leftCoverage: leftCoverage, peak: nil,
            peakOffsetDegrees: nil)
        // The peak nearest the hit, if it is near: within 500 m, or 5 % of the distance (a summit
        // seen from far away is hit somewhere on its upper slopes). A peak the line points at
        // but never reaches (hidden behind a nearer ridge) is not near.
        // (A peak under the observer's feet has no direction: it is not named.)
        let near = peaks.map { ($0, $0.coordinate.distance(to: hit)) }.filter {
            $0.1 <= max(500, 0.05 * distance) && query.observer.distance(to: $0.0.coordinate) > 0
        }
        guard let (peak, _) = near.min(by: { $0.1 < $1.1 }) else { return result }
        let range = query.observer.distance(to: peak.coordinate)
        let azimuth = query.observer.bearing(to: peak.coordinate)
        let elevationAngle = Double.atan((peak.elevation - eye - query.curvature * range * range) / range) / .radiansPerDegree
        result.peak = peak
        result.peakOffsetDegrees = angularDistance(heading: heading, pitch: pitch, toHeading: azimuth, pitch: elevationAngle)
        return result
    }

    /// The angle between two directions given as heading and pitch, degrees.
    static func angularDistance(heading a: Degrees, pitch b: Degrees, toHeading c: Degrees, pitch d: Degrees) -> Degrees {
        let (h1, p1, h2, p2) = (a * .radiansPerDegree, b * .radiansPerDegree, c * .radiansPerDegree, d * .radiansPerDegree)
        let cosine = Double.sin(p1) * Double.sin(p2) + Double.cos(p1) * Double.cos(p2) * Double.cos(h1 - h2)
        return Double.acos(max(-1, min(1, cosine))) / .radiansPerDegree
    }
}

extension Coordinate {
    /// The point `distance` metres away along the great circle leaving at `bearing`.
    public func destination(distance: Meters, bearing: Degrees) -> Coordinate {
        let angular = distance / .earthRadius
        let theta = bearing * .radiansPerDegree
        let lat1 = latitude * .radiansPerDegree
        let lon1 = longitude * .radiansPerDegree
        let lat2 = Double.asin(
            Double.sin(lat1) * Double.cos(angular) + Double.cos(lat1) * Double.sin(angular) * Double.cos(theta))
        let lon2 =
            lon1
            + Double.atan2(
                y: Double.sin(theta) * Double.sin(angular) * Double.cos(lat1),
                x: Double.cos(angular) - Double.sin(lat1) * Double.sin(lat2))
        return Coordinate(latitude: lat2 / .radiansPerDegree, longitude: lon2 / .radiansPerDegree)
    }
}
