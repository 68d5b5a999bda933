import TrainTrackerCore

/// GTFS-realtime feeds made from a recording of trains' own positions, as an operator's feed
/// would have said it: every `period`, each trip with a position in the last `freshness`
/// seconds gets a TripUpdate with its delay at its latest position (against the timetable it
/// ran on) and a VehiclePosition there. Only positions at or before a feed's time count, so a
/// rider tracked with the feeds never learns a later position than the feed could have; a
/// position the recording repeats (a stale feed publishing it again) keeps its first time.
public enum RecordingFeeds {
    /// One feed every this many seconds.
    public static let defaultPeriod: Seconds = 60
    /// A trip whose latest position is older than this is left out of a feed.
    public static let freshness: Seconds = 600

    /// The feeds for `positions` (any order) of trips of `model`'s timetable, one every
    /// `period` seconds from the first position to the last.
    ///
    /// - Complexity: O(P log P + F · T) for P positions, F feeds and T trips.
    public static func make(positions: [VehiclePosition], model: TrackerModel, period: Seconds = defaultPeriod)
        -> [RealtimeFeed]
    {
        let sorted = positions.sorted { $0.time < $1.time }
        guard let first = sorted.first?.time, let last = sorted.last?.time, period > 0 else { return [] }
        var latest: [String: (position: VehiclePosition, delay: Seconds?)] = [:]
        var feeds: [RealtimeFeed] = []
        var next = 0
        var time = Timestamp(secondsSince1970: (first.secondsSince1970 / period).rounded(.up) * period)
        while time <= last.adding(period) {
            while next < sorted.count, sorted[next].time <= time {
                let position = sorted[next]
                next += 1
                if let previous = latest[position.tripID]?.position, previous.coordinate == position.coordinate { continue }
                latest[position.tripID] = (
                    position, model.delay(ofTrip: position.tripID, at: position.coordinate, time: position.time)
                )
            }
            var feed = RealtimeFeed(timestamp: time)
            for (trip, entry) in latest.sorted(by: { $0.key < $1.key })
            where time.seconds(since: entry.position.time) <= freshness {
                if let delay = entry.delay {
                    feed.trips.append(TripReport(tripID: trip, delay: delay.rounded(), measured: entry.position.time))
                }
                feed.vehicles.append(
                    VehicleReport(tripID: trip, coordinate: entry.position.coordinate, time: entry.position.time))
            }
            feeds.append(feed)
            time = time.adding(period)
            // Nothing fresh left to say: on to the feed before the next position (a recording
            // of two days, or of two centuries, makes feeds only while trains report).
            if feed.vehicles.isEmpty, next < sorted.count, sorted[next].time > time {
                time = Timestamp(secondsSince1970: (sorted[next].time.secondsSince1970 / period).rounded(.up) * period)
            }
        }
        return feeds
    }
}
