/// Riders as sensors: the train each rider's tracker believes it is on, and how late, gathered
/// into a GTFS-realtime feed of the trains riders are on. A train is reported only when at
/// least `minimumRiders` riders (devices: one phone's two sessions are one rider) agree on
/// it; its delay is their median, its position the
/// one its timetable and that delay give (`TrackerModel.progress(ofTrip:delay:at:)`), never
/// a rider's own. The feed names no rider.
///
///     var riders = RiderTrains()
///     riders.record(rider: "device-1", answer: result, at: fix.location.timestamp)
///     let feed = riders.feed(model: model, at: now, minimumRiders: 2)
public struct RiderTrains: Sendable {
    /// What one rider's tracker said last.
    struct Sighting: Sendable, Equatable {
        var tripID: String
        var delay: Seconds
        var time: Timestamp
        /// The device it came from.
        var device: String
        /// Since when the rider's tracker has named this train at every answer, sure of its
        /// line, and when it last did: by the clock of whoever heard the answers (a server's,
        /// else the fixes' own times).
        var since: Timestamp
        var heard: Timestamp
        /// Whether its fix lay where the train runs (`TrackerModel.isAboard`): a rider away
        /// from its train names it without counting for it.
        var aboard = true
    }

    /// A rider's answer counts this long after its fix. Default 120 s, set by hand on
    /// 2026-11-25; the reason for two minutes is not recorded.
    public var freshness: Seconds
    /// A rider counts for a train only once its tracker has named it, sure of the line, for
    /// this long: a tracker still making up its mind would pass its first guess on. Default
    /// 300 s, tuned by hand on 2026-11-25 on Caltrain's recording and a simulated seed: 0, 300
    /// and 600 s gave late riders 99.2, 99.4 and 99.4 % railway.
    public var steadiness: Seconds
    /// An answer less sure of its line than this (`TrackingCandidate.confidence`) names no train.
    /// Default 0.9, tuned by hand on 2026-11-25 on the same data: it alone mended the
    /// recording's Express late riders (90.2 → 98.7 %).
    public var minimumConfidence: Double
    /// A fix dated up to this far ahead of the time asked about counts as now: phones' clocks
    /// are seconds off either way (`LiveBoard.record` takes fixes as far ahead). Default 5 s,
    /// set by hand to the server's allowance for phones' clocks.
    public var clockAllowance: Seconds
    /// The latest sighting per rider.
    private var sightings: [String: Sighting] = [:]

    /// No riders yet; an answer counts `freshness` seconds (default 120), once its train has
    /// been named for `steadiness` seconds (default 300) at least `minimumConfidence` sure
    /// (default 0.9); a fix up to `clockAllowance` (default 5 s) ahead counts as now.
    public init(
        freshness: Seconds = 120, steadiness: Seconds = 300, minimumConfidence: Double = 0.9, clockAllowance: Seconds = 5
    ) {
        self.freshness = freshness
        self.steadiness = steadiness
        self.minimumConfidence = minimumConfidence
        self.clockAllowance = clockAllowance
    }

    /// How many riders have a sighting (fresh or not).
    public var riderCount: Int { sightings.count }

    /// Rider `rider`'s tracker (a session of device `device`, by default its own) answered
    /// `answer` for a fix at `time`, heard at `heard` (a server's clock; by default the fix's
    /// time): its best candidate's train and delay, when it names both at least
    /// `minimumConfidence` sure of the line, become the rider's sighting; any other answer
    /// clears it (the rider may have left the train). Steadiness is timed by when the answers
    /// were heard: a device cannot shorten it by sending fixes dated in the past. A sighting
    /// whose fix `isAboard(trip, delay)` denies (a rider away from where that train runs)
    /// keeps its steadiness but counts for no train until a fix lies there again.
    public mutating func record(
        rider: String, device: String? = nil, answer: TrackingResult, at time: Timestamp, heard: Timestamp? = nil,
        isAboard: (_ tripID: String, _ delay: Seconds) -> Bool = { _, _ in true }
    ) {
        // (An older fix, from a replay, does not replace a newer one.)
        if let known = sightings[rider], known.time > time { return }
        guard let best = answer.best, let trip = best.trainID, let delay = best.delaySeconds, delay.isFinite,
            (best.confidence ?? 0) >= minimumConfidence
        else {
            sightings[rider] = nil
            return
        }
        let heard = heard ?? time
        let since = sightings[rider].flatMap { $0.tripID == trip ? $0.since : nil } ?? heard
        sightings[rider] = Sighting(
            tripID: trip, delay: delay, time: time, device: device ?? rider, since: since, heard: heard,
            aboard: isAboard(trip, delay))
    }

    /// Forgets rider `rider` (its session ended).
    public mutating func forget(rider: String) {
        sightings[rider] = nil
    }

    /// Drops sightings older than `freshness` at `time`.
    public mutating func prune(at time: Timestamp) {
        sightings = sightings.filter { time.seconds(since: $0.value.time) <= freshness }
    }

    /// The fresh, steady sightings at `time` of riders where their trains run, by trip: each
    /// one's device and delay. A fix dated up to `clockAllowance` after `time` is fresh.
    ///
    /// - Complexity: O(R) for R riders.
    public func riders(at time: Timestamp) -> [String: [(device: String, delay: Seconds)]] {
        var byTrip: [String: [(device: String, delay: Seconds)]] = [:]
        for sighting in sightings.values where sighting.aboard {
            let age = time.seconds(since: sighting.time)
            guard age >= -clockAllowance, age <= freshness, sighting.heard.seconds(since: sighting.since) >= steadiness
            else { continue }
            byTrip[sighting.tripID, default: []].append((sighting.device, sighting.delay))
        }
        return byTrip
    }

    /// The trip rider `rider` was last seen on, if any (steady or not).
    public func trip(of rider: String) -> String? { sightings[rider]?.tripID }

    /// The delay riders agree on for a train: the median over devices (each device's own
    /// sessions first reduced to their median: one phone's many sessions are one voice), when
    /// at least `minimumRiders` (at least 1) devices give one.
    public static func agreedDelay(_ riders: [(device: String, delay: Seconds)], minimumRiders: Int) -> Seconds? {
        let byDevice = Dictionary(grouping: riders, by: \.device).values.compactMap { $0.map(\.delay).median }
        guard byDevice.count >= max(1, minimumRiders) else { return nil }
        return byDevice.median
    }

    /// The trains at least `minimumRiders` riders are on at `time`, as a feed made at `time`:
    /// per train a trip update (the agreed delay, ETAs at its stations still to come) and a
    /// vehicle position from its timetable and that delay. A train its timetable does not
    /// have running at `time` is left out.
    ///
    /// With `trips`, the arrivals at the stations still to come are its arrival model's
    /// predictions from the agreed delay, with their intervals (`TrackerModel.progress(ofTrip:delay:at:trips:measured:)`),
    /// made as of the train's newest sighting: a feed made again before any rider says more
    /// says the same.
    ///
    /// - Complexity: O(R + T·C) for R riders and T trains of C calls.
    public func feed(model: TrackerModel, at time: Timestamp, minimumRiders: Int, trips: TripModelParameters? = nil)
        -> RealtimeFeed
    {
        var feed = RealtimeFeed(timestamp: time)
        var newest: [String: Timestamp] = [:]
        for sighting in sightings.values where sighting.aboard {
            newest[sighting.tripID] = max(newest[sighting.tripID] ?? sighting.time, sighting.time)
        }
        for (tripID, riders) in riders(at: time).sorted(by: { $0.key < $1.key }) {
            guard let delay = Self.agreedDelay(riders, minimumRiders: minimumRiders),
                let progress = model.progress(
                    ofTrip: tripID, delay: delay, at: time, trips: trips, measured: newest[tripID].map { min($0, time) })
            else { continue }
            var report = TripReport(
                tripID: tripID, startDate: progress.serviceDay, delay: delay, measured: time, nextCalls: progress.nextCalls)
            report.fromRiders = true
            report.routeID = model.railwayID(ofTrip: tripID)
            feed.trips.append(report)
            feed.vehicles.append(
                VehicleReport(
                    tripID: tripID, coordinate: progress.coordinate, time: time, bearing: progress.bearing,
                    startDate: progress.serviceDay))
        }
        return feed
    }
}
