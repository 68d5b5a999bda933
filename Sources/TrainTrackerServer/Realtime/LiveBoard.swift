import Foundation
import Synchronization
import TrainTrackerCore
import TrainTrackerRealtime

/// Where a rider's train's delay came from, as the viewer shows it.
enum DelaySource: String, Sendable {
    /// The rider's own fixes (no feed reports the train).
    case ownFixes = "own fixes"
    /// An operator's GTFS-realtime feed.
    case feed = "operator"
    /// Other riders on the same train.
    case riders = "other riders"
}

/// What the server knows of the trains right now: the latest feed of each operator source,
/// and the train each rider's tracker believes it is on. Every session's tracker is told it
/// before each batch (`live(for:at:)`); the published feed is made from it.
final class LiveBoard: Sendable {
    /// How one polled feed stands.
    struct Source: Sendable {
        /// What `/metrics` and the logs call it: the URL without its query (which may hold a key).
        var label: String
        var feed: RealtimeFeed?
        /// When the latest poll succeeded (by this server's clock).
        var fetched: Timestamp?
        /// Failed polls in a row.
        var failures = 0
        /// Trips the latest feed reports that the timetable lacks.
        var unknownTrips = 0
        /// Vehicle positions of the latest feed far from their trips' tracks.
        var offTrackVehicles = 0
        /// Entities of the latest feed left out, by reason (`RealtimeFeedReader.Reading.skipped`).
        var skipped: [String: Int] = [:]
        /// Failed polls since the server started, by reason.
        var failedPolls: [FeedPoller.PollFailure: Int] = [:]
    }

    /// Whether a source's latest feed is told to trackers.
    enum Freshness: String, Sendable {
        /// No feed read yet.
        case none
        /// Read, and no older than `--realtime-max-age`.
        case fresh
        /// Read, and aged out: no longer told to trackers.
        case stale
    }

    /// What every session is told, rebuilt at most every `rebuildSeconds`.
    private struct Shared {
        var built: Timestamp
        var trips: LiveTrips?
        /// Riders by trip, for taking a rider's own sighting out.
        var riders: [String: [(device: String, delay: Seconds)]]
        var fromFeeds: Set<String>
        var fromRiders: Set<String>
    }

    /// The operators' fresh feeds resolved, kept until a feed is read or ages out.
    private struct OperatorView {
        /// Which sources' feeds it holds, and how many feeds had been read then.
        var key: (fresh: [Int], reads: Int)
        var trips: LiveTrips?
        var fromFeeds: Set<String>
    }

    private struct State {
        var sources: [Source]
        var riders: RiderTrains
        var changed = true
        /// Feeds read so far (any source).
        var reads = 0
        var operatorView: OperatorView?
        /// The runs the operators' trains made lately into their stops, for arrival times.
        var runs = RecentRuns()
        /// When the operators' feeds reported each trip lately.
        var sightings = TripSightings()
        var shared: Shared?
        var published: (built: Timestamp, feed: RealtimeFeed)?
    }

    /// A rider: a session, and the device it belongs to (riders agree by device: one phone's
    /// two sessions are one rider).
    struct Rider: Sendable, Hashable {
        var session: String
        var device: String
    }

    /// A rider's fix may be dated this far ahead of the server's clock (phones' clocks differ).
    static let clockSkew: Seconds = 5

    /// The shared view is rebuilt at most this often, and at least this often while anything changes.
    static let rebuildSeconds: Seconds = 1
    /// The published feed is made again at most this often.
    static let publishSeconds: Seconds = 1

    let model: TrackerModel
    let settings: RealtimeSettings
    /// The trip model's constants: the published feed's arrivals are its arrival model's.
    let trips: TripModelParameters?
    private let state: Mutex<State>

    init(model: TrackerModel, settings: RealtimeSettings, trips: TripModelParameters? = nil) {
        self.model = model
        self.settings = settings
        self.trips = trips
        state = Mutex(
            State(
                sources: settings.sources.map { Source(label: Self.label(of: $0)) },
                riders: RiderTrains(
                    freshness: settings.riderFreshness, steadiness: settings.riderSteadiness, clockAllowance: Self.clockSkew)))
    }

    /// A source's URL as it may be shown (`LiveFeedLabel`).
    static func label(of url: String) -> String { LiveFeedLabel.label(of: url) }

    /// The time now, by `RealtimeSettings.clock`.
    func now() -> Timestamp { settings.clock() }

    // MARK: Operator feeds

    /// Source `index` was read at `now`, leaving out `skipped` entities by reason.
    func received(_ feed: RealtimeFeed, source index: Int, at now: Timestamp, skipped: [String: Int] = [:]) {
        let resolved = LiveTrips(feed, model: model)
        state.withLock { state in
            guard state.sources.indices.contains(index) else { return }
            // Every feed read adds its trains' runs and sightings, whether or not a rider asks
            // before the next; not a feed dated in the future (a clock gone wrong would keep
            // them for good) nor one too old to be told to trackers.
            if settings.isFresh(feed.timestamp, at: now) {
                state.runs.advance(with: resolved, model: model)
                state.sightings.advance(with: resolved)
            }
            state.runs.prune(at: now)
            state.sightings.prune(at: now)
            state.sources[index].feed = feed
            state.sources[index].fetched = now
            state.sources[index].failures = 0
            state.sources[index].unknownTrips = resolved.unknownTrips
            state.sources[index].offTrackVehicles = resolved.offTrackVehicles
            state.sources[index].skipped = skipped
            state.reads += 1
            state.changed = true
        }
    }

    /// Source `index` answered 304 (not modified) at `now`.
    func unchanged(source index: Int, at now: Timestamp) {
        state.withLock { state in
            guard state.sources.indices.contains(index) else { return }
            state.sources[index].fetched = now
            state.sources[index].failures = 0
        }
    }

    /// A poll of source `index` failed for `reason`; returns the failures in a row.
    @discardableResult
    func failed(source index: Int, because reason: FeedPoller.PollFailure) -> Int {
        state.withLock { state in
            guard state.sources.indices.contains(index) else { return 0 }
            state.sources[index].failures += 1
            state.sources[index].failedPolls[reason, default: 0] += 1
            return state.sources[index].failures
        }
    }

    /// Each source as it stands.
    var sources: [Source] { state.withLock { $0.sources } }

    /// How old source `index`'s latest feed is at `now` (by its header), if it has one.
    func age(ofSource index: Int, at now: Timestamp) -> Seconds? {
        state.withLock { state in
            guard state.sources.indices.contains(index), let feed = state.sources[index].feed else { return nil }
            return now.seconds(since: feed.timestamp)
        }
    }

    /// How source `index`'s latest feed stands at `now`, and in how many seconds it ages out
    /// (while fresh).
    func freshness(ofSource index: Int, at now: Timestamp) -> (Freshness, untilStale: Seconds?) {
        state.withLock { state in
            guard state.sources.indices.contains(index), let feed = state.sources[index].feed else { return (.none, nil) }
            guard settings.isFresh(feed.timestamp, at: now) else { return (.stale, nil) }
            return (.fresh, settings.maximumAge - now.seconds(since: feed.timestamp))
        }
    }

    // MARK: Riders

    /// Rider `rider`'s tracker answered `answer` for `fix`; counted only for a fix at most
    /// `RealtimeSettings.freshestFix` old at `now` (or `clockSkew` ahead), and for its train
    /// only while the fix lies where that train runs (`TrackerModel.isAboard`).
    func record(rider: Rider, answer: TrackingResult, for fix: Location, now: Timestamp) {
        let age = now.seconds(since: fix.timestamp)
        // (A fix from the future would start its steadiness early and stand until then.)
        guard age <= settings.freshestFix, age >= -Self.clockSkew else { return }
        // (Worked out before taking the lock: every upload passes here.)
        let best = answer.best
        let aboard = best?.trainID.flatMap { trip in best?.delaySeconds.map { model.isAboard(trip: trip, delay: $0, fix: fix) } }
        state.withLock { state in
            let before = state.riders.trip(of: rider.session)
            state.riders.record(rider: rider.session, device: rider.device, answer: answer, at: fix.timestamp, heard: now) {
                _, _ in aboard ?? false
            }
            if before != state.riders.trip(of: rider.session) || before != nil { state.changed = true }
        }
    }

    /// Session `session` ended: its rider has left.
    func forget(session: String) {
        state.withLock { state in
            state.riders.forget(rider: session)
            state.changed = true
        }
    }

    /// The fresh sightings at `now` by trip.
    func ridersByTrip(at now: Timestamp) -> [String: [(device: String, delay: Seconds)]] {
        state.withLock { $0.riders.riders(at: now) }
    }

    // MARK: What trackers are told

    /// What a tracker of rider `rider` is told at `now`: the fresh operator feeds, and the
    /// trains other riders agree on (`RealtimeSettings.sharingRiders`; an operator's word
    /// on a train stands over riders'). Nil when nothing is known.
    func live(for rider: Rider?, at now: Timestamp) -> LiveTrips? {
        let (shared, own) = state.withLock { state in
            (Self.shared(&state, at: now, model: model, settings: settings), rider.flatMap { state.riders.trip(of: $0.session) })
        }
        guard let trips = shared.trips else { return nil }
        // A rider's own sighting (its device's) is not evidence for its own tracker.
        guard let rider, let own, shared.fromRiders.contains(own), let riders = shared.riders[own] else { return trips }
        let others = riders.filter { $0.device != rider.device }
        let delay = RiderTrains.agreedDelay(others, minimumRiders: settings.sharingRiders)
        let report = delay.map { delay in
            var report = TripReport(tripID: own, delay: delay)
            report.fromRiders = true
            return report
        }
        return trips.replacing(tripID: own, with: report, model: model)
    }

    /// Where the delay of trip `tripID` comes from for rider `rider`, as last shared: as the
    /// viewer is told, and as the rider's own device is. The device is told of other riders
    /// only when as many as publishing asks (`minimumRiders`) agree besides the rider: a device
    /// learns no more of who rides its train than a reader of the published feed.
    func delaySources(ofTrip tripID: String?, for rider: Rider?) -> (viewer: DelaySource, device: DelaySource) {
        guard let tripID else { return (.ownFixes, .ownFixes) }
        return state.withLock { state in
            guard let shared = state.shared else { return (.ownFixes, .ownFixes) }
            if shared.fromFeeds.contains(tripID) { return (.feed, .feed) }
            guard shared.fromRiders.contains(tripID) else { return (.ownFixes, .ownFixes) }
            let others = Set(shared.riders[tripID]?.filter { $0.device != rider?.device }.map(\.device) ?? []).count
            let sharing = max(1, settings.sharingRiders)
            return (
                others >= sharing ? .riders : .ownFixes, others >= max(sharing, settings.minimumRiders) ? .riders : .ownFixes
            )
        }
    }

    /// The shared view at `now`, rebuilt when something changed and it is `rebuildSeconds` old.
    private static func shared(_ state: inout State, at now: Timestamp, model: TrackerModel, settings: RealtimeSettings)
        -> Shared
    {
        if let shared = state.shared, now.seconds(since: shared.built) < rebuildSeconds || !state.changed,
            now.seconds(since: shared.built) < rebuildSeconds * 10
        {
            return shared
        }
        state.changed = false
        state.riders.prune(at: now)
        let operators = operatorView(&state, at: now, model: model, settings: settings)
        var trips = operators.trips
        let riders = settings.sharingRiders > 0 ? state.riders.riders(at: now) : [:]
        var fromRiders = Set<String>()
        for (trip, seen) in riders where !operators.fromFeeds.contains(trip) {
            guard let delay = RiderTrains.agreedDelay(seen, minimumRiders: settings.sharingRiders) else { continue }
            var report = TripReport(tripID: trip, delay: delay, measured: now)
            report.fromRiders = true
            if trips == nil { trips = LiveTrips(RealtimeFeed(timestamp: now), model: model) }
            trips?.set(report, forTrip: trip, model: model)
            fromRiders.insert(trip)
        }
        let shared = Shared(
            built: now, trips: trips, riders: riders, fromFeeds: operators.fromFeeds, fromRiders: fromRiders)
        state.shared = shared
        return shared
    }

    /// Whether `report` says something of its trip: a delay or a cancellation.
    private static func says(_ report: TripReport) -> Bool { report.delay != nil || report.cancelled }

    /// The operators' fresh feeds merged (the first source's word on a trip stands) and
    /// resolved, made again only when a feed was read or one aged out. Dated by its oldest
    /// part: a tracker never takes an old feed for a fresh one.
    private static func operatorView(_ state: inout State, at now: Timestamp, model: TrackerModel, settings: RealtimeSettings)
        -> OperatorView
    {
        let fresh = state.sources.indices.filter { index in
            state.sources[index].feed.map { settings.isFresh($0.timestamp, at: now) } ?? false
        }
        if let view = state.operatorView, view.key.fresh == fresh, view.key.reads == state.reads { return view }
        var merged = RealtimeFeed(timestamp: now)
        var reported: [String: Int] = [:]  // trip id → its report in `merged.trips`
        var placed = Set<String>()
        var oldest: Timestamp?
        for index in fresh {
            guard let feed = state.sources[index].feed else { continue }
            for report in feed.trips {
                // The first source's word stands, unless it said nothing (no delay, no
                // cancellation: arrival times alone) and a later one says something.
                guard let held = reported[report.tripID] else {
                    reported[report.tripID] = merged.trips.count
                    merged.trips.append(report)
                    continue
                }
                if !Self.says(merged.trips[held]), Self.says(report) { merged.trips[held] = report }
            }
            // (A position far from its trip's track places nothing, and hides no other
            // source's position of the train.)
            for vehicle in feed.vehicles {
                guard let trip = vehicle.tripID, model.isNearTrack(ofTrip: trip, vehicle.coordinate),
                    placed.insert(trip).inserted
                else { continue }
                merged.vehicles.append(vehicle)
            }
            oldest = min(oldest ?? feed.timestamp, feed.timestamp)
        }
        // A trip the operator says something of: a delay, a cancellation or a place.
        let fromFeeds = Set(merged.trips.filter(Self.says).map(\.tripID)).union(placed)
        merged.timestamp = oldest.map { min($0, now) } ?? now
        let empty = merged.trips.isEmpty && merged.vehicles.isEmpty
        var trips = empty ? nil : LiveTrips(merged, model: model)
        trips?.runs = state.runs
        trips?.sightings = state.sightings
        let view = OperatorView(key: (fresh, state.reads), trips: trips, fromFeeds: fromFeeds)
        state.operatorView = view
        return view
    }

    // MARK: Published

    /// The feed of the trains riders are on (`RealtimeSettings.minimumRiders` agree), made at
    /// most every `publishSeconds`.
    func published(at now: Timestamp) -> RealtimeFeed {
        state.withLock { state in
            if let published = state.published, now.seconds(since: published.built) < Self.publishSeconds,
                now >= published.built
            {
                return published.feed
            }
            state.riders.prune(at: now)
            let feed = state.riders.feed(model: model, at: now, minimumRiders: settings.minimumRiders, trips: trips)
            state.published = (now, feed)
            return feed
        }
    }
}
