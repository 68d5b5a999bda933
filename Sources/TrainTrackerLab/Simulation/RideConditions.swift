import TrainTrackerCore

/// The conditions a simulated ride is recorded under: the phone, how the map differs from the
/// track, whether trains run late, what the rider does at the end, and urban canyons.
///
/// Each is one option of `traintracker simulate`; the cases file keeps them, so that
/// `traintracker evaluate` can report every condition side by side.
public struct RideConditions: Hashable, Sendable, Codable {
    /// How the map the tracker is given differs from the track the train runs on.
    public enum Map: String, Hashable, Sendable, Codable, CaseIterable {
        /// The train runs on the drawn track itself.
        case drawn
        /// The train runs 5–40 m beside it, sometimes beyond a parallel line (`MapDistortion`).
        case shifted
        /// The train runs on the drawn track, but stops 20–250 m along it from the map's
        /// station points, as trains do on long platforms (`StationDisplacement`).
        case platforms
    }

    /// Whether the day's trains keep to their timetable.
    public enum Day: String, Hashable, Sendable, Codable, CaseIterable {
        /// Trains as late as Caltrain's recorded ones: median 2.5 min, a late train stays
        /// late, its delay drifting (`EverydayDelays`).
        case normal
        /// Trains keep to their timetable to the second (the simulator's normal day until
        /// real rides showed otherwise).
        case punctual
        /// Every train 4–25 minutes late (`Disruption`).
        case disrupted
        /// A normal day on which the rider's train stands 5–30 minutes at one stop between the
        /// ride's ends (waiting for a connection, or held by a fault ahead).
        case held
    }

    /// What the rider does at the ends of the ride.
    public enum Rider: String, Hashable, Sendable, Codable, CaseIterable {
        /// Boards a minute before the train leaves, gets off and leaves with the train's own 45 s
        /// at the platform.
        case leaves
        /// Stays on the platform for 2–6 minutes at the last stop.
        case lingers
        /// Boards at the train's first station 5–25 minutes before it leaves and waits aboard.
        case waits
    }

    /// The phone.
    public var phone: PhoneModel.Preset
    /// The map.
    public var map: Map
    /// The day.
    public var day: Day
    /// The rider.
    public var rider: Rider
    /// Whether fixes near big stations are pushed 15–40 m to one side for minutes.
    public var canyons: Bool
    /// Whether the rider's train stops for signals at stations its service passes
    /// (`signalStopDwell`, at `signalStopShare` of them, at least one a ride where it passes any).
    public var signalStops: Bool

    /// How long a lingering rider stays on the platform at the last stop.
    public static let lingeringStay: ClosedRange<Seconds> = 120...360
    /// How long a held train stands at one stop.
    public static let longDwell: ClosedRange<Seconds> = 300...1_800
    /// How long a waiting rider sits in the train at its first station before it leaves.
    public static let originWait: ClosedRange<Seconds> = 300...1_500
    /// The size of an urban canyon's one-sided error.
    public static let canyonBias: ClosedRange<Meters> = 15...40
    /// How long a train stands for a signal at a station it passes (real phones: 30–45 s).
    public static let signalStopDwell: ClosedRange<Seconds> = 20...60
    /// The share of passed stations a train stops at for signals, on a day with signal stops.
    public static let signalStopShare = 0.25

    /// Conditions; the defaults are the ones the tracker was first tuned under.
    public init(
        phone: PhoneModel.Preset = .good, map: Map = .drawn, day: Day = .normal, rider: Rider = .leaves, canyons: Bool = false,
        signalStops: Bool = false
    ) {
        self.phone = phone
        self.map = map
        self.day = day
        self.rider = rider
        self.canyons = canyons
        self.signalStops = signalStops
    }

    /// A short name, e.g. `sparse · shifted map · disrupted day`: the phone, then whatever
    /// differs from the defaults.
    public var label: String { ([phone.rawValue] + differences).joined(separator: " · ") }

    /// The label spelt out for a sentence, e.g. `good phone · shifted map · disrupted day`.
    public var spelledOut: String { ([phone.rawValue + " phone"] + differences).joined(separator: " · ") }

    /// What differs from the defaults, apart from the phone.
    private var differences: [String] {
        var parts: [String] = []
        if map != .drawn { parts.append("\(map.rawValue) map") }
        if day != .normal { parts.append("\(day.rawValue) day") }
        if rider != .leaves { parts.append("rider \(rider.rawValue)") }
        if canyons { parts.append("canyons") }
        if signalStops { parts.append("signal stops") }
        return parts
    }

    /// Sets `generator` up for these conditions; `seed` draws the delays, and the map's errors
    /// unless `mapSeed` is given (rides of two seeds on one map).
    public func configure(_ generator: inout CaseGenerator, seed: UInt64, mapSeed: UInt64? = nil) {
        var phone = phone.model
        if canyons { phone.canyonBias = Self.canyonBias }
        generator.phone = phone
        let mapSeed = mapSeed ?? seed
        generator.mapDistortion = map == .shifted ? MapDistortion(seed: mapSeed ^ 0x4D41_5053) : nil
        generator.stationDisplacement = map == .platforms ? StationDisplacement(seed: mapSeed ^ 0x504C_4154) : nil
        generator.signalStops = signalStops ? SignalStops(dwell: Self.signalStopDwell, share: Self.signalStopShare) : nil
        switch day {
        case .normal: generator.disruption = EverydayDelays(seed: seed ^ 0x4C41_5445)
        case .punctual: generator.disruption = nil
        case .disrupted: generator.disruption = Disruption(seed: seed ^ 0x4C41_5445)
        case .held: generator.disruption = EverydayDelays(seed: seed ^ 0x4C41_5445)
        }
        generator.longDwell = day == .held ? Self.longDwell : nil
        generator.platformStay = rider == .lingers ? Self.lingeringStay : nil
        generator.originWait = rider == .waits ? Self.originWait : nil
    }
}

extension RideConditions {
    private enum CodingKeys: String, CodingKey {
        case phone, map, day, rider, canyons, signalStops
    }

    /// Reads conditions written before a condition existed as without it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            phone: try container.decode(PhoneModel.Preset.self, forKey: .phone),
            map: try container.decode(Map.self, forKey: .map), day: try container.decode(Day.self, forKey: .day),
            rider: try container.decode(Rider.self, forKey: .rider),
            canyons: try container.decodeIfPresent(Bool.self, forKey: .canyons) ?? false,
            signalStops: try container.decodeIfPresent(Bool.self, forKey: .signalStops) ?? false)
    }
}

extension PhoneModel.Preset: Codable {}
