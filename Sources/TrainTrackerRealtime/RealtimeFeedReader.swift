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

    /// Reads one feed message from `bytes`; `name` names it in errors. The entities are
    /// counted on the wire, then decoded one at a time: an entity that is malformed, lacks a
    /// field the format requires, or holds more than `mostStopTimeUpdates` is skipped and
    /// counted, and the rest are read.
    ///
    /// - Throws: `RealtimeError` when the bytes are not a feed message (at its top level), are
    ///   larger than `largestFeed` or hold more than `mostEntities`, the header has no timestamp
    ///   or one that names no moment, or the feed is DIFFERENTIAL (it lists only changes, which
    ///   a reader of one message cannot apply).
    public static func read(_ bytes: [UInt8], name: String) throws(RealtimeError) -> Reading {
        guard bytes.count <= largestFeed else {
            throw RealtimeError("\(name): \(bytes.count) bytes, more than a feed's \(largestFeed)")
        }
        let (header, entities) = try topLevel(bytes, name: name)
        guard header.hasTimestamp, let timestamp = time(header.timestamp) else {
            throw RealtimeError("\(name): the feed's header has no timestamp, or one that names no moment")
        }
        guard header.incrementality != .differential else {
            throw RealtimeError("\(name): a DIFFERENTIAL feed (only full datasets are read)")
        }
        var reading = Reading(feed: RealtimeFeed(timestamp: timestamp), skipped: [:])
        var seenTrips = Set<String>()
        var twice = Set<String>()
        for range in entities {
            guard let entity = decodeEntity(bytes, range, skipped: &reading.skipped) else { continue }
            if entity.hasTripUpdate {
                switch tripReport(entity.tripUpdate, feedTime: timestamp) {
                case .success(let report):
                    if !seenTrips.insert(tripDay(report)).inserted { twice.insert(tripDay(report)) }
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
        // A trip reported twice for one day says two things: neither is believed (its reports
        // for other days stand).
        if !twice.isEmpty {
            let before = reading.feed.trips.count
            reading.feed.trips.removeAll { twice.contains(tripDay($0)) }
            reading.skipped["trip reported twice", default: 0] += before - reading.feed.trips.count
        }
        return reading
    }

    /// The most headers a feed may give (a feed has one; a message field given again is merged
    /// into it, and millions of them would cost as much as millions of entities).
    static let mostHeaders = 16

    /// The most stop-time updates one trip update may hold: a trip calls at a few hundred
    /// stations at most, and a million empty updates cost a gigabyte decoded.
    public static let mostStopTimeUpdates = 1_000

    /// A trip and the service day its report names, as one key.
    private static func tripDay(_ report: TripReport) -> String {
        report.tripID + "\u{1}" + (report.startDate.map { "\($0.daysSince1970)" } ?? "")
    }

    /// The feed's header, and where each entity (field 2) lies, read off the wire: the header
    /// decoded, the entities counted but not.
    private static func topLevel(_ bytes: [UInt8], name: String) throws(RealtimeError) -> (
        TransitRealtime_FeedHeader, [Range<Int>]
    ) {
        var headers: [Range<Int>] = []
        var entities: [Range<Int>] = []
        var entityCount = 0
        var headerCount = 0
        var notMessages = 0
        do {
            try WireFields.visit(bytes, in: bytes.indices) { field in
                guard field.number == 1 || field.number == 2 else { return }
                guard field.wireType == WireFields.Field.lengthDelimited else {
                    notMessages += 1
                    return
                }
                if field.number == 1 {
                    headerCount += 1
                    if headerCount <= mostHeaders { headers.append(field.value) }
                } else {
                    // (Counted past the most, kept no further: a list of millions costs memory too.)
                    entityCount += 1
                    if entityCount <= mostEntities { entities.append(field.value) }
                }
            }
        } catch {
            throw RealtimeError("\(name): not a GTFS-realtime feed (\(error))")
        }
        guard notMessages == 0 else {
            throw RealtimeError("\(name): not a GTFS-realtime feed (a header or entity that is no message)")
        }
        guard (1...mostHeaders).contains(headerCount) else {
            throw RealtimeError("\(name): not a GTFS-realtime feed (\(headerCount) headers)")
        }
        guard entityCount <= mostEntities else {
            throw RealtimeError("\(name): \(entityCount) entities, more than a feed's \(mostEntities)")
        }
        var header = TransitRealtime_FeedHeader()
        do {
            // (A message field given twice is the two merged, as a decoder of the whole reads it.)
            for range in headers { try header.merge(serializedBytes: Array(bytes[range]), partial: true, options: options) }
        } catch {
            throw RealtimeError("\(name): not a GTFS-realtime feed (\(error))")
        }
        return (header, entities)
    }

    /// How entities are decoded: nested no deeper than a feed nests.
    private static var options: BinaryDecodingOptions {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = deepestNesting
        return options
    }

    /// The entity in `bytes[range]`, or nil (counted in `skipped`) when it is malformed, lacks
    /// a field the format requires, or its trip update holds more than `mostStopTimeUpdates`.
    private static func decodeEntity(
        _ bytes: [UInt8], _ range: Range<Int>, skipped: inout [String: Int]
    ) -> TransitRealtime_FeedEntity? {
        do {
            // Its trip update's (field 3) stop-time updates (field 2), counted; a trip update
            // that is no message hides what it holds from the count, and is malformed.
            var updates = 0
            var hidden = false
            try WireFields.visit(bytes, in: range) { field in
                guard field.number == 3, field.wireType == WireFields.Field.lengthDelimited else { return }
                do { updates += try WireFields.count(2, in: bytes, field.value) } catch { hidden = true }
            }
            guard !hidden else { throw WireFields.Problem.foreignWireType }
            guard updates <= mostStopTimeUpdates else {
                skipped["trip update with more than \(mostStopTimeUpdates) stop-time updates", default: 0] += 1
                return nil
            }
            let entity = try TransitRealtime_FeedEntity(serializedBytes: Array(bytes[range]), partial: true, options: options)
            guard entity.isInitialized else {
                skipped["entity without a field the format requires", default: 0] += 1
                return nil
            }
            if entity.isDeleted {
                skipped["deleted entity", default: 0] += 1
                return nil
            }
            return entity
        } catch {
            skipped["malformed entity", default: 0] += 1
            return nil
        }
    }

    /// A trip update as a report: cancelled, or its delay (the first scheduled stop-time
    /// update's with a delay: updates are sorted by stop, and a feed drops the stops passed, so
    /// the first is the next stop's; else the trip's own).
    static func tripReport(_ update: TransitRealtime_TripUpdate, feedTime: Timestamp) -> Result<TripReport, RealtimeError> {
        let trip = update.trip
        guard trip.hasTripID, !trip.tripID.isEmpty else { return .failure(RealtimeError("trip update without a trip id")) }
        if runsBeside(trip.scheduleRelationship) {
            return .failure(RealtimeError("trip not in the timetable (added, new, duplicated or unscheduled)"))
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

    /// Whether a trip of this relationship runs beside the scheduled trip of its id (added,
    /// new: the newer name of added, duplicated, replacement, unscheduled), not as it.
    static func runsBeside(_ relationship: TransitRealtime_TripDescriptor.ScheduleRelationship) -> Bool {
        [.added, .new, .duplicated, .replacement, .unscheduled].contains(relationship)
    }

    /// A vehicle position as a report, if it is a position on the earth at a moment (a
    /// vehicle on a run beside the timetable, `runsBeside`, is on no trip of it).
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
        let scheduled = vehicle.hasTrip && !runsBeside(vehicle.trip.scheduleRelationship)
        let tripID = scheduled && vehicle.trip.hasTripID && !vehicle.trip.tripID.isEmpty ? vehicle.trip.tripID : nil
        let vehicleID =
            vehicle.hasVehicle
            ? (vehicle.vehicle.hasID ? vehicle.vehicle.id : vehicle.vehicle.hasLabel ? vehicle.vehicle.label : nil)
            : nil
        // (A start date that names no day is left out, the position kept: it still says
        // where the train is.)
        let startDate = vehicle.hasTrip && vehicle.trip.hasStartDate ? CivilDay(gtfs: vehicle.trip.startDate) : nil
        // A bearing outside a turn (or not a number) is left out, the position kept.
        let bearing = Double(vehicle.position.bearing)
        let heading = vehicle.position.hasBearing && (0...360).contains(bearing) ? bearing : nil
        return .success(
            VehicleReport(
                tripID: tripID, vehicleID: vehicleID, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                time: time, bearing: heading, startDate: startDate))
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
