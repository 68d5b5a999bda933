import TrainTrackerCore

/// Riders as sensors, offline: GTFS-realtime feeds made from riders' own trackers, as the
/// server's riders' feed would have said it. Each ride is one rider whose tracker (the railway
/// tracker, `RailwayTracker`, told nothing; a server runs the default over it) names a train and its delay at each fix; every `period`, each train at least
/// `minimumRiders` riders named in the last `RiderTrains.freshness` seconds gets a TripUpdate
/// with their median delay. Only answers to fixes at or before a feed's time count, and the
/// riders' trackers may be wrong: the feed says what they believed, not what was true.
public enum RiderFeeds {
    /// The feeds of `rides` (each a rider's fixes in time order) on `model`'s timetable.
    ///
    /// - Complexity: O(N log N + F · R) for N fixes, F feeds and R riders.
    public static func make(
        rides: [(rider: String, fixes: [RecordedFix])], model: TrackerModel, period: Seconds = RecordingFeeds.defaultPeriod,
        minimumRiders: Int = 1
    ) -> [RealtimeFeed] {
        var answers: [(fix: Location, rider: String, result: TrackingResult)] = []
        for ride in rides {
            var tracker = RailwayTracker(model: model)
            for fix in ride.fixes { answers.append((fix.location, ride.rider, tracker.process(fix.location))) }
        }
        answers.sort { $0.fix.timestamp < $1.fix.timestamp }
        guard let first = answers.first?.fix.timestamp, let last = answers.last?.fix.timestamp, period > 0 else { return [] }
        var riders = RiderTrains()
        var feeds: [RealtimeFeed] = []
        var next = 0
        var time = Timestamp(secondsSince1970: (first.secondsSince1970 / period).rounded(.up) * period)
        while time <= last.adding(period) {
            while next < answers.count, answers[next].fix.timestamp <= time {
                let fix = answers[next].fix
                riders.record(rider: answers[next].rider, answer: answers[next].result, at: fix.timestamp) {
                    model.isAboard(trip: $0, delay: $1, fix: fix)
                }
                next += 1
            }
            var feed = RealtimeFeed(timestamp: time)
            for (trip, seen) in riders.riders(at: time).sorted(by: { $0.key < $1.key }) {
                guard let delay = RiderTrains.agreedDelay(seen, minimumRiders: minimumRiders) else { continue }
                var report = TripReport(tripID: trip, delay: delay.rounded(), measured: time)
                report.fromRiders = true
                feed.trips.append(report)
            }
            feeds.append(feed)
            time = time.adding(period)
            // Nothing fresh: on to the feed before the next answer.
            if feed.trips.isEmpty, next < answers.count, answers[next].fix.timestamp > time {
                time = Timestamp(secondsSince1970: (answers[next].fix.timestamp.secondsSince1970 / period).rounded(.up) * period)
            }
        }
        return feeds
    }

    /// `ride` as a rider who boards `after` seconds after its departure: its fixes and truth
    /// from then on, departing then; nil when fewer than `fewest` fixes are left.
    public static func joining(_ ride: (fixes: [RecordedFix], truth: CaseTruth), after: Seconds, fewest: Int = 3)
        -> (fixes: [RecordedFix], truth: CaseTruth)?
    {
        let boards = ride.truth.departure + after
        let fixes = ride.fixes.filter { $0.location.timestamp.secondsSince1970 >= boards }
        guard fixes.count >= fewest, let first = fixes.first?.location.timestamp.secondsSince1970 else { return nil }
        var truth = ride.truth
        truth.fixes = ride.truth.fixes.filter { $0.time >= first }
        truth.departure = first
        return (fixes, truth)
    }
}
