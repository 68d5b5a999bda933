/// A distance in metres.
public typealias Meters = Double

/// A speed in metres per second.
public typealias MetersPerSecond = Double

/// An angle or a latitude/longitude in degrees.
public typealias Degrees = Double

/// A time interval in seconds.
public typealias Seconds = Double
