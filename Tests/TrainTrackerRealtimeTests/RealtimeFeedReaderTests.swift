import Foundation
import SwiftProtobuf
import Testing
import TrainTrackerCore
import TrainTrackerRealtime

/// Reading GTFS-realtime: what a feed says becomes domain values, and whatever else arrives is
/// refused or skipped with its reason, never a crash.
@Suite struct RealtimeFeedReaderTests {
    static let noon = Timestamp(secondsSince1970: 1_732_910_400)  // 2024-11-29 20:00 UTC

    @Test func aFeedWrittenIsReadBackAsItWas() throws {
        let feed = RealtimeFeed(
            timestamp: Self.noon,
            trips: [
                TripReport(tripID: "143", delay: 150, measured: Self.noon.adding(-30)),
                TripReport(tripID: "515", cancelled: true, measured: Self.noon),
            ],
            vehicles: [
                VehicleReport(
                    tripID: "143", coordinate: Coordinate(latitude: 37.5, longitude: -122.25), time: Self.noon.adding(-30))
            ])
        let reading = try RealtimeFeedReader.read(RealtimeFeedWriter.bytes(feed), name: "feed.pb")
        #expect(reading.feed.timestamp == Self.noon)
        #expect(reading.feed.trips == feed.trips)
        #expect(reading.feed.vehicles.count == 1)
        let vehicle = try #require(reading.feed.vehicles.first)
        #expect(vehicle.tripID == "143")
        // (Positions travel as 32-bit floats: a metre or two.)
        #expect(vehicle.coordinate.distance(to: feed.vehicles[0].coordinate) < 3)
        #expect(reading.skipped.isEmpty)
    }

    /// A call with an interval says how far off its arrival may be (half the interval, the
    /// format's `uncertainty`); one without says nothing of it.
    @Test func aPredictedArrivalCarriesItsUncertainty() throws {
        let arrival = Self.noon.adding(300)
        let calls = [
            TripProgress.Call(
                stationID: "70011", sequence: 4, arrival: arrival, departure: arrival.adding(30),
                interval: arrival.adding(-40)...arrival.adding(81)),
            TripProgress.Call(stationID: "70021", sequence: 5, arrival: arrival.adding(240), departure: nil),
        ]
        let feed = RealtimeFeed(timestamp: Self.noon, trips: [TripReport(tripID: "143", delay: 150, nextCalls: calls)])
        let updates = try #require(RealtimeFeedWriter.message(feed).entity.first?.tripUpdate.stopTimeUpdate)
        #expect(updates.count == 2)
        #expect(updates[0].arrival.time == Int64(arrival.secondsSince1970) && updates[0].arrival.uncertainty == 61)
        #expect(updates[0].stopSequence == 4 && updates[0].departure.time == Int64(arrival.secondsSince1970) + 30)
        #expect(!updates[1].arrival.hasUncertainty && !updates[1].hasDeparture)
    }

    /// Per the reference: the first stop-time update's delay is the trip's for the stops to
    /// come (past stops are dropped), its departure's before its arrival's; a trip-level
    /// delay counts only without one.
    @Test func theNextStopsDelayWinsOverTheTrips() throws {
        var message = RealtimeFeedWriter.message(RealtimeFeed(timestamp: Self.noon))
        var entity = TransitRealtime_FeedEntity()
        entity.id = "1"
        entity.tripUpdate.trip.tripID = "143"
        entity.tripUpdate.delay = 30
        var skipped = TransitRealtime_TripUpdate.StopTimeUpdate()
        skipped.scheduleRelationship = .skipped
        skipped.departure.delay = 999
        var next = TransitRealtime_TripUpdate.StopTimeUpdate()
        next.arrival.delay = 200
        next.departure.delay = 240
        var later = TransitRealtime_TripUpdate.StopTimeUpdate()
        later.departure.delay = 400
        entity.tripUpdate.stopTimeUpdate = [skipped, next, later]
        message.entity = [entity]
        let reading = try RealtimeFeedReader.read(try message.serializedBytes(), name: "feed.pb")
        #expect(reading.feed.trips.first?.delay == 240)
    }

    /// Each entity the tracker cannot use is left out with its reason; the rest is read.
    @Test(arguments: [
        "trip update without a trip id", "delay beyond two days", "vehicle position off the earth", "vehicle NaN",
        "vehicle without a position", "vehicle at no moment", "deleted entity", "entity of another kind",
        "stale or future trip update", "future trip update", "trip not in the timetable (added, new, duplicated or unscheduled)",
        "start date that names no day", "entity without a field the format requires",
        "trip update with more than 1000 stop-time updates", "a new trip",
    ])
    func anEntityTheTrackerCannotUseIsSkippedWithItsReason(what: String) throws {
        var message = RealtimeFeedWriter.message(
            RealtimeFeed(timestamp: Self.noon, trips: [TripReport(tripID: "good", delay: 60)]))
        var entity = TransitRealtime_FeedEntity()
        entity.id = "bad"
        var reason = what
        switch what {
        case "trip update without a trip id": entity.tripUpdate.trip.routeID = "L"
        case "delay beyond two days":
            entity.tripUpdate.trip.tripID = "1"
            entity.tripUpdate.delay = 200_000
        case "vehicle position off the earth":
            entity.vehicle.position.latitude = 95
            entity.vehicle.position.longitude = 10
        case "vehicle NaN":
            entity.vehicle.position.latitude = .nan
            entity.vehicle.position.longitude = 10
            reason = "vehicle position off the earth"
        case "vehicle without a position": entity.vehicle.trip.tripID = "1"
        case "vehicle at no moment":
            entity.vehicle.position.latitude = 37
            entity.vehicle.position.longitude = -122
            entity.vehicle.timestamp = .max
        case "deleted entity":
            entity.isDeleted = true
            entity.tripUpdate.trip.tripID = "1"
        case "stale or future trip update":
            entity.tripUpdate.trip.tripID = "1"
            entity.tripUpdate.timestamp = UInt64(Self.noon.secondsSince1970) - 3_600
        case "future trip update":
            entity.tripUpdate.trip.tripID = "1"
            entity.tripUpdate.timestamp = UInt64(Self.noon.secondsSince1970) + 3_600
            reason = "stale or future trip update"
        case "trip not in the timetable (added, new, duplicated or unscheduled)":
            entity.tripUpdate.trip.tripID = "1"
            entity.tripUpdate.trip.scheduleRelationship = .added
        case "a new trip":
            entity.tripUpdate.trip.tripID = "1"
            entity.tripUpdate.trip.scheduleRelationship = .new
            reason = "trip not in the timetable (added, new, duplicated or unscheduled)"
        case "start date that names no day":
            entity.tripUpdate.trip.tripID = "1"
            entity.tripUpdate.trip.startDate = "20241332"
        case "entity without a field the format requires":
            entity.vehicle.trip.tripID = "1"
            entity.vehicle.position.latitude = 37  // and no longitude, which a position requires
        case "trip update with more than 1000 stop-time updates":
            entity.tripUpdate.trip.tripID = "1"
            entity.tripUpdate.stopTimeUpdate = Array(repeating: .init(), count: 1_001)
        default: break
        }
        message.entity.append(entity)
        // (Partial: the entity that lacks a required field is written as it is.)
        let reading = try RealtimeFeedReader.read(try message.serializedBytes(partial: true), name: "feed.pb")
        #expect(reading.skipped == [reason: 1])
        #expect(reading.feed.trips.map(\.tripID) == ["good"])
    }

    /// An entity whose bytes are no message is skipped like one the tracker cannot use: the
    /// feed's other entities are decoded one by one and read.
    @Test(
        arguments: [
            ("a group hiding stop-time updates in its trip update", [0x1A, 0x04, 0x2B, 0x2C, 0x12, 0x00]),
            ("truncated inside its trip update", [0x1A, 0x03, 0x0A, 0x09, 0x31]),
        ] as [(String, [UInt8])])
    func aMalformedEntityIsSkippedAndTheRestRead(what: String, entity: [UInt8]) throws {
        let good = RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: Self.noon, trips: [TripReport(tripID: "good", delay: 60)]))
        let bytes = Array(good) + [0x12] + Self.varint(entity.count) + entity
        let reading = try RealtimeFeedReader.read(bytes, name: "feed.pb")
        #expect(reading.skipped == ["malformed entity": 1], "\(what)")
        #expect(reading.feed.trips.map(\.tripID) == ["good"], "\(what)")
    }

    /// A vehicle's bearing (when it is a heading) and its trip's start date are read.
    @Test func aVehiclesBearingAndStartDateAreRead() throws {
        var message = RealtimeFeedWriter.message(RealtimeFeed(timestamp: Self.noon))
        for (id, bearing) in [("north-east", Float(45)), ("no heading", Float.nan)] {
            var entity = TransitRealtime_FeedEntity()
            entity.id = id
            entity.vehicle.trip.tripID = id
            entity.vehicle.trip.startDate = "20241129"
            entity.vehicle.position.latitude = 37.5
            entity.vehicle.position.longitude = -122.25
            entity.vehicle.position.bearing = bearing
            message.entity.append(entity)
        }
        let vehicles = try RealtimeFeedReader.read(try message.serializedBytes(), name: "feed.pb").feed.vehicles
        #expect(vehicles.map(\.bearing) == [45, nil])
        #expect(vehicles.allSatisfy { $0.startDate == CivilDay(year: 2024, month: 11, day: 29) })
    }

    /// A vehicle on a run beside the timetable (an added, new or duplicated trip) is not on the
    /// scheduled trip of its id: its position is read, on no trip.
    @Test(arguments: [
        TransitRealtime_TripDescriptor.ScheduleRelationship.added, .new, .duplicated, .replacement, .scheduled,
    ])
    func aVehicleOnARunBesideTheTimetableIsOnNoTrip(relationship: TransitRealtime_TripDescriptor.ScheduleRelationship)
        throws
    {
        var message = RealtimeFeedWriter.message(RealtimeFeed(timestamp: Self.noon))
        var entity = TransitRealtime_FeedEntity()
        entity.id = "v"
        entity.vehicle.trip.tripID = "143"
        entity.vehicle.trip.scheduleRelationship = relationship
        entity.vehicle.position.latitude = 37.5
        entity.vehicle.position.longitude = -122.25
        message.entity.append(entity)
        let vehicles = try RealtimeFeedReader.read(try message.serializedBytes(), name: "feed.pb").feed.vehicles
        #expect(vehicles.count == 1)
        #expect(vehicles.first?.tripID == (relationship == .scheduled ? "143" : nil), "\(relationship)")
    }

    /// A trip reported twice for one day says two things: neither is believed. Its start date
    /// is read as the service day it names.
    @Test func aTripReportedTwiceIsNotBelievedAndAStartDateIsKept() throws {
        var message = RealtimeFeedWriter.message(
            RealtimeFeed(
                timestamp: Self.noon,
                trips: [
                    TripReport(tripID: "twice", delay: 60), TripReport(tripID: "twice", delay: 900),
                    TripReport(tripID: "dated", startDate: CivilDay(year: 2024, month: 11, day: 29), delay: 30),
                ]))
        message.entity[0].id = "a"
        let reading = try RealtimeFeedReader.read(try message.serializedBytes(), name: "feed.pb")
        #expect(reading.skipped == ["trip reported twice": 2])
        #expect(reading.feed.trips.map(\.tripID) == ["dated"])
        #expect(reading.feed.trips.first?.startDate == CivilDay(year: 2024, month: 11, day: 29))
    }

    /// Bytes that are no feed, and feeds the tracker cannot place in time, are refused naming
    /// the file.
    @Test(arguments: [
        ("not a feed", Array("<html>502 Bad Gateway</html>".utf8)),
        ("truncated", Array(RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: noon)).dropLast(3))),
        ("no timestamp", noTimestamp()),
        ("a timestamp naming no moment", timestamp(.max)),
        ("a differential feed", differential()),
        ("a group field, which a decoder skips, before entities", grouped(entities: 1_000)),
        ("a hundred thousand headers", headers(100_000)),
        ("field number 0", fieldNumberZero()),
        ("a group field alone", grouped(entities: 0)),
        (
            "millions of empty entities",
            Array(RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: noon)))
                + Array(repeating: [0x12, 0x00], count: 300_000).flatMap { $0 }
        ),
    ])
    func whatIsNoFeedIsRefusedNamingTheFile(what: String, bytes: [UInt8]) {
        #expect(throws: RealtimeError.self, "\(what)") { try RealtimeFeedReader.read(bytes, name: "feeds/x.pb") }
        do {
            _ = try RealtimeFeedReader.read(bytes, name: "feeds/x.pb")
        } catch {
            #expect(error.problem.hasPrefix("feeds/x.pb: "), "\(what): \(error.problem)")
        }
    }

    /// `count` empty headers (field 1), no entity.
    static func headers(_ count: Int) -> [UInt8] {
        let header: [UInt8] = [0x0A, 0x00]
        return Array(repeating: header, count: count).flatMap { $0 }
    }

    /// A feed, then an empty length-delimited field numbered 0.
    static func fieldNumberZero() -> [UInt8] {
        let zero: [UInt8] = [0x02, 0x00]
        return Array(RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: noon))) + zero
    }

    /// A feed with an empty group (field 5) after its header, then `entities` empty entities.
    static func grouped(entities: Int) -> [UInt8] {
        let header = Array(RealtimeFeedWriter.bytes(RealtimeFeed(timestamp: noon)))
        let group: [UInt8] = [0x2B, 0x2C]
        let empty: [UInt8] = [0x12, 0x00]
        return header + group + Array(repeating: empty, count: entities).flatMap { $0 }
    }

    static func differential() -> [UInt8] {
        var message = RealtimeFeedWriter.message(RealtimeFeed(timestamp: noon))
        message.header.incrementality = .differential
        return (try? message.serializedBytes()) ?? []
    }

    static func noTimestamp() -> [UInt8] {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        return (try? message.serializedBytes()) ?? []
    }

    static func timestamp(_ seconds: UInt64) -> [UInt8] {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = "2.0"
        message.header.timestamp = seconds
        return (try? message.serializedBytes()) ?? []
    }

    static func varint(_ value: Int) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
        return bytes
    }
}
