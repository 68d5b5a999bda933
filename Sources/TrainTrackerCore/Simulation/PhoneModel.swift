import RealModule

/// How a phone on the train reports its position: the parameters of the simulated GPS.
///
/// - Fixes come every `interval` seconds; each is dropped with `dropProbability`; none come
///   while the track runs underground.
/// - The reported accuracy wanders around `baseAccuracy` (a slow log-normal random walk) and
///   is multiplied by `stationAccuracyFactor` within `stationRadius` of a station.
/// - The horizontal error is a first-order Gauss–Markov process per axis, correlated over
///   `errorCorrelationTime` seconds, with a standard deviation of the reported accuracy
///   divided by `accuracyToSigma`.
/// - While stopped at a big station (`bigStationRailways` or more railways within 300 m), a fix
///   is thrown `farOffDistance` away with `farOffProbability`, reporting either a plausible
///   accuracy or the true error.
/// - Speed carries Gaussian noise `speedNoise`, reads 0 with `falseStopProbability` while
///   moving, and is missing when the reported accuracy exceeds `speedAccuracyLimit`.
/// - Course carries Gaussian noise `courseNoise` and is missing below `courseMinimumSpeed`.
public struct PhoneModel: Hashable, Sendable {
    public var interval: Seconds = 1
    public var dropProbability = 0.03
    public var baseAccuracy: Meters = 8
    public var accuracyVariation = 0.25
    public var stationRadius: Meters = 300
    public var stationAccuracyFactor = 2.5
    public var errorCorrelationTime: Seconds = 10
    public var accuracyToSigma = 1.5
    public var bigStationRailways = 3
    public var farOffProbability = 0.08
    public var farOffDistance: ClosedRange<Meters> = 300...1_500
    public var speedNoise: MetersPerSecond = 0.3
    public var falseStopProbability = 0.01
    public var speedAccuracyLimit: Meters = 50
    public var courseNoise: Degrees = 4
    public var courseMinimumSpeed: MetersPerSecond = 1.4

    /// The documented defaults.
    public init() {}

    /// The phones of the simulator, by name.
    public enum Preset: String, CaseIterable, Hashable, Sendable {
        /// The defaults: a good phone in open sky, one fix a second.
        case good
        /// A poor phone: speeds off by 1.5 m/s, false zeros one fix in twenty, a third of the
        /// fixes lost (irregular gaps), accuracy twice as poor.
        case noisy
        /// A battery-saving recorder: a fix every 10 s (the travel-diary datasets).
        case sparse

        /// The phone model.
        public var model: PhoneModel {
            var model = PhoneModel()
            switch self {
            case .good: break
            case .noisy:
                model.speedNoise = 1.5
                model.falseStopProbability = 0.05
                model.dropProbability = 0.33
                model.baseAccuracy = 16
            case .sparse:
                model.interval = 10
                model.dropProbability = 0.1
            }
            return model
        }
    }
}

/// The state of one simulated phone: its correlated error and accuracy drift.
struct Phone {
    let model: PhoneModel
    var generator: SeededGenerator
    private var error = PlanarVector(east: 0, north: 0)
    private var accuracyDrift = 0.0

    init(model: PhoneModel, seed: UInt64) {
        self.model = model
        generator = SeededGenerator(seed: seed)
    }

    /// The fix reported for a train at `coordinate` moving along `course` at `speed`, or
    /// `nil` when it is dropped.
    mutating func report(
        coordinate: Coordinate, course: Degrees, speed: MetersPerSecond, time: Timestamp, nearStation: Bool, atBigStation: Bool
    ) -> Location? {
        // The error process runs whether or not the fix is kept.
        let rho = Double.exp(-model.interval / model.errorCorrelationTime)
        accuracyDrift = rho * accuracyDrift + (1 - rho * rho).squareRoot() * generator.nextGaussian() * model.accuracyVariation
        var accuracy = model.baseAccuracy * Double.exp(accuracyDrift) * (nearStation ? model.stationAccuracyFactor : 1)
        let sigma = accuracy / model.accuracyToSigma
        let scale = (1 - rho * rho).squareRoot() * sigma
        error = PlanarVector(
            east: rho * error.east + scale * generator.nextGaussian(), north: rho * error.north + scale * generator.nextGaussian()
        )
        guard Double.random(in: 0..<1, using: &generator) >= model.dropProbability else { return nil }
        var offset = error
        let stopped = speed < 0.1
        if stopped, atBigStation, Double.random(in: 0..<1, using: &generator) < model.farOffProbability {
            let distance = Double.random(in: model.farOffDistance, using: &generator)
            let angle = Double.random(in: 0..<(2 * .pi), using: &generator)
            offset = PlanarVector(east: distance * Double.cos(angle), north: distance * Double.sin(angle))
            accuracy = Bool.random(using: &generator) ? distance : Double.random(in: 30...80, using: &generator)
        }
        let projection = LocalProjection(origin: coordinate)
        var reportedSpeed: MetersPerSecond? = max(0, speed + generator.nextGaussian(standardDeviation: model.speedNoise))
        if stopped { reportedSpeed = 0 }
        if speed > 3, Double.random(in: 0..<1, using: &generator) < model.falseStopProbability { reportedSpeed = 0 }
        if accuracy > model.speedAccuracyLimit { reportedSpeed = nil }
        var reportedCourse: Degrees?
        if speed >= model.courseMinimumSpeed {
            let noisy = (course + generator.nextGaussian(standardDeviation: model.courseNoise)).truncatingRemainder(
                dividingBy: 360)
            reportedCourse = noisy < 0 ? noisy + 360 : noisy
        }
        return Location(
            coordinate: projection.coordinate(at: offset), timestamp: time, horizontalAccuracy: (accuracy * 10).rounded() / 10,
            speed: reportedSpeed, course: reportedCourse)
    }
}
