/// A distance in metres.
public typealias Meters = Double

/// A speed in metres per second.
public typealias MetersPerSecond = Double

/// An angle or a latitude/longitude in degrees.
public typealias Degrees = Double

/// A time interval in seconds.
public typealias Seconds = Double

/// A weight of evidence in nats: the natural logarithm of a likelihood ratio. A hypothesis's
/// score is a sum of them; 1 nat is a factor of e (about 2.7), 14 nats about a million.
public typealias Nats = Double
