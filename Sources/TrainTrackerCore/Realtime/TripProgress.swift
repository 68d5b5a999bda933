/// Where a scheduled train is and when it reaches its next stations, worked out from its
/// timetable and a delay alone: what a feed published from riders says about their train
/// (its position is the train's on its track, never a rider's).
public struct TripProgress: Hashable, Sendable {
    /// One station still to come.
    public struct Call: Hashable, Sendable {
        /// The station's id.
        public var stationID: String
        /// Its place among the trip's calls, from 1: GTFS `stop_sequence` where a feed numbers
        /// each trip's calls 1, 2, 3 ... (Caltrain's does; the timetable keeps no other).
        public var sequence: Int
        /// When the train arrives, delay included.
        public var arrival: Timestamp
        /// When it leaves (nil at its last stop), delay included.
        public var departure: Timestamp?
        /// The 10th–90th percentile interval of `arrival`, when an arrival model predicted it
        /// (`ArrivalModel`; nil: the timetable's time plus the delay, no interval told).
        public var interval: ClosedRange<Timestamp>?

        /// A call still to come.
        public init(
            stationID: String, sequence: Int, arrival: Timestamp, departure: Timestamp?,
            interval: ClosedRange<Timestamp>? = nil
        ) {
            self.stationID = stationID
            self.sequence = sequence
            self.arrival = arrival
            self.departure = departure
            self.interval = interval
        }
    }

    /// The service day of the run (GTFS-realtime `start_date`).
    public var serviceDay: CivilDay
    /// Where the train is on its track.
    public var coordinate: Coordinate
    /// Its heading there, degrees clockwise from north.
    public var bearing: Degrees
    /// The stations still to come, in calling order (at a station: that one first).
    public var nextCalls: [Call]
}

extension TrackerModel {
    /// A train this long before its first departure or after its last arrival is not running.
    /// Set by hand on 2026-11-25 with the published riders' feed; the reason for ten minutes
    /// is not recorded.
    public static let progressMargin: Seconds = 600

    /// Where trip `tripID` is at `time` when it runs `delay` seconds late, and its times at the
    /// stations still to come, on the service day (today's or yesterday's) whose run is under
    /// way then. Nil for a trip the timetable lacks or that is not running at `time`.
    /// With `trips` whose arrival model holds on the trip's line (`TripModelParameters.arrivalModel(on:)`),
    /// each arrival is the model's prediction from `delay` as measured at `measured` (default:
    /// `time`), with its interval; else the timetable's arrival plus `delay`.
    ///
    /// - Complexity: O(C) for the trip's C calls.
    public func progress(
        ofTrip tripID: String, delay: Seconds, at time: Timestamp, trips parameters: TripModelParameters? = nil,
        measured: Timestamp? = nil
    )
        -> TripProgress?
    {
        guard let place = tripIndex[tripID], delay.isFinite else { return nil }
        let line = LineDirection(index: Int(place.line))
        let railway = network.railways[line.railway]
        let trip = trips[line: line][Int(place.trip)]
        var calls: [(slot: Int, arrival: Seconds, departure: Seconds?)] = trip.departures.map {
            (Int($0.slot), Seconds($0.time) - PassageEvidence.dwell, Seconds($0.time))
        }
        if let end = trip.arrival { calls.append((Int(end.slot), Seconds(end.time), nil)) }
        if let first = calls.first { calls[0].arrival = first.departure ?? first.arrival }
        let positions = network.stationAlongTrack[line.railway]
        guard calls.count >= 2, calls.allSatisfy({ positions.indices.contains($0.slot) }),
            let start = calls.first?.departure, let end = calls.last?.arrival
        else { return nil }
        let day = zone.day(of: time)
        for serviceDay in [day, day.adding(-1)] {
            let origin = zone.serviceDayOrigin(serviceDay)
            // The schedule's clock the train has reached.
            let clock = time.secondsSince1970 - origin - delay
            guard (start - Self.progressMargin)...(end + Self.progressMargin) ~= clock, clock <= end else { continue }
            let walk = TrackWalk(railway: railway, direction: line.direction)
            // The first call not yet left (or being arrived at).
            let next = calls.firstIndex { ($0.departure ?? $0.arrival) > clock } ?? calls.count - 1
            var along = positions[calls[next].slot]
            if next > 0, clock < calls[next].arrival {
                let from = calls[next - 1]
                let stretch = walk.distanceAhead(from: positions[from.slot], to: along)
                let span = calls[next].arrival - (from.departure ?? from.arrival)
                let share = span > 0 ? min(max((clock - (from.departure ?? from.arrival)) / span, 0), 1) : 1
                along = walk.advance(positions[from.slot], by: stretch * share)
            }
            let point = railway.track.polyline.point(atAlongTrack: along)
            let stations = network.railwayStations[line.railway]
            let arrivals = parameters.flatMap { $0.sanitised.arrivalModel(on: railway) }
            let nextCalls = calls[next...].enumerated().map { offset, call in
                var predicted = TripProgress.Call(
                    stationID: network.stations[stations[call.slot]].id, sequence: next + offset + 1,
                    arrival: Timestamp(secondsSince1970: origin + call.arrival + delay),
                    departure: call.departure.map { Timestamp(secondsSince1970: origin + $0 + delay) })
                if let arrivals {
                    predicted.predict(
                        by: arrivals, published: origin + (call.departure ?? call.arrival), stopsBefore: offset, delay: delay,
                        at: measured ?? time)
                }
                return predicted
            }
            // The polyline's course runs with its drawing: turned round for the other way.
            let bearing = line.direction == .ascending ? point.course : (point.course + 180).truncatingRemainder(dividingBy: 360)
            return TripProgress(serviceDay: serviceDay, coordinate: point.coordinate, bearing: bearing, nextCalls: nextCalls)
        }
        return nil
    }
}

extension TripProgress.Call {
    /// The arrival and its interval as `model` predicts them for a call published at
    /// `published` (seconds since 1970), `stopsBefore` calls on, of a train `delay` late at
    /// `time`; the departure not before it.
    mutating func predict(by model: ArrivalModel, published: Seconds, stopsBefore: Int, delay: Seconds, at time: Timestamp) {
        let minutes = ArrivalModel.minutesAhead(published: published, delay: delay, now: time.secondsSince1970)
        let predicted = model.predict(at: stopsBefore, minutesAhead: minutes, low: delay, median: delay, high: delay)
        arrival = Timestamp(secondsSince1970: published + predicted.centre)
        interval =
            Timestamp(secondsSince1970: published + predicted.low)...Timestamp(secondsSince1970: published + predicted.high)
        departure = departure.map { max($0, arrival) }
    }
}
