import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// A GTFS-realtime feed told to the tracker (`RailwayTracker.live`, `LiveTracker`).
@Suite struct LiveTrackerTests {
    static let dataset = DemoRides.dataset
    static let model = TrackerModel(dataset: dataset)

    /// A ride of the demo's eastbound local, simulated on time.
    static func localRide() throws -> [Location] {
        let rides = CaseGenerator(dataset: dataset).cases(count: 12, seed: 12)
        let ride = try #require(rides.first { $0.truth.trainID == "L1" })
        return ride.fixes.map(\.location)
    }

    static func trains(_ fixes: [Location], feed: RealtimeFeed?) -> Set<String> {
        var tracker = RailwayTracker(model: model)
        var named = Set<String>()
        for fix in fixes {
            if let feed { tracker.live = LiveTrips(RealtimeFeed(timestamp: fix.timestamp, trips: feed.trips), model: model) }
            if let train = tracker.process(fix).best?.trainID { named.insert(train) }
        }
        return named
    }

    @Test func aCancelledTripIsNeverTheTrain() throws {
        let fixes = try Self.localRide()
        #expect(Self.trains(fixes, feed: nil).contains("L1"), "without a feed the local is named")
        let cancelled = RealtimeFeed(timestamp: fixes[0].timestamp, trips: [TripReport(tripID: "L1", cancelled: true)])
        #expect(!Self.trains(fixes, feed: cancelled).contains("L1"))
    }

    /// A feed that is not for this timetable (no trip it knows) changes no answer.
    @Test func aFeedOfAnotherTimetableChangesNothing() throws {
        let fixes = try Self.localRide()
        var plain = RailwayTracker(model: Self.model)
        var told = RailwayTracker(model: Self.model)
        let feed = RealtimeFeed(
            timestamp: fixes[0].timestamp,
            trips: [TripReport(tripID: "X9", cancelled: true), TripReport(tripID: "Y7", delay: 600)])
        told.live = LiveTrips(feed, model: Self.model)
        #expect(told.live?.unknownTrips == 2)
        for fix in fixes { #expect(plain.process(fix) == told.process(fix)) }
    }

    /// A feed older than `liveFeedLongest` says nothing; nor does one from after the fix.
    @Test func onlyARecentFeedSpeaks() throws {
        let fixes = try Self.localRide()
        let start = fixes[0].timestamp
        let feed = RealtimeFeed(timestamp: start, trips: [TripReport(tripID: "L1", cancelled: true)])
        var tracker = RailwayTracker(model: Self.model)
        tracker.live = LiveTrips(feed, model: Self.model)
        #expect(tracker.liveFeed(at: start.adding(RailwayTracker.liveFeedLongest)) != nil)
        #expect(tracker.liveFeed(at: start.adding(RailwayTracker.liveFeedLongest + 1)) == nil)
        #expect(tracker.liveFeed(at: start.adding(-1)) == nil)
    }

    /// A report names the service day of the run it speaks for: another day's run of the same
    /// trip id is left alone.
    @Test func aReportForAnotherDayLeavesTodaysTrainAlone() throws {
        let fixes = try Self.localRide()
        let today = Self.model.zone.day(of: fixes[0].timestamp)
        let yesterday = RealtimeFeed(
            timestamp: fixes[0].timestamp, trips: [TripReport(tripID: "L1", startDate: today.adding(-1), cancelled: true)])
        #expect(Self.trains(fixes, feed: yesterday).contains("L1"))
        let todays = RealtimeFeed(
            timestamp: fixes[0].timestamp, trips: [TripReport(tripID: "L1", startDate: today, cancelled: true)])
        #expect(!Self.trains(fixes, feed: todays).contains("L1"))
    }

    /// A vehicle position alone (no trip update) is a report: its trip's delay there, and the
    /// line counts as reported.
    @Test func aVehiclePositionAloneGivesItsTripsDelay() throws {
        let fixes = try Self.localRide()
        let fix = fixes[fixes.count / 2]
        let late = fix.timestamp.adding(240)
        let trips = LiveTrips(
            RealtimeFeed(timestamp: late, vehicles: [VehicleReport(tripID: "L1", coordinate: fix.coordinate, time: late)]),
            model: Self.model)
        let place = try #require(Self.model.tripIndex["L1"])
        let line = LineDirection(index: Int(place.line))
        let origin = Self.model.zone.serviceDayOrigin(Self.model.zone.day(of: late))
        let report = try #require(trips.trip(place.trip, of: line, origin: origin))
        let onTime = try #require(Self.model.delay(ofTrip: "L1", at: fix.coordinate, time: fix.timestamp))
        #expect(abs((report.delay ?? .nan) - (onTime + 240)) < 1, "seen 4 minutes after it was due there: 4 minutes later")
        #expect(trips.reports(line) && trips.vehicles == 1)
    }

    /// A vehicle position far from its trip's track (a wrong trip id, a position gone astray)
    /// is not where that train is: it places nothing and gives no delay, and is counted.
    @Test func aVehicleFarFromItsTrackPlacesNothing() throws {
        let fixes = try Self.localRide()
        let fix = fixes[fixes.count / 2]
        let line = LineDirection(index: Int(try #require(Self.model.tripIndex["L1"]).line))
        // 5.5 km north of a fix on the track.
        let astray = Coordinate(latitude: fix.coordinate.latitude + 0.05, longitude: fix.coordinate.longitude)
        func resolved(_ trips: [TripReport], at coordinate: Coordinate) -> LiveTrips {
            let vehicle = VehicleReport(tripID: "L1", coordinate: coordinate, time: fix.timestamp)
            return LiveTrips(RealtimeFeed(timestamp: fix.timestamp, trips: trips, vehicles: [vehicle]), model: Self.model)
        }
        let onTrack = resolved([TripReport(tripID: "L1", delay: 60)], at: fix.coordinate)
        #expect(onTrack.placedTrains(of: line).count == 1 && onTrack.vehicles == 1 && onTrack.offTrackVehicles == 0)
        let off = resolved([TripReport(tripID: "L1", delay: 60)], at: astray)
        #expect(off.placedTrains(of: line).isEmpty && off.vehicles == 0 && off.offTrackVehicles == 1)
    }

    /// The trains whose places judge a line are an operator's: a riders' report is the riders'
    /// own train, and a cancelled one runs nowhere.
    @Test func onlyAnOperatorsRunningTrainsPlaceALine() throws {
        let fixes = try Self.localRide()
        let fix = fixes[fixes.count / 2]
        let place = try #require(Self.model.tripIndex["L1"])
        let line = LineDirection(index: Int(place.line))
        let seen = [VehicleReport(tripID: "L1", coordinate: fix.coordinate, time: fix.timestamp)]
        let operators = LiveTrips(RealtimeFeed(timestamp: fix.timestamp, vehicles: seen), model: Self.model)
        #expect(operators.placedTrains(of: line).count == 1)
        var riders = TripReport(tripID: "L1", delay: 60)
        riders.fromRiders = true
        let told = LiveTrips(RealtimeFeed(timestamp: fix.timestamp, trips: [riders], vehicles: seen), model: Self.model)
        #expect(told.placedTrains(of: line).isEmpty)
        let cancelled = LiveTrips(
            RealtimeFeed(timestamp: fix.timestamp, trips: [TripReport(tripID: "L1", cancelled: true)], vehicles: seen),
            model: Self.model)
        #expect(cancelled.placedTrains(of: line).isEmpty)
    }

    /// A feed that places only some of a line's trains cannot say the rider's is not among the
    /// others: while it reports a train running now by its timetable without placing it, the
    /// line's trains are not judged by their places. A train it reports that is not running
    /// (due in hours) leaves the others placed.
    @Test func aLineIsPlacedOnlyWhileEveryRunningTrainReportedIsPlaced() throws {
        // L1 leaves at 08:00, L3 at 10:00, the same way.
        let dataset = DemoRides.eastboundLocals(["L1": 28_800, "L3": 36_000])
        let model = TrackerModel(dataset: dataset)
        let network = dataset.network
        let time = morning.adding(200)
        let line = LineDirection(index: Int(try #require(model.tripIndex["L1"]).line))
        let somewhere = try #require(network.stations.first).coordinate
        func placed(_ trips: [TripReport], vehicles: [String]) -> Int {
            let seen = vehicles.map { VehicleReport(tripID: $0, coordinate: somewhere, time: time) }
            return LiveTrips(RealtimeFeed(timestamp: time, trips: trips, vehicles: seen), model: model)
                .placedTrains(of: line).count
        }
        #expect(placed([TripReport(tripID: "L3", delay: 0)], vehicles: ["L3"]) == 1)
        #expect(
            placed([TripReport(tripID: "L1", delay: 60), TripReport(tripID: "L3", delay: 0)], vehicles: ["L3"]) == 0,
            "L1 runs, reported, not placed")
        #expect(placed([TripReport(tripID: "L1", delay: 60)], vehicles: ["L1"]) == 1)
        #expect(placed([TripReport(tripID: "L3", delay: 60)], vehicles: ["L1"]) == 1, "L3 is not running yet")
    }

    /// Between fixes (a tunnel, a phone asleep) the answer follows the train the feed sees,
    /// not the last speed that stops at the next stop.
    @Test func betweenFixesTheAnswerFollowsTheTrainTheFeedSees() throws {
        let rides = CaseGenerator(dataset: Self.dataset).cases(count: 12, seed: 12)
        let ride = try #require(rides.first { $0.truth.trainID == "L1" })
        let fixes = ride.fixes.map(\.location)
        let truthAt = { (time: Timestamp) in ride.truth.fixes.last { $0.time <= time.secondsSince1970 } }
        let stops = ride.truth.stops
        try #require(stops.count == 3)
        // The last fix is taken leaving the first stop; the next, at the third: the phone said
        // nothing in between.
        let last = try #require(fixes.indices.last { truthAt(fixes[$0].timestamp)?.station == stops[0] })
        let later = try #require(
            fixes.indices.first { index in
                let truth = truthAt(fixes[index].timestamp)
                return truth?.station == stops[2] && truth?.phase == .now
            })
        let time = fixes[later].timestamp
        let expected = try #require(truthAt(time)).station
        var tracker = RailwayTracker(model: Self.model)
        for fix in fixes.prefix(last + 1) { _ = tracker.process(fix) }
        #expect(tracker.estimate(at: time).best?.focusStationID != expected, "the last speed stops at the next stop")
        tracker.live = LiveTrips(
            RealtimeFeed(
                timestamp: time, vehicles: [VehicleReport(tripID: "L1", coordinate: fixes[later].coordinate, time: time)]),
            model: Self.model)
        let answer = tracker.estimate(at: time)
        #expect(answer.estimated && answer.best?.focusStationID == expected)
        // Riders' word on the train moves no one: only an operator's does.
        let onTime = try #require(Self.model.delay(ofTrip: "L1", at: fixes[later].coordinate, time: time))
        var told = TripReport(tripID: "L1", delay: onTime)
        told.fromRiders = true
        tracker.live = LiveTrips(RealtimeFeed(timestamp: time, trips: [told]), model: Self.model)
        #expect(tracker.estimate(at: time).best?.focusStationID != expected)
        told.fromRiders = false
        tracker.live = LiveTrips(RealtimeFeed(timestamp: time, trips: [told]), model: Self.model)
        #expect(tracker.estimate(at: time).best?.focusStationID == expected, "an operator's delay alone: its timetable there")
    }

    /// A rider counts for a train once its tracker has named it for `steadiness`, timed by
    /// when its answers were heard: a device that sends a fix dated two minutes back, then
    /// three minutes later a fresh one, has been heard naming the train for three minutes, not
    /// five.
    @Test func steadinessIsTimedByWhenAnswersAreHeard() {
        let answer = TrackingResult(candidates: [
            TrackingCandidate(
                railwayID: DemoNetwork.localID, direction: .ascending, directionName: "Eastbound", destinationStationID: nil,
                focusStationID: "x", phase: .next, laterStationIDs: [], score: 0, confidence: 1, trainID: "L1",
                delaySeconds: 60)
        ])
        let start = morning
        func riders(heard: Bool) -> Int {
            var riders = RiderTrains()
            riders.record(rider: "r", answer: answer, at: start.adding(-120), heard: heard ? start : nil)
            riders.record(rider: "r", answer: answer, at: start.adding(180), heard: heard ? start.adding(180) : nil)
            return riders.riders(at: start.adding(180))["L1"]?.count ?? 0
        }
        #expect(riders(heard: true) == 0, "heard for three minutes")
        #expect(riders(heard: false) == 1, "the fixes' own times span five")
    }

    /// One phone's many sessions are one voice: riders agree by device.
    @Test func ridersAgreeByDeviceNotBySession() {
        let attacker = (0..<16).map { _ in (device: "attacker", delay: Seconds(900)) }
        #expect(RiderTrains.agreedDelay(attacker, minimumRiders: 2) == nil, "sixteen sessions, one device")
        let honest = [(device: "a", delay: Seconds(60)), (device: "b", delay: Seconds(70))]
        #expect(RiderTrains.agreedDelay(attacker + honest, minimumRiders: 2) == 70)
        #expect(RiderTrains.agreedDelay(honest, minimumRiders: 3) == nil)
        #expect(RiderTrains.agreedDelay([], minimumRiders: 0) == nil)
    }

    /// A report whose route is another railway of this timetable is another route's trip
    /// (clashing ids), not ours; a route id the timetable does not use says nothing.
    @Test func aReportOfAnotherRouteIsNotOurs() throws {
        let time = Timestamp(secondsSince1970: 1_758_520_000)
        let other = try #require(Self.model.network.railways.map(\.id).first { $0 != DemoNetwork.localID })
        var clash = TripReport(tripID: "L1", delay: 60)
        clash.routeID = other
        #expect(LiveTrips(RealtimeFeed(timestamp: time, trips: [clash]), model: Self.model).unknownTrips == 1)
        var ours = clash
        ours.routeID = DemoNetwork.localID
        var elsewhere = clash
        elsewhere.routeID = "route-of-a-network-named-otherwise"
        for report in [ours, elsewhere] {
            #expect(LiveTrips(RealtimeFeed(timestamp: time, trips: [report]), model: Self.model).knownTrips == 1)
        }
    }
}
