import TrainTrackerCore

/// Simulates a phone's fixes on a train moving along a railway's real track: accelerating,
/// cruising, braking into each stop, dwelling, and passing the stations it skips.
///
/// It is deliberately simple (a clean kinematic ride with optional white noise); it
/// builds journeys for tests, demos and benchmarks on real track.
public struct JourneySimulator: Sendable {
    /// How the train moves and how the phone reports it.
    public struct Parameters: Hashable, Sendable {
        /// Seconds between fixes.
        public var interval: Seconds = 1
        /// Acceleration from a stop, m/s².
        public var acceleration = 0.8
        /// Braking into a stop, m/s².
        public var braking = 0.8
        /// Cruise speed.
        public var maximumSpeed: MetersPerSecond = 25
        /// Time stopped at each intermediate stop.
        public var dwell: Seconds = 30
        /// Time at the first station before departure.
        public var initialWait: Seconds = 20
        /// Time at the last station after arrival.
        public var finalWait: Seconds = 20
        /// The horizontal accuracy the phone reports.
        public var reportedAccuracy: Meters = 10
        /// Standard deviation of the position error added to each fix (0: none).
        public var positionNoise: Meters = 0
        /// Standard deviation of the speed error added to each moving fix (0: none).
        public var speedNoise: MetersPerSecond = 0
        /// Seed of the noise.
        public var seed: UInt64 = 1

        /// The default ride: 1 Hz, 0.8 m/s², 90 km/h, 30 s dwell, no noise.
        public init() {}
    }

    /// Why a journey cannot be simulated.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case unknownRailway(String)
        case unknownStation(railway: String, station: String)
        case sameStation(String)

        /// One line saying what is wrong.

        public var description: String {
            switch self {
            case .unknownRailway(let id): "unknown railway '\(id)'"
            case .unknownStation(let railway, let station): "railway '\(railway)' has no station '\(station)'"
            case .sameStation(let id): "a journey needs two different stations, got '\(id)' twice"
            }
        }
    }

    /// The network whose tracks are ridden.
    public let network: RailwayNetwork
    /// The ride and phone parameters.
    public var parameters: Parameters

    /// A simulator over `network`.
    public init(network: RailwayNetwork, parameters: Parameters = Parameters()) {
        self.network = network
        self.parameters = parameters
    }

    /// The fixes of a ride on `railwayID` from station `origin` to station `destination`,
    /// stopping at the stations for which `stopsAt` is true (every station when `nil`),
    /// starting at `start`.
    ///
    ///     let fixes = try simulator.journey(on: "Tokyu.Toyoko", from: "Tokyu.Toyoko.Hiyoshi",
    ///                                       to: "Tokyu.Toyoko.Kikuna", start: Timestamp(secondsSince1970: 0))
    ///
    /// - Throws: `JourneySimulator.Failure` for unknown railways or stations.
    /// - Complexity: O(T / interval · log V) for a ride of T seconds.
    public func journey(
        on railwayID: String, from origin: String, to destination: String,
        stopsAt: ((Station) -> Bool)? = nil, start: Timestamp
    ) throws(Failure) -> [Location] {
        guard let railway = network.railway(id: railwayID) else { throw .unknownRailway(railwayID) }
        let stations = network.stations(of: railway)
        let positions = network.stationPositions(of: railway)
        guard let first = stations.firstIndex(where: { $0.id == origin }) else {
            throw .unknownStation(railway: railwayID, station: origin)
        }
        guard let last = stations.firstIndex(where: { $0.id == destination }) else {
            throw .unknownStation(railway: railwayID, station: destination)
        }
        guard first != last else { throw .sameStation(origin) }
        let step = first < last ? 1 : -1
        let stopPositions =
            stride(from: first + step, to: last, by: step)
            .filter { stopsAt?(stations[$0]) ?? true }
            .map { positions[$0] } + [positions[last]]
        var ride = Ride(parameters: parameters, track: railway.track, forward: positions[last] >= positions[first], start: start)
        ride.wait(parameters.initialWait, at: positions[first])
        for (index, stop) in stopPositions.enumerated() {
            ride.run(to: stop)
            ride.wait(index == stopPositions.count - 1 ? parameters.finalWait : parameters.dwell, at: stop)
        }
        return ride.fixes
    }
}

/// The state of one simulated ride.
private struct Ride {
    let parameters: JourneySimulator.Parameters
    let track: Track
    let forward: Bool
    var clock: Seconds = 0
    var currentPosition: Meters = 0
    var nextFix: Seconds = 0
    var speed: MetersPerSecond = 0
    var fixes: [Location] = []
    var generator: SeededGenerator
    let start: Timestamp

    init(parameters: JourneySimulator.Parameters, track: Track, forward: Bool, start: Timestamp) {
        self.parameters = parameters
        self.track = track
        self.forward = forward
        self.start = start
        generator = SeededGenerator(seed: parameters.seed)
    }

    mutating func wait(_ duration: Seconds, at position: Meters) {
        speed = 0
        currentPosition = position
        let end = clock + duration
        while nextFix <= end {
            emit(at: position)
        }
        clock = end
    }

    /// Accelerate, cruise and brake so that the train stops exactly at `target`.
    mutating func run(to target: Meters, step: Seconds = 0.1) {
        var position = currentPosition
        let start = clock
        var ticks = 0
        while true {
            let remaining = abs(target - position)
            if remaining < 0.01 { break }
            // The speed from which braking at `braking` stops exactly at the target, counting this step's travel.
            let brakeStep = parameters.braking * step
            let brakingLimit = (brakeStep * brakeStep + 2 * parameters.braking * remaining).squareRoot() - brakeStep
            speed = max(0.05, min(parameters.maximumSpeed, speed + parameters.acceleration * step, brakingLimit))
            let advance = min(speed * step, remaining)
            position += forward ? advance : -advance
            ticks += 1
            clock = start + Double(ticks) * step  // counted, so rounding never delays a fix by a step
            currentPosition = position
            while nextFix <= clock + 1e-9 {
                emit(at: position)
            }
        }
        currentPosition = target
        speed = 0
    }

    mutating func emit(at position: Meters) {
        let (coordinate, trackCourse) = track.polyline.point(atAlongTrack: position)
        var reported = coordinate
        if parameters.positionNoise > 0 {
            let projection = LocalProjection(origin: coordinate)
            let offset = PlanarVector(
                east: generator.nextGaussian(standardDeviation: parameters.positionNoise),
                north: generator.nextGaussian(standardDeviation: parameters.positionNoise)
            )
            reported = projection.coordinate(at: offset)
        }
        var reportedSpeed = speed
        if parameters.speedNoise > 0, speed > 0 {
            reportedSpeed = max(0, speed + generator.nextGaussian(standardDeviation: parameters.speedNoise))
        }
        let moving = speed > 0.5
        let course = forward ? trackCourse : (trackCourse + 180).truncatingRemainder(dividingBy: 360)
        fixes.append(
            Location(
                coordinate: reported, timestamp: start.adding(nextFix), horizontalAccuracy: parameters.reportedAccuracy,
                speed: reportedSpeed, course: moving ? course : nil
            )
        )
        nextFix += parameters.interval
    }
}
