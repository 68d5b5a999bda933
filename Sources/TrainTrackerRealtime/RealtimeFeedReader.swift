import Foundation
import SwiftProtobuf
import TrainTrackerCore

/// Why a GTFS-realtime feed could not be read, naming the feed.
public struct RealtimeError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `feeds/0001.pb: not a GTFS-realtime feed (truncated)`.
    public var problem: String
    /// `problem`.
    public var description: String { problem }

    /// An error.
    public init(_ problem: String) { self.problem = problem }
}

/// Reads GTFS-realtime feed messages (protocol buffers) into `RealtimeFeed`s: every number is
/// range-checked before it becomes a domain value, and an entity that is not one the tracker
/// can use (no trip id, a delay beyond two days, a position off the earth) is skipped and
/// counted by reason, never a crash.
public enum RealtimeFeedReader {
    /// The largest feed read, in bytes: a whole network's feed is a few megabytes.
    public static let largestFeed = 16 << 20
    /// The most entities one feed may hold (a network's trips and vehicles are thousands):
    /// counted before decoding, so a feed of millions of empty entities costs no memory.
    public static let mostEntities = 200_000
    /// A report measured this long before the feed was made is stale ...
    public static let stalestReport: Seconds = 600
    /// ... and one measured after it (beyond this clock difference) is from the future.
    public static let clockTolerance: Seconds = 60
    /// A delay beyond this either way is not a delay.
    public static let longestDelay: Seconds = 2 * 86_400
    /// Nested messages deeper than this are refused (the format nests five deep).
    static let deepestNesting = 20

    /// What was read: the feed, and the entities left out by reason.
    public struct Reading: Sendable {
        /// The feed.
        public var feed: RealtimeFeed
        /// Entities left out, by reason (`trip update without a trip id`, ...).
        public var skipped: [String: Int]
    }

    /// Reads one feed message from `bytes`; `name` names it in errors.
    ///
    /// - Throws: `RealtimeError` when the bytes are not a feed message, are larger than
    ///   `largestFeed` or hold more than `mostEntities`, the header has no timestamp or one that
    ///   names no moment, or the feed is DIFFERENTIAL (it lists only changes, which a reader of
    ///   one message cannot apply).
    public static func read(_ bytes: [UInt8], name: String) throws(RealtimeError) -> Reading {
        guard bytes.count <= largestFeed else {
            throw RealtimeError("\(name): \(bytes.count) bytes, more than a feed's \(largestFeed)")
        }
        let entities = entityCount(bytes)
        guard entities <= mostEntities else {
            throw RealtimeError("\(name): \(entities) entities, more than a feed's \(mostEntities)")
        }
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = deepestNesting
        let message: TransitRealtime_FeedMessage
        do {
            message = try TransitRealtime_FeedMessage(serializedBytes: bytes, options: options)
        } catch {
            throw RealtimeError("\(name): not a GTFS-realtime feed (\(error))")
        }
        guard message.header.hasTimestamp, let timestamp = time(message.header.timestamp) else {
            throw RealtimeError("\(name): the feed's header has no timestamp, or one that names no moment")
        }
        guard message.header.incrementality != .differential else {
            throw RealtimeError("\(name): a DIFFERENTIAL feed (only full datasets are read)")
        }
        var reading = Reading(feed: RealtimeFeed(timestamp: timestamp), skipped: [:])
        var seenTrips = Set<String>()
        var twice = Set<String>()
        for entity in message.entity {
            if entity.isDeleted {
                reading.skipped["deleted entity", default: 0] += 1
                continue
            }
            if entity.hasTripUpdate {
                switch tripReport(entity.tripUpdate, feedTime: timestamp) {
                case .success(let report):
                    if !seenTrips.insert(report.tripID + "\u{1}" + (report.startDate.map { "\($0.daysSince1970)" } ?? ""))
                        .inserted
                    {
                        twice.insert(report.tripID)
                    }
                    reading.feed.trips.append(report)
                case .failure(let reason): reading.skipped[reason.problem, default: 0] += 1
                }
            }
            if entity.hasVehicle {
                switch vehicleReport(entity.vehicle, feedTime: timestamp) {
                case .success(let report): reading.feed.vehicles.append(report)
                case .failure(let reason): reading.skipped[reason.problem, default: 0] += 1
                }
            }
            if !entity.hasTripUpdate, !entity.hasVehicle { reading.skipped["entity of another kind", default: 0] += 1 }
        }
        // A trip reported twice for one day says two things: neither is believed.
        if !twice.isEmpty {
            let before = reading.feed.trips.count
            reading.feed.trips.removeAll { twice.contains($0.tripID) }
            reading.skipped["trip reported twice", default: 0] += before - reading.feed.trips.count
        }
        return reading
    }

    /// How many entities (field 2) the top level of a feed message holds, read off the wire
    /// without decoding them; the count so far where the bytes stop making sense (the decoder
    /// then says what is wrong).
    static func entityCount(_ bytes: [UInt8]) -> Int {
        var index = 0
        var count = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while index < bytes.count, let key = varint() {
            switch key & 7 {
            case 0: guard varint() != nil else { return count }
            case 1: index += 8
            case 5: index += 4
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - min(index, bytes.count)) else { return count }
                index += Int(length)
                if key >> 3 == 2 { count += 1 }
            default: return count
            }
        }
        return count
    }

    /// A trip update as a report: cancelled, or its delay (the trip's own, else the first
    /// stop-time update's with a delay: updates are sorted by stop, and a feed drops the stops
    /// passed, so the first is the next stop's).
    static func tripReport(_ update: TransitRealtime_TripUpdate, feedTime: Timestamp) -> Result<TripReport, RealtimeError> {
        let trip = update.trip
        guard trip.hasTripID, !trip.tripID.isEmpty else { return .failure(RealtimeError("trip update without a trip id")) }
        // An added, duplicated or replacement trip runs beside the scheduled one of its id.
        if [.added, .duplicated, .replacement, .unscheduled].contains(trip.scheduleRelationship) {
            return .failure(RealtimeError("trip not in the timetable (added, duplicated or unscheduled)"))
        }
        var startDate: CivilDay?
        if trip.hasStartDate {
            guard let day = CivilDay(gtfs: trip.startDate) else { return .failure(RealtimeError("start date that names no day")) }
            startDate = day
        }
        let cancelled = trip.scheduleRelationship == .canceled || trip.scheduleRelationship == .deleted
        var delay: Seconds?
        for stop in update.stopTimeUpdate where stop.scheduleRelationship == .scheduled {
            if stop.hasDeparture, stop.departure.hasDelay {
                delay = Seconds(stop.departure.delay)
            } else if stop.hasArrival, stop.arrival.hasDelay {
                delay = Seconds(stop.arrival.delay)
            }
            if delay != nil { break }
        }
        if delay == nil, update.hasDelay { delay = Seconds(update.delay) }
        if let delay, abs(delay) > longestDelay {
            return .failure(RealtimeError("delay beyond two days"))
        }
        var measured = feedTime
        if update.hasTimestamp {
            guard let time = time(update.timestamp) else { return .failure(RealtimeError("trip update at no moment")) }
            guard fresh(time, feedTime: feedTime) else { return .failure(RealtimeError("stale or future trip update")) }
            measured = time
        }
        var report = TripReport(tripID: trip.tripID, startDate: startDate, cancelled: cancelled, delay: delay, measured: measured)
        if trip.hasRouteID, !trip.routeID.isEmpty { report.routeID = trip.routeID }
        return .success(report)
    }

    /// A vehicle position as a report, if it is a position on the earth at a moment.
    static func vehicleReport(_ vehicle: TransitRealtime_VehiclePosition, feedTime: Timestamp) -> Result<
        VehicleReport, RealtimeError
    > {
        guard vehicle.hasPosition else { return .failure(RealtimeError("vehicle without a position")) }
        let latitude = Double(vehicle.position.latitude)
        let longitude = Double(vehicle.position.longitude)
        guard DomainRange.latitude.contains(latitude), DomainRange.longitude.contains(longitude),
            latitude != 0 || longitude != 0
        else { return .failure(RealtimeError("vehicle position off the earth")) }
        var time = feedTime
        if vehicle.hasTimestamp {
            guard let measured = Self.time(vehicle.timestamp) else { return .failure(RealtimeError("vehicle at no moment")) }
            guard fresh(measured, feedTime: feedTime) else { return .failure(RealtimeError("stale or future vehicle position")) }
            time = measured
        }
        let tripID = vehicle.hasTrip && vehicle.trip.hasTripID && !vehicle.trip.tripID.isEmpty ? vehicle.trip.tripID : nil
        let vehicleID =
            vehicle.hasVehicle
            ? (vehicle.vehicle.hasID ? vehicle.vehicle.id : vehicle.vehicle.hasLabel ? vehicle.vehicle.label : nil)
            : nil
        return .success(
            VehicleReport(
                tripID: tripID, vehicleID: vehicleID, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                time: time))
    }

    /// Whether a report measured at `time` speaks for a feed made at `feedTime`.
    static func fresh(_ time: Timestamp, feedTime: Timestamp) -> Bool {
        let age = feedTime.seconds(since: time)
        return age <= stalestReport && age >= -clockTolerance
    }

    /// Seconds since 1970 as a moment, if within the years a timestamp may name.
    static func time(_ seconds: UInt64) -> Timestamp? {
        guard seconds <= UInt64(DomainRange.secondsSince1970.upperBound) else { return nil }
        return Timestamp(secondsSince1970: Double(seconds))
    }
}
