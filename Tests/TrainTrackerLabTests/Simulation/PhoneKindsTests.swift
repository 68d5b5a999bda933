import RealModule
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Phones as real riders carry them: loggers that write only on movement, jitter while
/// standing, no course or speed, apps suspended for minutes; trains held at a stop, riders who
/// board long before their train leaves.
@Suite(.tags(.sharedData)) struct PhoneKindsTests {
    static let dataset = DemoRides.dataset

    /// Rides of 5 to 8 stops on the demo network's local line (as `RideConditionsTests` draws them).
    func rides(_ conditions: RideConditions, count: Int = 6, seed: UInt64 = 5) -> [SimulatedCase] {
        RideConditionsTests().rides(conditions, count: count, seed: seed)
    }

    /// The fixes taken while the train stood (by the truth).
    func standing(_ rides: [SimulatedCase]) -> Int {
        rides.reduce(0) { $0 + $1.truth.fixes.filter { $0.speed == 0 }.count }
    }

    @Test func aMovementLoggerWritesNothingWhileTheTrainStands() {
        let moving = rides(RideConditions(phone: .movement))
        let good = rides(RideConditions(phone: .good))
        #expect(moving.count == 6 && good.count == 6)
        // The same trains, with the stands at their stations.
        #expect(moving.map(\.truth.trainID) == good.map(\.truth.trainID))
        #expect(standing(good) > 600, "\(standing(good)) standing fixes from a good phone")
        // A stand gives at most the fix where the train came to rest and the odd one when the
        // error wanders past the filter.
        #expect(standing(moving) * 10 < standing(good), "\(standing(moving)) of \(standing(good))")
        for ride in moving {
            let places = ride.fixes.map(\.location.coordinate)
            // Each fix at least 10 m (the narrowest filter) from the one before.
            #expect(zip(places, places.dropFirst()).allSatisfy { $0.distance(to: $1) >= 10 })
            // Across most intermediate stops, a silence of most of the shortest dwell (the odd fix
            // that wanders past a short filter may split one).
            let times = ride.fixes.map(\.location.timestamp)
            let silences = zip(times, times.dropFirst()).filter { $1.seconds(since: $0) >= 20 }.count
            let stops = ride.truth.stops.count - 2
            #expect(silences * 4 >= stops * 3, "\(silences) silences for \(stops) stops")
        }
        // The filter is drawn per ride from 10-100 m.
        let filters = (0..<50).compactMap { Phone(model: PhoneModel.Preset.movement.model, seed: UInt64($0)).distanceFilter }
        #expect(filters.count == 50 && filters.allSatisfy { (10...100).contains($0) })
        #expect((filters.max() ?? 0) - (filters.min() ?? 0) > 50)
    }

    @Test func aJitteryPhoneWandersWhileStandingAndNotWhileRunning() {
        let place = Coordinate(latitude: 35.68, longitude: 139.76)
        var spread: [String: [Meters]] = [:]
        for (name, speed) in [("standing", 0.0), ("running", 10.0)] {
            for preset in [PhoneModel.Preset.jittery, .bare] {
                var phone = Phone(model: preset.model, seed: 11)
                var distances: [Meters] = []
                for second in 0..<3_600 {
                    if let fix = phone.report(
                        coordinate: place, course: 0, speed: speed, time: morning.adding(Double(second)), elapsed: 1,
                        nearStation: false, atBigStation: false)
                    {
                        #expect(fix.speed == nil && fix.course == nil)
                        distances.append(place.distance(to: fix.coordinate))
                    }
                }
                spread["\(preset) \(name)"] = distances.sorted()
            }
        }
        let meanSquare = { (key: String) in (spread[key] ?? []).reduce(0) { $0 + $1 * $1 } / Double(spread[key]?.count ?? 1) }
        let jitter = Phone(model: PhoneModel.Preset.jittery.model, seed: 11).standingJitter ?? 0
        #expect((5...30).contains(jitter))
        // Standing, the jittery phone strays by about its jitter on top of the GPS error (the
        // squares add up); running, it is a bare phone.
        let squares = spread.keys.sorted().map { "\($0): \(meanSquare($0))" }
        #expect(meanSquare("jittery standing") > meanSquare("bare standing") + jitter * jitter / 2, "\(jitter): \(squares)")
        #expect(meanSquare("jittery running") == meanSquare("bare running"))
    }

    @Test func aBarePhoneSendsPositionAndTimeEverySecond() {
        let bare = rides(RideConditions(phone: .bare)).flatMap(\.fixes).map(\.location)
        #expect(bare.count > 2_000)
        #expect(bare.allSatisfy { $0.speed == nil && $0.course == nil && $0.horizontalAccuracy != nil })
        let times = bare.map(\.timestamp)
        let gaps = zip(times, times.dropFirst()).map { $1.seconds(since: $0) }
        #expect(gaps.filter { $0 == 1 }.count > gaps.count * 9 / 10)
    }

    @Test func aQuietPhoneGoesSilentForMinutesNowAndThen() {
        var phone = Phone(model: PhoneModel.Preset.quiet.model, seed: 4)
        let intervals = (0..<6_000).map { _ in phone.nextInterval() }
        let long = intervals.filter { $0 > 1 }
        // About one suspension in every ten minutes of fixes, each 3-10 minutes.
        #expect((4...20).contains(long.count), "\(long.count) silences")
        #expect(long.allSatisfy { (180...600).contains($0) })
        let rides = self.rides(RideConditions(phone: .quiet), count: 12)
        let silences = rides.flatMap { ride in
            let times = ride.fixes.map(\.location.timestamp)
            return zip(times, times.dropFirst()).map { $1.seconds(since: $0) }.filter { $0 >= 180 }
        }
        #expect(!silences.isEmpty, "a ride of 12 with a silence of minutes")
        // Apart from its silences, a good phone: speed and course.
        #expect(rides.flatMap(\.fixes).contains { $0.location.speed != nil && $0.location.course != nil })
    }

    /// The longest the train stood between the ride's first departure and its arrival.
    func longestStand(_ ride: SimulatedCase) -> Seconds {
        var longest: Seconds = 0
        var since: Double?
        for fix in ride.truth.fixes where fix.time > ride.truth.departure && fix.time < ride.truth.arrival {
            if fix.speed == 0 {
                since = since ?? fix.time
                longest = max(longest, fix.time - (since ?? fix.time))
            } else {
                since = nil
            }
        }
        return longest
    }

    @Test func onAHeldDayTheTrainStandsMinutesAtOneStopOfTheRide() {
        let held = rides(RideConditions(day: .held))
        let normal = rides(RideConditions())
        #expect(held.count == 6 && held.map(\.truth.trainID) == normal.map(\.truth.trainID))
        for (late, plain) in zip(held, normal) {
            #expect((295...1_805).contains(longestStand(late)), "\(longestStand(late)) s")
            #expect(longestStand(plain) < 200, "\(longestStand(plain)) s")
            // The hold puts off the arrival by as long, not the departure.
            #expect(late.truth.departure == plain.truth.departure)
            #expect(late.truth.arrival - plain.truth.arrival >= 295)
            // The stand is at a stop of the ride, not between stations.
            let stand = late.truth.fixes.filter { $0.time > late.truth.departure && $0.time < late.truth.arrival }
            let stations = Set(stand.filter { $0.speed == 0 }.map(\.station))
            #expect(stations.isSubset(of: Set(late.truth.stops.dropFirst().dropLast())))
        }
    }

    /// A call published with a departure time only (as many of mini-tokyo-3d's are) is held
    /// too: the train arrives at that time and stands the hold.
    @Test func aCallWithOneTimeIsHeldToo() {
        var generator = CaseGenerator(dataset: Self.dataset)
        generator.longDwell = 600...600
        let stretch = (0..<4).map { TimetableStop(stationID: "S\($0)", arrival: nil, departure: 1_000 + 200 * Double($0)) }
        var random = SeededGenerator(seed: 3)
        let held = generator.held(stretch, using: &random)
        let stop = held.indices.first { held[$0].departure != stretch[$0].departure }
        #expect(stop.map { (1...2).contains($0) } == true)
        if let stop {
            #expect(held[stop].arrival == stretch[stop].departure)
            #expect(held[stop].departure == (stretch[stop].departure ?? 0) + 600)
            #expect(held.last?.departure == (stretch.last?.departure ?? 0) + 600)
        }
    }

    @Test func aWaitingRiderBoardsAtTheTrainsFirstStationMinutesBeforeItLeaves() throws {
        let trains = Dictionary(Self.dataset.timetable.trains.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let waiting = rides(RideConditions(rider: .waits))
        #expect(waiting.count == 6)
        for ride in waiting {
            let train = try #require(trains[ride.truth.trainID])
            #expect(ride.truth.stops.first == train.stops.first?.stationID)
            let first = try #require(ride.fixes.first?.location.timestamp.secondsSince1970)
            #expect((295...1_505).contains(ride.truth.departure - first), "\(ride.truth.departure - first) s")
        }
        for ride in rides(RideConditions()) {
            let first = try #require(ride.fixes.first?.location.timestamp.secondsSince1970)
            #expect(ride.truth.departure - first <= 61)
        }
    }

    @Test(arguments: [
        (RideConditions(phone: .movement, day: .held), "movement · held day"),
        (RideConditions(phone: .jittery, rider: .waits), "jittery · rider waits"),
        (RideConditions(phone: .bare), "bare"), (RideConditions(phone: .quiet, map: .shifted), "quiet · shifted map"),
    ])
    func theNewConditionsHaveShortNames(conditions: RideConditions, label: String) {
        #expect(conditions.label == label)
    }
}
