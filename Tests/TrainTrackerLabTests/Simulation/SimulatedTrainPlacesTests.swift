import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The trains of a simulated operator's feed are where the simulated rides are: an evaluation
/// with `simulate --feed` must not place a rider's train somewhere the rider is not.
@Suite(.tags(.sharedData)) struct SimulatedTrainPlacesTests {
    static let dataset = DemoRides.dataset

    /// How far a train's plan of its whole run and its rider's plan from the boarding stop may
    /// differ: the ride leaves at its stop's published departure, the train's plan centres a
    /// dwell shorter than the simulator's 25 s on it (up to 12.5 s), and runs too short for the
    /// motion limits put the whole-run plan behind (measured here: 5 s ahead to 14 s behind).
    static let boardingSlack: Seconds = 14

    @Test func aFeedPlacesTheRiddenTrainWhereItsRiderWasAtMostHalfAMinuteAgo() throws {
        var generator = CaseGenerator(dataset: Self.dataset)
        generator.disruption = Disruption(seed: 7)  // a late day: the places follow the late calls
        let rides = generator.cases(count: 4, seed: 21)
        var places = SimulatedTrainPlaces(generator: generator, seed: 21)
        let zone = Self.dataset.timetable.zone
        var behind: [Seconds] = []
        for ride in rides {
            let train = try #require(Self.dataset.timetable.trains.first { $0.id == ride.truth.trainID })
            let track = try #require(Self.dataset.network.railway(id: ride.truth.railwayID)).track.polyline
            let origin = zone.serviceDayOrigin(zone.day(of: ride.start))
            let asRun = generator.runningStops(of: train)
            // The truth of the ride's last half minute (and the slack): where the train was.
            // While the train carries the rider: it leaves the rider at the last stop.
            guard ride.truth.arrival - ride.truth.departure > 120 else { continue }
            let aboard = ride.truth.departure + 60...ride.truth.arrival - 60
            for (index, now) in ride.truth.fixes.enumerated() where index % 10 == 0 && aboard.contains(now.time) {
                let placed = places.coordinate(of: train, asRun: asRun, at: now.time - origin)
                let place = try #require(placed)
                let along = try #require(track.projection(of: place)?.alongTrack)
                let recent = ride.truth.fixes.filter {
                    (now.time - 31 - Self.boardingSlack...now.time + Self.boardingSlack).contains($0.time)
                }
                let lowest = try #require(recent.map(\.alongTrack).min())
                let highest = try #require(recent.map(\.alongTrack).max())
                #expect((lowest - 5...highest + 5).contains(along), "\(ride.sessionID) at \(now.time): \(along) m")
                if let then = recent.min(by: { abs($0.alongTrack - along) < abs($1.alongTrack - along) }) {
                    behind.append(now.time - then.time)
                }
            }
        }
        try #require(behind.count > 20)
        // Stale, as an operator's positions are, but not always and never by more than 30 s.
        // Half a minute stale at most, a quarter of a minute in the middle (none would be 0).
        let middle = behind.sorted()[behind.count / 2]
        #expect((8...22).contains(middle), "median \(middle) s behind")
        #expect(behind.allSatisfy { $0 <= SimulatedTrainPlaces.staleness.upperBound + Self.boardingSlack + 1 })
    }

    @Test func feedsCarryPositionsOnlyWhenAskedEachOnItsTrainsRailway() throws {
        let generator = CaseGenerator(dataset: Self.dataset)
        let ride = try #require(generator.cases(count: 1, seed: 5).first)
        let times = stride(from: 0.0, through: 600, by: 60).map { ride.start.adding($0) }
        let delays = OnTimeDelays()
        let bare = SimulatedFeeds.make(dataset: Self.dataset, delays: delays, times: times)
        let placed = SimulatedFeeds.make(
            dataset: Self.dataset, delays: delays, times: times, places: SimulatedTrainPlaces(generator: generator, seed: 5))
        #expect(bare.allSatisfy { $0.vehicles.isEmpty })
        #expect(placed.map(\.trips) == bare.map(\.trips))
        #expect(placed.contains { $0.vehicles.contains { $0.tripID == ride.truth.trainID } })
        // Every position is on its train's railway, dated as of its feed.
        for feed in placed {
            for vehicle in feed.vehicles {
                let train = try #require(Self.dataset.timetable.trains.first { $0.id == vehicle.tripID })
                let track = try #require(Self.dataset.network.railway(id: train.railwayID)).track.polyline
                let onTrack = try #require(track.projection(of: vehicle.coordinate))
                #expect(onTrack.distance < 1)
                #expect(vehicle.time == feed.timestamp)
            }
        }
    }

    @Test func aLateTrainStaysInTheFeedUntilItArrives() throws {
        let disruption = Disruption(seed: 3)
        let zone = Self.dataset.timetable.zone
        // A train more than the feed's 10 minutes after its end late: it still runs then.
        let train = try #require(Self.dataset.timetable.trains.first { disruption.lateness(of: $0.id) > 700 })
        let published = try #require(train.stops.last.flatMap { $0.arrival ?? $0.departure })
        let day = try #require(
            (0..<28).lazy.map { CivilDay(daysSince1970: 20_353).adding($0) }.first {
                Self.dataset.timetable.calendar.runs(train.service, on: $0)
            })
        let during = Timestamp(secondsSince1970: zone.serviceDayOrigin(day) + published + SimulatedFeeds.after + 60)
        let long = Timestamp(secondsSince1970: zone.serviceDayOrigin(day) + published + 2 * SimulatedFeeds.after + 1_600)
        let feeds = SimulatedFeeds.make(dataset: Self.dataset, delays: disruption, times: [during, long])
        #expect(feeds[0].trips.contains { $0.tripID == train.id })
        #expect(!feeds[1].trips.contains { $0.tripID == train.id })
    }
}
