import RealModule

/// A WGS-84 position in degrees.
public struct Coordinate: Hashable, Sendable, Codable {
    /// Degrees north of the equator, -90 ... 90.
    public var latitude: Degrees
    /// Degrees east of Greenwich, -180 ... 180.
    public var longitude: Degrees

    /// Creates a coordinate from latitude and longitude in degrees.
    public init(latitude: Degrees, longitude: Degrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and inside the WGS-84 ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// The great-circle distance to `other` (haversine on the mean Earth sphere).
    ///
    ///     Coordinate(latitude: 35.681, longitude: 139.767).distance(to: Coordinate(latitude: 35.690, longitude: 139.700))
    ///     // ≈ 6,100 m (Tokyo to Shinjuku)
    ///
    /// - Complexity: O(1).
    public func distance(to other: Coordinate) -> Meters {
        let lat1 = latitude * .radiansPerDegree
        let lat2 = other.latitude * .radiansPerDegree
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * .radiansPerDegree
        let sinLat = Double.sin(dLat / 2)
        let sinLon = Double.sin(dLon / 2)
        let h = sinLat * sinLat + Double.cos(lat1) * Double.cos(lat2) * sinLon * sinLon
        return 2 * .earthRadius * Double.asin(min(1, h.squareRoot()))
    }

    /// The initial bearing towards `other`, degrees clockwise from true north in 0 ..< 360.
    ///
    /// - Complexity: O(1).
    public func bearing(to other: Coordinate) -> Degrees {
        let lat1 = latitude * .radiansPerDegree
        let lat2 = other.latitude * .radiansPerDegree
        let dLon = (other.longitude - longitude) * .radiansPerDegree
        let y = Double.sin(dLon) * Double.cos(lat2)
        let x = Double.cos(lat1) * Double.sin(lat2) - Double.sin(lat1) * Double.cos(lat2) * Double.cos(dLon)
        let degrees = Double.atan2(y: y, x: x) / .radiansPerDegree
        return degrees < 0 ? degrees + 360 : degrees
    }
}

extension Double {
    /// The mean Earth radius (IUGG), in metres.
    static let earthRadius: Meters = 6_371_008.8
    /// π / 180.
    static let radiansPerDegree = Double.pi / 180
    /// Metres along a meridian per degree of latitude on the mean sphere.
    static let metersPerDegree: Meters = earthRadius * radiansPerDegree
}
