import Algorithms
import TrainTrackerCore

/// GTFS-realtime feeds of a simulated day's delays, as an operator would publish them: at each
/// of the given times, every train of the timetable running then (on its service day, by its
/// calendar) that has left its first station gets a TripUpdate with its delay at its latest
/// call, as `delays` makes it run (an operator does not know how late a train will leave),
/// and, given `SimulatedTrainPlaces`, a position while it runs. For `simulate --feed`: the
/// simulated riders' fixes are then tracked with the day's delays and trains known, as riders
/// of an operator with a feed are.
public enum SimulatedFeeds {
    /// A train is in a feed from this long before its first departure ...
    public static let before: Seconds = 1_800
    /// ... to this long after its last call, as it runs: an operator keeps reporting a late
    /// train until it arrives.
    public static let after: Seconds = 600
    /// The latest a train is looked for (the simulator's days make none later than half an
    /// hour).
    public static let latest: Seconds = 3_600

    /// One feed per time of `times` (sorted, duplicates once) of `dataset`'s trains as `delays`
    /// runs them; with `places`, each running train's position too (a VehiclePosition).
    ///
    /// - Complexity: O(T log T + F · R) for T trains and F feeds of R trains running each;
    ///   with `places`, each train's ride planned once and O(S) a position for S stops.
    public static func make(
        dataset: TransitDataset, delays: any TrainDelays, times: [Timestamp], places: SimulatedTrainPlaces? = nil
    ) -> [RealtimeFeed] {
        var places = places
        let timetable = dataset.timetable
        let zone = timetable.zone
        // Trains by their first published time (seconds after their service day's midnight).
        let trains = timetable.trains.compactMap { train -> (start: Seconds, end: Seconds, train: TimetabledTrain)? in
            guard let first = train.stops.first, let last = train.stops.last,
                let start = first.departure ?? first.arrival, let end = last.arrival ?? last.departure
            else { return nil }
            return (start, end, train)
        }.sorted { $0.start < $1.start }
        let longest = trains.map { $0.end - $0.start }.max() ?? 0
        var asRun: [String: [TimetableStop]] = [:]
        var feeds: [RealtimeFeed] = []
        for time in Set(times).sorted() {
            var feed = RealtimeFeed(timestamp: time)
            let today = zone.day(of: time)
            for day in [today, today.adding(-1)] {
                let clock = time.secondsSince1970 - zone.serviceDayOrigin(day)
                var index = trains.partitioningIndex { $0.start >= clock - longest - after - latest }
                while index < trains.count, trains[index].start <= clock + before {
                    let (start, end, train) = trains[index]
                    index += 1
                    guard clock >= start - before, clock <= end + after + latest, timetable.calendar.runs(train.service, on: day)
                    else { continue }
                    let run = asRun[train.id] ?? delays.stops(of: train)
                    asRun[train.id] = run
                    guard clock <= (run.last.flatMap { $0.arrival ?? $0.departure } ?? end) + after else { continue }
                    if let delay = delay(of: train, asRun: run, at: clock) {
                        feed.trips.append(TripReport(tripID: train.id, startDate: day, delay: delay.rounded(), measured: time))
                    }
                    if let coordinate = places?.coordinate(of: train, asRun: run, at: clock) {
                        feed.vehicles.append(VehicleReport(tripID: train.id, coordinate: coordinate, time: time, startDate: day))
                    }
                }
            }
            feeds.append(feed)
        }
        return feeds
    }

    /// The delay of `train` (running as `asRun`) at `clock`: at its latest call left by then;
    /// nil before it leaves.
    static func delay(of train: TimetabledTrain, asRun: [TimetableStop], at clock: Seconds) -> Seconds? {
        var delay: Seconds?
        for (published, run) in zip(train.stops, asRun) {
            guard let planned = published.departure ?? published.arrival, let actual = run.departure ?? run.arrival else {
                continue
            }
            if actual > clock { break }
            delay = actual - planned
        }
        return delay
    }
}

/// A punctual day's delays: every train on time to the second.
public struct OnTimeDelays: TrainDelays {
    /// A punctual day.
    public init() {}

    public func lateness(of trainID: String) -> Seconds { 0 }

    public func stops(of train: TimetabledTrain) -> [TimetableStop] { train.stops }
}
