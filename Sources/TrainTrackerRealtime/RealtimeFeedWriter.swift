import SwiftProtobuf
import TrainTrackerCore

/// Writes `RealtimeFeed`s as GTFS-realtime feed messages (version 2.0, full dataset): a
/// TripUpdate per trip (its delay as the trip's `delay`, a cancelled trip CANCELED) and a
/// VehiclePosition per vehicle.
public enum RealtimeFeedWriter {
    /// The feed message of `feed`.
    public static func message(_ feed: RealtimeFeed) -> TransitRealtime_FeedMessage {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.incrementality = .fullDataset
        // (Rounded up: a feed is never seen before it was made.)
        message.header.timestamp = seconds(feed.timestamp, rounding: .up)
        for (index, report) in feed.trips.enumerated() {
            var entity = TransitRealtime_FeedEntity()
            entity.id = "trip-\(index + 1)"
            entity.tripUpdate.trip.tripID = report.tripID
            if report.cancelled { entity.tripUpdate.trip.scheduleRelationship = .canceled }
            if let day = report.startDate { entity.tripUpdate.trip.startDate = day.gtfs }
            if let route = report.routeID { entity.tripUpdate.trip.routeID = route }
            // (A delay that is not a number is left out, never written as on time.)
            if let delay = report.delay, let seconds = Int(wholeNumber: delay.rounded()) {
                entity.tripUpdate.delay = Int32(clamping: seconds)
            }
            if let measured = report.measured { entity.tripUpdate.timestamp = seconds(measured) }
            entity.tripUpdate.stopTimeUpdate = report.nextCalls.map(stopTimeUpdate)
            message.entity.append(entity)
        }
        for (index, report) in feed.vehicles.enumerated() {
            var entity = TransitRealtime_FeedEntity()
            entity.id = "vehicle-\(index + 1)"
            if let trip = report.tripID { entity.vehicle.trip.tripID = trip }
            if let vehicle = report.vehicleID { entity.vehicle.vehicle.id = vehicle }
            entity.vehicle.position.latitude = Float(report.coordinate.latitude)
            entity.vehicle.position.longitude = Float(report.coordinate.longitude)
            if let bearing = report.bearing, bearing.isFinite { entity.vehicle.position.bearing = Float(bearing) }
            if let day = report.startDate { entity.vehicle.trip.startDate = day.gtfs }
            entity.vehicle.timestamp = seconds(report.time)
            message.entity.append(entity)
        }
        return message
    }

    /// A station still to come, with its expected arrival (and its uncertainty, where an
    /// arrival model gave an interval) and departure times, by its place
    /// in the trip (`stop_sequence`): the timetable's station ids are its own, not a feed's
    /// platform `stop_id`s.
    static func stopTimeUpdate(_ call: TripProgress.Call) -> TransitRealtime_TripUpdate.StopTimeUpdate {
        var update = TransitRealtime_TripUpdate.StopTimeUpdate()
        update.stopSequence = UInt32(clamping: call.sequence)
        update.arrival.time = Int64(clamping: Int(wholeNumber: call.arrival.secondsSince1970.rounded()) ?? 0)
        // (The format's one number for how far off the time may be: half the interval.)
        if let interval = call.interval,
            let half = Int(wholeNumber: (interval.upperBound.seconds(since: interval.lowerBound) / 2).rounded())
        {
            update.arrival.uncertainty = Int32(clamping: half)
        }
        if let departure = call.departure {
            update.departure.time = Int64(clamping: Int(wholeNumber: departure.secondsSince1970.rounded()) ?? 0)
        }
        return update
    }

    /// The bytes of `feed`'s message.
    public static func bytes(_ feed: RealtimeFeed) -> [UInt8] {
        // (A message built here has every required field: serialising it cannot fail.)
        (try? message(feed).serializedBytes()) ?? []
    }

    /// Seconds since 1970 as the format's unsigned count (0 before 1970).
    static func seconds(_ time: Timestamp, rounding: FloatingPointRoundingRule = .down) -> UInt64 {
        UInt64(clamping: Int(wholeNumber: max(0, time.secondsSince1970).rounded(rounding)) ?? 0)
    }
}
