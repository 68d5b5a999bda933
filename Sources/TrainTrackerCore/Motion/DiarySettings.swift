/// The thresholds of ``TravelDiary``: how a fix is labelled, how short a leg or a halt may
/// be, what a ride hidden in a gap of fixes looks like, and what makes a vehicle leg rail.
///
/// The defaults are the values `traintracker diary --cross-validate` chooses on all eight
/// Helsinki phones; the figure it reports for them comes from values chosen on one half of
/// the phones and scored on the other, both ways (see `docs/motion.md`).
public struct DiarySettings: Hashable, Sendable {
    /// Above this Kalman speed a fix is in a vehicle, whatever was recognised.
    public var vehicleSpeed: MetersPerSecond = 6
    /// With no recognised activity, above this speed a fix is in a vehicle ...
    public var unrecognisedVehicleSpeed: MetersPerSecond = 3
    /// ... and above this one on foot.
    public var walkingSpeed: MetersPerSecond = 0.5
    /// A recognised activity older than this says nothing about a fix.
    public var activityFreshness: Seconds = 60
    /// Fixes either side of each fix whose labels vote on it.
    public var smoothingNeighbours = 3
    /// The shortest leg kept.
    public var shortestLeg: Seconds = 60
    /// A standing spell shorter than this between two legs of one mode is part of them.
    public var shortestStay: Seconds = 180
    /// A gap between two fixes at least this long ...
    public var hiddenRideGap: Seconds = 60
    /// ... crossed faster than this, beyond both fixes' accuracies, was a ride (a metro under
    /// ground, a phone that slept on a train).
    public var hiddenRideSpeed: MetersPerSecond = 2
    /// How close to a rail station a rail leg starts and ends.
    public var stationReach: Meters = 200
    /// With lines to name legs by, a vehicle leg between stations is rail only if a line joins
    /// them and it halts fewer times than this away from stations (a bus at its stops, a tram
    /// at lights).
    public var railHaltsAway = 1
    /// A vehicle leg whose fixes have a median accuracy this poor is on rails (under ground, or
    /// inside a steel rail car that hides the sky).
    public var railAccuracy: Meters = 20
    /// A vehicle leg of at least two minutes with fewer fixes a minute than this is on rails.
    public var railFixesPerMinute = 3.0

    /// The defaults.
    public init() {}

    /// The defaults.
    public static let standard = DiarySettings()

    /// Where the search for thresholds starts: the values set by hand before the search (the
    /// diary's first version), so that no fold starts from values chosen on its held-out phones.
    public static let untuned: DiarySettings = {
        var settings = DiarySettings()
        settings.vehicleSpeed = 8
        settings.unrecognisedVehicleSpeed = 5
        settings.walkingSpeed = 0.7
        settings.smoothingNeighbours = 2
        settings.hiddenRideSpeed = 4
        settings.railAccuracy = 25
        settings.stationReach = 400
        settings.railHaltsAway = 2
        return settings
    }()
}
