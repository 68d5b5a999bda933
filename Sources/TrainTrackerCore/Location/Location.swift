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
