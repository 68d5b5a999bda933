/// One position fix from the phone, as Core Location reports it.
public struct Location: Hashable, Sendable {
    /// Where the phone was.
    public var coordinate: Coordinate
    /// When the fix was taken.
    public var timestamp: Timestamp
    /// The radius of uncertainty, or `nil` when unknown.
    public var horizontalAccuracy: Meters?
    /// Ground speed, or `nil` when the phone had no valid value.
    public var speed: MetersPerSecond?
    /// Direction of travel, degrees clockwise from true north, or `nil` when unknown.
    public var course: Degrees?
    /// Altitude above sea level, or `nil` when unknown.
    public var altitude: Meters?

    /// Creates a fix. Negative `speed` and `course` (Core Location's "invalid") become `nil`.
    public init(
        coordinate: Coordinate,
        timestamp: Timestamp,
        horizontalAccuracy: Meters? = nil,
        speed: MetersPerSecond? = nil,
        course: Degrees? = nil,
        altitude: Meters? = nil
    ) {
        self.coordinate = coordinate
        self.timestamp = timestamp
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
        self.course = course.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The unit vector of the course, or `nil` without a course.
    public var courseVector: PlanarVector? { course.map(PlanarVector.init(course:)) }
}

extension Location: Codable {
    private enum CodingKeys: String, CodingKey {
        case coordinate, timestamp, horizontalAccuracy, speed, course, altitude
    }

    /// Decodes a fix saved with `encode(to:)`; like `init(coordinate:timestamp:...)`, a
    /// negative or non-finite speed or course becomes `nil` (a saved file is outside input).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            coordinate: try container.decode(Coordinate.self, forKey: .coordinate),
            timestamp: try container.decode(Timestamp.self, forKey: .timestamp),
            horizontalAccuracy: try container.decodeIfPresent(Double.self, forKey: .horizontalAccuracy),
            speed: try container.decodeIfPresent(Double.self, forKey: .speed),
            course: try container.decodeIfPresent(Double.self, forKey: .course),
            altitude: try container.decodeIfPresent(Double.self, forKey: .altitude))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(coordinate, forKey: .coordinate)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(horizontalAccuracy, forKey: .horizontalAccuracy)
        try container.encodeIfPresent(speed, forKey: .speed)
        try container.encodeIfPresent(course, forKey: .course)
        try container.encodeIfPresent(altitude, forKey: .altitude)
    }
}
