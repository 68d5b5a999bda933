import RealModule

/// A vector in a local metric plane: `east` and `north` in metres.
public struct PlanarVector: Hashable, Sendable {
    /// Metres towards east.
    public var east: Meters
    /// Metres towards north.
    public var north: Meters

    /// Creates a vector from its east and north components.
    public init(east: Meters, north: Meters) {
        self.east = east
        self.north = north
    }

    /// The unit vector pointing along a course (degrees clockwise from true north).
    public init(course: Degrees) {
        let radians = course * .radiansPerDegree
        self.init(east: Double.sin(radians), north: Double.cos(radians))
    }

    /// The vector's length.
    public var length: Meters { (east * east + north * north).squareRoot() }

    /// The vector scaled to length 1, or `nil` for the zero vector.
    public var normalized: PlanarVector? {
        let length = self.length
        guard length > 0 else { return nil }
        return PlanarVector(east: east / length, north: north / length)
    }

    /// The dot product with `other`.
    public func dot(_ other: PlanarVector) -> Double { east * other.east + north * other.north }

    /// The course this vector points along, degrees clockwise from north in 0 ..< 360.
    public var course: Degrees {
        let degrees = Double.atan2(y: east, x: north) / .radiansPerDegree
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Component-wise difference.
    public static func - (lhs: PlanarVector, rhs: PlanarVector) -> PlanarVector {
        PlanarVector(east: lhs.east - rhs.east, north: lhs.north - rhs.north)
    }

    /// Component-wise sum.
    public static func + (lhs: PlanarVector, rhs: PlanarVector) -> PlanarVector {
        PlanarVector(east: lhs.east + rhs.east, north: lhs.north + rhs.north)
    }

    /// The vector scaled by `factor`.
    public static func * (lhs: PlanarVector, factor: Double) -> PlanarVector {
        PlanarVector(east: lhs.east * factor, north: lhs.north * factor)
    }
}
