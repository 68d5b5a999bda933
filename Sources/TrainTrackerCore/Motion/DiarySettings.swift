/// The thresholds of ``TravelDiary``: how a fix is labelled, how short a leg or a halt may
/// be, what a ride hidden in a gap of fixes looks like, and what makes a vehicle leg rail.
///
/// The defaults are the values `traintracker diary --cross-validate` chooses on all eight
/// Helsinki phones; the figure it reports for them comes from values chosen on one half of
/// the phones and scored on the other, both ways (see `docs/motion.md`).
public struct DiarySettings: Hashable, Sendable {
    /// Above this Kalman speed a fix is in a vehicle, whatever was recognised.
    /// Chosen among 6, 8, 10 and 12 m/s by `diary --cross-validate` on all eight Helsinki phones,
    /// from a hand-set start of 8.
    public var vehicleSpeed: MetersPerSecond = 6
    /// With no recognised activity, above this speed a fix is in a vehicle ...
    /// (Chosen among 3, 5 and 7 m/s by `diary --cross-validate` on all eight Helsinki phones, from
    /// a hand-set start of 5.)
    public var unrecognisedVehicleSpeed: MetersPerSecond = 3
    /// ... and above this one on foot.
    /// Chosen among 0.5, 0.7 and 1 m/s by `diary --cross-validate` on all eight Helsinki phones,
    /// from a hand-set start of 0.7.
    public var walkingSpeed: MetersPerSecond = 0.5
    /// A recognised activity older than this says nothing about a fix.
    /// Chosen among 30, 60 and 120 s by `diary --cross-validate` on all eight Helsinki phones, from
    /// a hand-set start of 60.
    public var activityFreshness: Seconds = 60
    /// Fixes either side of each fix whose labels vote on it.
    /// Chosen among 1, 2 and 3 by `diary --cross-validate` on all eight Helsinki phones, from a
    /// hand-set start of 2.
    public var smoothingNeighbours = 3
    /// The shortest leg kept.
    /// Chosen among 30, 60 and 90 s by `diary --cross-validate` on all eight Helsinki phones, from
    /// a hand-set start of 60.
    public var shortestLeg: Seconds = 60
    /// A standing spell shorter than this between two legs of one mode is part of them.
    /// Chosen among 120, 180 and 300 s by `diary --cross-validate` on all eight Helsinki phones,
    /// from a hand-set start of 180.
    public var shortestStay: Seconds = 180
    /// A gap between two fixes at least this long ...
    /// (Chosen among 30, 60 and 120 s by `diary --cross-validate` on all eight Helsinki phones,
    /// from a hand-set start of 60.)
    public var hiddenRideGap: Seconds = 60
    /// ... crossed faster than this, beyond both fixes' accuracies, was a ride (a metro under
    /// ground, a phone that slept on a train).
    /// Chosen among 2, 3, 4 and 6 m/s by `diary --cross-validate` on all eight Helsinki phones,
    /// from a hand-set start of 4.
    public var hiddenRideSpeed: MetersPerSecond = 2
    /// How close to a rail station a rail leg starts and ends.
    /// Chosen among 200, 300, 400 and 600 m by `diary --cross-validate` on all eight Helsinki
    /// phones, from a hand-set start of 400.
    public var stationReach: Meters = 200
    /// With lines to name legs by, a vehicle leg between stations is rail only if a line joins
    /// them and it halts fewer times than this away from stations (a bus at its stops, a tram
    /// at lights).
    /// Chosen among 1, 2, 3 and 1,000 by `diary --cross-validate` on all eight Helsinki phones,
    /// from a hand-set start of 2.
    public var railHaltsAway = 1
    /// A vehicle leg whose fixes have a median accuracy this poor is on rails (under ground, or
    /// inside a steel rail car that hides the sky).
    /// Chosen among 15, 20, 25, 35 and 50 m by `diary --cross-validate` on all eight Helsinki
    /// phones, from a hand-set start of 25.
    public var railAccuracy: Meters = 20
    /// A vehicle leg of at least two minutes with fewer fixes a minute than this is on rails.
    /// Chosen among 1, 2, 3 and 4 by `diary --cross-validate` on all eight Helsinki phones, from a
    /// hand-set start of 3.
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
