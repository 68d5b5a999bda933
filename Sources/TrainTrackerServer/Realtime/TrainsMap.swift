import TrainTrackerCore

/// `GET /v1/realtime/trains`: every train the server knows of right now, for the viewer's
/// map: those riders are on and those the operators' fresh feeds report (each with how many
/// riders are on it, any number: an admin sees sessions anyway), its delay, where it came
/// from, and its position (the feed's vehicle position, else its timetable and delay).
struct TrainsMap {
    let board: LiveBoard

    /// The trains as `{"trains": [{"trip", "train", "railway", "delaySeconds", "source",
    /// "riders", "lat", "lon", "bearing"}]}`, the operators' first.
    func json(at now: Timestamp) -> String {
        let model = board.model
        var trains: [String] = []
        var seen = Set<String>()
        let riders = board.ridersByTrip(at: now)
        // (Riders on a train an operator reports are counted too: 0 when none are.)
        func count(_ trip: String) -> Int { Set(riders[trip]?.map(\.device) ?? []).count }
        for source in board.sources {
            guard let feed = source.feed, board.settings.isFresh(feed.timestamp, at: now) else { continue }
            // (A position far from its trip's track is not drawn: the train is drawn where its
            // delay puts it.)
            let positions = Dictionary(
                feed.vehicles.compactMap { vehicle in
                    vehicle.tripID.flatMap { model.isNearTrack(ofTrip: $0, vehicle.coordinate) ? ($0, vehicle) : nil }
                }, uniquingKeysWith: { a, _ in a })
            for report in feed.trips where !report.cancelled && !seen.contains(report.tripID) {
                guard let delay = report.delay, model.tripName(report.tripID) != nil else { continue }
                seen.insert(report.tripID)
                let progress = model.progress(ofTrip: report.tripID, delay: delay, at: now)
                let place =
                    positions[report.tripID].map { ($0.coordinate, $0.bearing) }
                    ?? progress.map { ($0.coordinate, Optional($0.bearing)) }
                trains.append(entry(report.tripID, delay: delay, source: .feed, riders: count(report.tripID), place: place))
            }
        }
        for (trip, seenBy) in riders.sorted(by: { $0.key < $1.key }) where !seen.contains(trip) {
            guard let delay = RiderTrains.agreedDelay(seenBy, minimumRiders: 1) else { continue }
            let place = model.progress(ofTrip: trip, delay: delay, at: now).map { ($0.coordinate, Optional($0.bearing)) }
            trains.append(entry(trip, delay: delay, source: .riders, riders: count(trip), place: place))
        }
        return "{\"trains\":" + JSONObjectWriter.array(trains) + "}"
    }

    private func entry(
        _ trip: String, delay: Seconds, source: DelaySource, riders: Int, place: (Coordinate, Degrees?)?
    ) -> String {
        var object = JSONObjectWriter()
        object.string("trip", trip)
        object.string("train", board.model.tripName(trip))
        object.string("railway", board.model.railwayID(ofTrip: trip))
        object.number("delaySeconds", delay.rounded())
        object.string("source", source == .feed ? "operator" : "riders")
        object.integer("riders", riders)
        object.number("lat", place?.0.latitude)
        object.number("lon", place?.0.longitude)
        object.number("bearing", place?.1.map { $0.rounded() })
        return object.finish()
    }
}
