import Testing
import TrainTrackerLab
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// Riders as sensors, trusted only where they can be: a rider counts for a train while its
/// fixes lie where that train runs, and a fix dated a few seconds ahead (a phone's fast
/// clock) counts as now.
struct RiderTrainsTests {
    static let model = TrackerModel(dataset: DemoRides.dataset)
    /// L1's first departure (08:00).
    static let start = morning

    static func answer(delay: Seconds = 0) -> TrackingResult {
        TrackingResult(candidates: [
            TrackingCandidate(
                railwayID: DemoNetwork.localID, direction: .ascending, directionName: "Eastbound", destinationStationID: nil,
                focusStationID: "x", phase: .next, laterStationIDs: [], score: 0, confidence: 0.99, trainID: "L1",
                delaySeconds: delay)
        ])
    }

    /// Where L1 is `seconds` after its first departure, running on time.
    static func place(after seconds: Seconds) throws -> Coordinate {
        try #require(model.progress(ofTrip: "L1", delay: 0, at: start.adding(seconds))).coordinate
    }

    static func fix(_ coordinate: Coordinate, after seconds: Seconds, accuracy: Meters? = 10) -> Location {
        Location(coordinate: coordinate, timestamp: start.adding(seconds), horizontalAccuracy: accuracy)
    }

    /// `meters` north of `coordinate` (the demo line runs east to west).
    static func north(of coordinate: Coordinate, by meters: Meters) -> Coordinate {
        Coordinate(latitude: coordinate.latitude + meters / 111_195, longitude: coordinate.longitude)
    }

    /// With an arrival model, the stations still to come carry its predictions with their
    /// intervals: each stop on the way costs the train its loss; without one, or on lines the
    /// model was not fitted on, the timetable's times plus the delay, no interval.
    @Test func anArrivalModelPredictsTheStationsToComeWithIntervals() throws {
        var trips = TripModelParameters()
        trips.delayPriorLines = nil
        trips.arrivalModel = ArrivalModel(
            offset: 20, departureFloor: nil, lossPerStop: 15, lossPerMinute: 0, earlySpread: 20, lateSpread: 40)
        let time = Self.start.adding(240)
        let plain = try #require(Self.model.progress(ofTrip: "L1", delay: 60, at: time))
        let predicted = try #require(Self.model.progress(ofTrip: "L1", delay: 60, at: time, trips: trips))
        #expect(plain.nextCalls.allSatisfy { $0.interval == nil })
        #expect(predicted.nextCalls.map(\.stationID) == plain.nextCalls.map(\.stationID))
        #expect(predicted.nextCalls.count >= 3)
        for call in predicted.nextCalls {
            let interval = try #require(call.interval)
            #expect(interval.lowerBound < call.arrival && call.arrival < interval.upperBound)
            #expect(call.departure.map { $0 >= call.arrival } ?? true)
        }
        let gaps = zip(predicted.nextCalls, plain.nextCalls).map { $0.arrival.seconds(since: $1.arrival) }
        for (gap, next) in zip(gaps, gaps.dropFirst()).dropLast() { #expect(abs(next - gap - 15) < 1e-6) }
        // The compiled-in model is Caltrain's: on the demo line, none.
        let elsewhere = try #require(Self.model.progress(ofTrip: "L1", delay: 60, at: time, trips: TripModelParameters()))
        #expect(elsewhere == plain)
    }

    @Test func aRiderIsAboardWhereItsTrainRunsAndNowhereElse() throws {
        let model = Self.model
        let here = try Self.place(after: 240)
        #expect(model.isAboard(trip: "L1", delay: 0, fix: Self.fix(here, after: 240)))
        #expect(model.isAboard(trip: "L1", delay: 0, fix: Self.fix(Self.north(of: here, by: 150), after: 240)))
        #expect(!model.isAboard(trip: "L1", delay: 0, fix: Self.fix(Self.north(of: here, by: 1_000), after: 240)))
        // A fix's claimed accuracy widens the reach, by at most 500 m.
        #expect(model.isAboard(trip: "L1", delay: 0, fix: Self.fix(Self.north(of: here, by: 600), after: 240, accuracy: 450)))
        #expect(!model.isAboard(trip: "L1", delay: 0, fix: Self.fix(Self.north(of: here, by: 800), after: 240, accuracy: 5_000)))
        #expect(!model.isAboard(trip: "L1", delay: 0, fix: Self.fix(Self.north(of: here, by: 800), after: 240, accuracy: .nan)))
        // On the track, but where the train was four minutes ago (a frozen delay): not aboard.
        let behind = try Self.place(after: 0)
        #expect(here.distance(to: behind) > 2_000, "the demo train runs more than 2 km in four minutes")
        #expect(!model.isAboard(trip: "L1", delay: 0, fix: Self.fix(behind, after: 240)))
        #expect(model.isAboard(trip: "L1", delay: 240, fix: Self.fix(behind, after: 240)), "four minutes late, it is there")
        #expect(!model.isAboard(trip: "no-such-trip", delay: 0, fix: Self.fix(here, after: 240)))
    }

    /// Two riders steady on L1 publish it; once one's fixes lie a kilometre off the track, the
    /// train has one rider left at the next fix, and both count again once back.
    @Test func aRiderAwayFromItsTrainCountsForNoTrain() throws {
        let model = Self.model
        var riders = RiderTrains(steadiness: 120)
        func ride(_ seconds: Seconds, away: Bool) throws {
            let here = try Self.place(after: seconds)
            for (rider, off) in [("a", false), ("b", away)] {
                let fix = Self.fix(off ? Self.north(of: here, by: 1_000) : here, after: seconds)
                riders.record(rider: rider, answer: Self.answer(), at: fix.timestamp) {
                    model.isAboard(trip: $0, delay: $1, fix: fix)
                }
            }
        }
        for seconds in stride(from: 0.0, through: 150, by: 10) { try ride(seconds, away: false) }
        #expect(riders.riders(at: Self.start.adding(150))["L1"]?.count == 2)
        try ride(160, away: true)
        #expect(riders.riders(at: Self.start.adding(160))["L1"]?.count == 1, "the rider off the track counts no more")
        try ride(170, away: false)
        #expect(riders.riders(at: Self.start.adding(170))["L1"]?.count == 2, "back on the track, steady still")
    }

    /// A fix dated up to the clock allowance (5 s) ahead counts as now; further ahead, not yet.
    @Test func aFixFromAFastClockCountsAsNow() {
        for (ahead, counts) in [(Seconds(0), true), (2.6, true), (5, true), (5.5, false), (60, false)] {
            var riders = RiderTrains(steadiness: 0)
            riders.record(rider: "r", answer: Self.answer(), at: Self.start.adding(ahead))
            #expect((riders.riders(at: Self.start)["L1"]?.count ?? 0 == 1) == counts, "a fix \(ahead) s ahead")
        }
    }
}
