extension TrackerModel {
    /// A position this far from its trip's track says nothing about the trip's delay.
    /// Set by hand on 2026-11-25 with the first GTFS-realtime rules; the reason for 500 m is
    /// not recorded.
    public static let delayReach: Meters = 500

    /// How late trip `tripID` of the timetable is, if its train is at `coordinate` at `time`:
    /// the time against the trip's published time there (interpolated between its calls, as
    /// `PassageEvidence` does), on the service day that makes it least late or early. Nil for
    /// a trip the timetable lacks, a place more than `delayReach` from its track or outside
    /// its calls.
    ///
    /// - Complexity: O(log V + log C) for the track's V vertices and the trip's C calls.
    public func delay(ofTrip tripID: String, at coordinate: Coordinate, time: Timestamp) -> Seconds? {
        guard let place = tripIndex[tripID] else { return nil }
        let line = LineDirection(index: Int(place.line))
        let railway = network.railways[line.railway]
        guard let projection = railway.track.polyline.projection(of: coordinate, within: Self.delayReach) else { return nil }
        let trip = trips[line: line][Int(place.trip)]
        let walk = TrackWalk(railway: railway, direction: line.direction)
        let positions = network.stationAlongTrack[line.railway]
        let (today, yesterday, _, _) = serviceDay(at: time)
        var best: Seconds?
        for origin in [today, yesterday] {
            let clock = time.secondsSince1970 - origin
            guard let due = trip.time(at: projection.alongTrack, positions: positions, walk: walk, near: clock) else {
                continue
            }
            let delay = clock - due
            if best.map({ abs(delay) < abs($0) }) ?? true { best = delay }
        }
        return best
    }
}

extension TrackerModel {
    /// Whether `coordinate` is within `reach` (by default `delayReach`) of trip `tripID`'s
    /// track (false for a trip the timetable lacks).
    ///
    /// - Complexity: O(log V) for the track's V vertices.
    public func isNearTrack(ofTrip tripID: String, _ coordinate: Coordinate, within reach: Meters = delayReach) -> Bool {
        guard let place = tripIndex[tripID] else { return false }
        let railway = network.railways[LineDirection(index: Int(place.line)).railway]
        return railway.track.polyline.projection(of: coordinate, within: reach) != nil
    }

    /// The name riders know trip `tripID` by (GTFS `trip_short_name`, else the id), if the
    /// timetable has the trip.
    public func tripName(_ tripID: String) -> String? {
        guard let place = tripIndex[tripID] else { return nil }
        return timetable.tripNames[line: LineDirection(index: Int(place.line)), trip: Int(place.trip)]?.name
    }

    /// The id of the railway trip `tripID` runs on, if the timetable has the trip.
    public func railwayID(ofTrip tripID: String) -> String? {
        tripIndex[tripID].map { network.railways[LineDirection(index: Int($0.line)).railway].id }
    }
}

extension TrackerModel {
    /// A rider's fix farther than its accuracy plus this from its train's track is not on
    /// that train. Set by hand: the tracks of Tokyo's and Caltrain's data lie within tens of
    /// metres of the trains' own GPS; 200 m leaves room for a platform and a poor map. Set
    /// before the rule was measured on Caltrain's recordings, not tuned
    /// (docs/experiments/2026-11-28-riders-aboard-rule.md).
    public static let aboardTrackReach: Meters = 200
    /// ... nor one farther than its accuracy plus this from where the train is, by its
    /// timetable and the delay the rider's tracker gives it (`progress(ofTrip:delay:at:)`,
    /// which runs evenly between calls). Set by hand: a minute's running at 25 m/s; set
    /// before the rule was measured, not tuned.
    public static let aboardPlaceReach: Meters = 1_500
    /// A fix's claimed accuracy widens both reaches by at most this much: a phone that
    /// knows only its cell says nothing of the train. Set by hand on 2026-11-28 with the two
    /// reaches; not tuned.
    public static let aboardAccuracyCredit: Meters = 500

    /// Whether a rider at `fix` can be aboard trip `tripID` running `delay` seconds late:
    /// within `aboardTrackReach` (plus the fix's accuracy) of the trip's track and, while
    /// the timetable has the trip running then, within `aboardPlaceReach` (plus the
    /// accuracy) of the train's place. False for a trip the timetable lacks or a delay that is
    /// no number.
    ///
    /// - Complexity: O(log V + C) for the track's V vertices and the trip's C calls.
    public func isAboard(trip tripID: String, delay: Seconds, fix: Location) -> Bool {
        let claimed = fix.horizontalAccuracy ?? 0
        let accuracy = claimed.isFinite ? min(max(claimed, 0), Self.aboardAccuracyCredit) : 0
        guard delay.isFinite, isNearTrack(ofTrip: tripID, fix.coordinate, within: Self.aboardTrackReach + accuracy) else {
            return false
        }
        guard let progress = progress(ofTrip: tripID, delay: delay, at: fix.timestamp) else { return true }
        return progress.coordinate.distance(to: fix.coordinate) <= Self.aboardPlaceReach + accuracy
    }
}
