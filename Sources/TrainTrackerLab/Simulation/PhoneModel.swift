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
/// - A logger with a distance filter (`distanceFilter`) writes a fix only once it lies that far
///   from the last one written (iOS's `distanceFilter`, Android loggers that record on
///   movement): nothing while the train stands, the next fix once it has moved off.
/// - While the train stands, a phone with `standingJitter` wanders about the standing point by
///   that much, correlated over `jitterCorrelationTime` (under a station roof).
/// - A phone with `standingMotion` claims, while the train stands, a speed from that range on a
///   course at random, on `standingMotionShare` of its fixes.
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
    /// A fix is written only once it lies at least this far from the last one written (the
    /// filter drawn once per phone from the range); every fix when `nil`.
    public var distanceFilter: ClosedRange<Meters>?
    /// While the train stands, fixes wander about the standing point by this much (drawn once
    /// per phone from the range); none when `nil`.
    public var standingJitter: ClosedRange<Meters>?
    /// While the train stands, a phone that reports motion claims a speed drawn from this range,
    /// and a course at random, on `standingMotionShare` of its fixes (an iPhone standing in a
    /// train reported 7 m/s on a course 180° off); a speed of 0 when `nil`.
    public var standingMotion: ClosedRange<MetersPerSecond>?
    /// The share of standing fixes that claim such a motion.
    public var standingMotionShare = 0.3
    /// How long the standing jitter keeps its direction, on average (30 s: a fix moves 1.3–8 m
    /// a second).
    public var jitterCorrelationTime: Seconds = 30
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
        /// A logger that writes a fix only after the phone has moved 10–100 m (a distance
        /// filter, drawn per ride): one a second while the train runs, nothing while it stands.
        case movement
        /// One fix a second, position and time only, that wanders 5–30 m (drawn per ride) about
        /// the standing point while the train stands (an Android logger under a station roof).
        case jittery
        /// One fix a second with position, time and accuracy only: no speed, no course (the
        /// Android loggers of the real phone rides).
        case bare
        /// One fix a second, but about every ten minutes the app is suspended and the phone goes
        /// quiet for 3–10 minutes.
        case quiet
        /// One fix a second with speed and course, that wanders 3–20 m about the standing point
        /// while the train stands and, on a third of those fixes, claims a speed of 0.5–7 m/s on
        /// a course at random (an iPhone standing in a train).
        case drifting
        /// One fix a second, silent for 20–60 s about every three minutes (a phone that loses
        /// the sky in cuttings and under bridges): stations are passed in the gaps.
        case gappy

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
            case .movement:
                model.distanceFilter = 10...100
                model.dropProbability = 0
            case .jittery:
                model.standingJitter = 5...30
                model.reportsMotion = false
            case .bare:
                model.reportsMotion = false
            case .quiet:
                model.longGapProbability = 1.0 / 600
                model.longGap = 180...600
            case .drifting:
                model.standingJitter = 3...20
                model.standingMotion = 0.5...7
            case .gappy:
                model.longGapProbability = 1.0 / 180
                model.longGap = 20...60
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
    /// This phone's distance filter and standing jitter, drawn from the model's ranges.
    let distanceFilter: Meters?
    let standingJitter: Meters?
    /// Where the last fix written lies, for the distance filter.
    private var lastWritten: Coordinate?
    /// The standing jitter's current offset from the standing point.
    private var wander = PlanarVector(east: 0, north: 0)
    /// Draws for the distance filter and the jitter only, so that a phone without them draws
    /// its errors as it did before they existed.
    private var own: SeededGenerator

    init(model: PhoneModel, seed: UInt64) {
        self.model = model
        generator = SeededGenerator(seed: seed)
        var own = SeededGenerator(seed: seed ^ 0x4649_4C54)
        distanceFilter = model.distanceFilter.map { Double.random(in: $0, using: &own) }
        standingJitter = model.standingJitter.map { Double.random(in: $0, using: &own) }
        self.own = own
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
        let stopped = speed < 0.1
        updateWander(standing: stopped, elapsed: elapsed)
        guard Double.random(in: 0..<1, using: &generator) >= model.dropProbability else { return nil }
        var offset = error + wander
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
        if stopped, atBigStation, Double.random(in: 0..<1, using: &generator) < model.farOffProbability {
            let distance = Double.random(in: model.farOffDistance, using: &generator)
            let angle = Double.random(in: 0..<(2 * .pi), using: &generator)
            offset = PlanarVector(east: distance * Double.cos(angle), north: distance * Double.sin(angle))
            accuracy = Bool.random(using: &generator) ? distance : Double.random(in: 30...80, using: &generator)
        }
        let projection = LocalProjection(origin: coordinate)
        var reportedSpeed: MetersPerSecond? = max(0, speed + generator.nextGaussian(standardDeviation: model.speedNoise))
        if stopped { reportedSpeed = 0 }
        // A standing phone that claims to move (drawn from its own generator, so that other
        // phones draw as before).
        var claimedCourse: Degrees?
        if stopped, let claimed = model.standingMotion, Double.random(in: 0..<1, using: &own) < model.standingMotionShare {
            reportedSpeed = Double.random(in: claimed, using: &own)
            claimedCourse = Double.random(in: 0..<360, using: &own)
        }
        if speed > 3, Double.random(in: 0..<1, using: &generator) < model.falseStopProbability { reportedSpeed = 0 }
        if accuracy > model.speedAccuracyLimit || !model.reportsMotion { reportedSpeed = nil }
        var reportedCourse: Degrees? = model.reportsMotion ? claimedCourse : nil
        if speed >= model.courseMinimumSpeed, model.reportsMotion {
            let noisy = (course + generator.nextGaussian(standardDeviation: model.courseNoise)).truncatingRemainder(
                dividingBy: 360)
            reportedCourse = noisy < 0 ? noisy + 360 : noisy
        }
        let location = Location(
            coordinate: projection.coordinate(at: offset), timestamp: time, horizontalAccuracy: (accuracy * 10).rounded() / 10,
            speed: reportedSpeed, course: reportedCourse)
        return passesDistanceFilter(location) ? location : nil
    }
}

extension Phone {
    /// Whether a logger with a distance filter writes `location` (and if so, remembers it).
    fileprivate mutating func passesDistanceFilter(_ location: Location) -> Bool {
        guard let distanceFilter else { return true }
        if let lastWritten, lastWritten.distance(to: location.coordinate) < distanceFilter { return false }
        lastWritten = location.coordinate
        return true
    }

    /// Moves the standing jitter on by `elapsed` seconds (a Gauss–Markov wander of this phone's
    /// size while the train stands, gone once it runs).
    fileprivate mutating func updateWander(standing: Bool, elapsed: Seconds) {
        guard let standingJitter, standing else {
            wander = PlanarVector(east: 0, north: 0)
            return
        }
        // Per axis, so that the wander's distance from the standing point settles at about the
        // jitter; it starts from nothing when the train comes to a stand.
        let sigma = standingJitter / 2.0.squareRoot()
        let rho = Double.exp(-max(elapsed, 0) / model.jitterCorrelationTime)
        let scale = (1 - rho * rho).squareRoot() * sigma
        wander = PlanarVector(
            east: rho * wander.east + scale * own.nextGaussian(), north: rho * wander.north + scale * own.nextGaussian())
    }

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
