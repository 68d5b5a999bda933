import RealModule
import TrainTrackerCore

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
/// - A background phone (`irregularInterval`) waits a random time between fixes, now and then
///   much longer (`longGapProbability`), reports no speed or course (`reportsMotion`), and
///   throws `outlierProbability` of its fixes `outlierDistance` away, reporting that distance
///   as its accuracy (an honest outlier).
/// - In an urban canyon (within `canyonRadius` of a big station, when `canyonBias` is set) the
///   error is pushed to one side of the track by 15–40 m, the side and size kept for about
///   `canyonPersistence` seconds, while the reported accuracy stays as it was.
public struct PhoneModel: Hashable, Sendable {
    /// Seconds between fixes (the shortest, when `irregularInterval` is set).
    public var interval: Seconds = 1
    /// Seconds between fixes drawn at random (log-uniformly) from this range, if set.
    public var irregularInterval: ClosedRange<Seconds>?
    /// The chance a gap between fixes is a long one, `longGap`, instead.
    public var longGapProbability = 0.0
    /// How long a long gap lasts.
    public var longGap: ClosedRange<Seconds> = 60...180
    /// Whether fixes carry speed and course.
    public var reportsMotion = true
    /// The share of fixes thrown `outlierDistance` away, reporting that distance as accuracy.
    public var outlierProbability = 0.0
    /// How far an outlier lands from the truth.
    public var outlierDistance: ClosedRange<Meters> = 50...150
    /// The size of the one-sided error in urban canyons; none when `nil`.
    public var canyonBias: ClosedRange<Meters>?
    /// How near a big station the canyon reaches.
    public var canyonRadius: Meters = 600
    /// How long a canyon's bias keeps its side and size, on average.
    public var canyonPersistence: Seconds = 180
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
        /// A phone in a pocket, its app in the background: a fix every 8–60 s (one gap in ten
        /// 1–3 minutes), no speed and no course, one fix in twenty 50–150 m off with an
        /// honest accuracy.
        case background

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
            case .background:
                model.interval = 8
                model.irregularInterval = 8...60
                model.longGapProbability = 0.1
                model.dropProbability = 0
                model.reportsMotion = false
                model.outlierProbability = 0.05
                model.baseAccuracy = 12
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
    /// The urban canyon's push to the left of the track (negative: right), while in one.
    private var canyon: Meters?

    init(model: PhoneModel, seed: UInt64) {
        self.model = model
        generator = SeededGenerator(seed: seed)
    }

    /// Seconds until the next fix.
    mutating func nextInterval() -> Seconds {
        if model.longGapProbability > 0, Double.random(in: 0..<1, using: &generator) < model.longGapProbability {
            return Double.random(in: model.longGap, using: &generator)
        }
        guard let range = model.irregularInterval, range.lowerBound > 0 else { return model.interval }
        // Log-uniform: short waits are as common as long ones by ratio.
        let logarithm = Double.random(in: Double.log(range.lowerBound)...Double.log(range.upperBound), using: &generator)
        return Double.exp(logarithm)
    }

    /// The fix reported for a train at `coordinate` moving along `course` at `speed`, `elapsed`
    /// seconds after the previous report, or `nil` when it is dropped. `nearBigStation`: within
    /// the canyon radius of a big station.
    mutating func report(
        coordinate: Coordinate, course: Degrees, speed: MetersPerSecond, time: Timestamp, elapsed: Seconds, nearStation: Bool,
        atBigStation: Bool, nearBigStation: Bool = false
    ) -> Location? {
        // The error process runs whether or not the fix is kept.
        let rho = Double.exp(-max(elapsed, 0) / model.errorCorrelationTime)
        accuracyDrift = rho * accuracyDrift + (1 - rho * rho).squareRoot() * generator.nextGaussian() * model.accuracyVariation
        var accuracy = model.baseAccuracy * Double.exp(accuracyDrift) * (nearStation ? model.stationAccuracyFactor : 1)
        let sigma = accuracy / model.accuracyToSigma
        let scale = (1 - rho * rho).squareRoot() * sigma
        error = PlanarVector(
            east: rho * error.east + scale * generator.nextGaussian(), north: rho * error.north + scale * generator.nextGaussian()
        )
        updateCanyon(inside: nearBigStation, elapsed: elapsed)
        guard Double.random(in: 0..<1, using: &generator) >= model.dropProbability else { return nil }
        var offset = error
        if let canyon {
            // To the left of the train's course when positive.
            offset = offset + PlanarVector(course: course - 90) * canyon
        }
        if model.outlierProbability > 0, Double.random(in: 0..<1, using: &generator) < model.outlierProbability {
            let distance = Double.random(in: model.outlierDistance, using: &generator)
            let angle = Double.random(in: 0..<(2 * .pi), using: &generator)
            offset = PlanarVector(east: distance * Double.cos(angle), north: distance * Double.sin(angle))
            accuracy = max(accuracy, distance)
        }
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
        if accuracy > model.speedAccuracyLimit || !model.reportsMotion { reportedSpeed = nil }
        var reportedCourse: Degrees?
        if speed >= model.courseMinimumSpeed, model.reportsMotion {
            let noisy = (course + generator.nextGaussian(standardDeviation: model.courseNoise)).truncatingRemainder(
                dividingBy: 360)
            reportedCourse = noisy < 0 ? noisy + 360 : noisy
        }
        return Location(
            coordinate: projection.coordinate(at: offset), timestamp: time, horizontalAccuracy: (accuracy * 10).rounded() / 10,
            speed: reportedSpeed, course: reportedCourse)
    }
}

extension Phone {
    /// Enters, keeps, redraws or leaves the urban canyon's one-sided bias.
    fileprivate mutating func updateCanyon(inside: Bool, elapsed: Seconds) {
        guard let bias = model.canyonBias, inside else {
            canyon = nil
            return
        }
        let redraw =
            canyon == nil
            || Double.random(in: 0..<1, using: &generator) < 1 - Double.exp(-max(elapsed, 0) / model.canyonPersistence)
        guard redraw else { return }
        let size = Double.random(in: bias, using: &generator)
        canyon = Bool.random(using: &generator) ? size : -size
    }
}
