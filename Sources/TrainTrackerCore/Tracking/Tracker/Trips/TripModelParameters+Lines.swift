/// Where a fitted delay prior holds: how late trains run is a network's (its timetable's
/// slack, its feed's clock), not the model's. Caltrain's recorded positions put an on-time
/// train 164 s after its timetable with no early side; a Tokyo train a minute late is then a
/// billion times unlikelier than the train before it eight minutes late, and the trip model
/// followed the wrong train (docs/experiments/2026-12-02-cadence-and-priors.md).
extension TripModelParameters {
    /// The lines a fit saw: railways by id, within the area the fitted network covers (so that
    /// another feed's "Express" is not taken for Caltrain's).
    public struct FittedLines: Hashable, Sendable, Codable {
        /// The railways' ids (a GTFS feed's route ids).
        public var railwayIDs: Set<String>
        /// The fitted network's extent, its south-west corner: a railway whose track starts
        /// outside it is another's.
        public var southWest: Coordinate
        /// ... and its north-east corner.
        public var northEast: Coordinate

        /// Lines `railwayIDs` within `southWest ... northEast`.
        public init(railwayIDs: Set<String>, southWest: Coordinate, northEast: Coordinate) {
            self.railwayIDs = railwayIDs
            self.southWest = southWest
            self.northEast = northEast
        }

        /// Whether `railway` is one of the lines: its id is one of theirs and its track starts
        /// within their extent.
        public func contains(_ railway: Railway) -> Bool {
            guard railwayIDs.contains(railway.id), let start = railway.track.polyline.coordinates.first else {
                return false
            }
            // (Compared, not made a range: an extent decoded the wrong way round is empty, not a trap.)
            return start.latitude >= southWest.latitude && start.latitude <= northEast.latitude
                && start.longitude >= southWest.longitude && start.longitude <= northEast.longitude
        }

        /// Caltrain's five routes in its 2024 GTFS feed, where `fittedOnSharedDays` was fitted.
        public static let caltrain = Self(
            railwayIDs: ["Local Weekday", "Local Weekend", "Limited", "Express", "South County"],
            southWest: Coordinate(latitude: 36.9, longitude: -122.6),
            northEast: Coordinate(latitude: 37.9, longitude: -121.4))
    }

    /// How late a train entered runs (`TripFollower.delayPrior`): the prior's constants.
    struct DelayPrior: Hashable, Sendable {
        var onTimeCentre: Seconds
        var onTimeScale: Seconds
        var earlyScale: Seconds
        var lateShare: Double
        var lateMean: Seconds
        var vagueShare: Double
        var vagueScale: Seconds

        /// The prior density of `delay`: on time (a Laplace about `onTimeCentre`, of scale
        /// `onTimeScale` on the late side and `earlyScale` on the early side) or late (an
        /// exponential beyond it), or, a share `vagueShare`, anywhere near the timetable (a
        /// Laplace about 0 of `vagueScale`).
        func density(_ delay: Seconds) -> Double {
            let beyond = delay - onTimeCentre
            let onTime =
                Double.exp(beyond >= 0 ? -beyond / onTimeScale : beyond / earlyScale) / (onTimeScale + earlyScale)
            let late = beyond > 0 ? Double.exp(-beyond / lateMean) / lateMean : 0
            let vague = Double.exp(-abs(delay) / vagueScale) / (2 * vagueScale)
            let fitted = (1 - lateShare) * onTime + lateShare * late
            return (1 - vagueShare) * fitted + vagueShare * vague + 1e-9
        }
    }

    /// This set's delay prior.
    var delayPrior: DelayPrior {
        DelayPrior(
            onTimeCentre: onTimeCentre, onTimeScale: onTimeScale, earlyScale: earlyScale, lateShare: lateShare,
            lateMean: lateMean, vagueShare: vagueShare, vagueScale: vagueScale)
    }

    /// The delay prior of `railway`'s trains: this set's where it holds there (`delayPriorLines`
    /// nil, or holding `railway`), else the hand-set one (`handSet`: on time about 30 s late,
    /// give or take a minute either way, a share 0.3 late by a mean of 400 s), which assumes no
    /// network's habits.
    func delayPrior(on railway: Railway) -> DelayPrior {
        guard let lines = delayPriorLines, !lines.contains(railway) else { return delayPrior }
        var neutral = Self.handSet.delayPrior
        neutral.vagueShare = vagueShare
        neutral.vagueScale = vagueScale
        return neutral
    }

    /// The arrival model for `railway`'s trains: this set's where the delay prior it was fitted
    /// with holds (`delayPrior(on:)`), else none: how late a network's trains arrive is its own.
    func arrivalModel(on railway: Railway) -> ArrivalModel? {
        guard let lines = delayPriorLines, !lines.contains(railway) else { return arrivalModel }
        return nil
    }

    /// The names of the delay prior's constants (`tunables`): a parameter file that sets one
    /// describes its own network, and its prior holds on every line.
    public static let delayPriorNames: Set<String> = [
        "tripOnTimeCentre", "tripOnTimeScale", "tripEarlyScale", "tripLateShare", "tripLateMean",
    ]
}
