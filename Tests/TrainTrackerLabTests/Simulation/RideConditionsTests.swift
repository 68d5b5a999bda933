import RealModule
import Testing
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The conditions the simulator records rides under: phones, maps, days, riders, canyons.
@Suite(.tags(.sharedData)) struct RideConditionsTests {
    static let dataset = DemoRides.dataset

    func rides(_ conditions: RideConditions, count: Int = 4, seed: UInt64 = 5) -> [SimulatedCase] {
        var generator = CaseGenerator(dataset: Self.dataset)
        conditions.configure(&generator, seed: seed)
        return generator.cases(count: count, seed: seed, filter: RideFilter(railways: [DemoNetwork.localID], stops: 5...8))
    }

    @Test func aBackgroundPhoneSendsAFixEvery8To60SecondsWithoutSpeedOrCourse() throws {
        let rides = self.rides(RideConditions(phone: .background), count: 6)
        #expect(rides.count == 6)
        let fixes = rides.flatMap(\.fixes).map(\.location)
        #expect(fixes.allSatisfy { $0.speed == nil && $0.course == nil })
        var gaps: [Seconds] = []
        for ride in rides {
            let times = ride.fixes.map(\.location.timestamp)
            gaps += zip(times, times.dropFirst()).map { $1.seconds(since: $0) }
        }
        #expect(gaps.allSatisfy { (8...180).contains($0) }, "\(gaps.filter { !(8...180).contains($0) })")
        #expect(gaps.contains { $0 > 60 }, "now and then a gap of minutes")
        #expect(gaps.filter { $0 <= 60 }.count > gaps.count * 3 / 4)
        // Now and then a fix 50-150 m off, whose accuracy says so.
        let good = self.rides(RideConditions(phone: .good), count: 6).flatMap(\.fixes).map(\.location)
        #expect(fixes.contains { ($0.horizontalAccuracy ?? 0) >= 50 })
        #expect(good.allSatisfy { ($0.speed != nil) || ($0.horizontalAccuracy ?? 0) > 50 })
    }

    @Test func aBackgroundPhonesIntervalsAreDrawnLogUniformly() {
        var phone = Phone(model: PhoneModel.Preset.background.model, seed: 3)
        let intervals = (0..<2_000).map { _ in phone.nextInterval() }
        let short = intervals.filter { $0 < 8 * (60.0 / 8).squareRoot() }.count
        let long = intervals.filter { $0 >= 8 * (60.0 / 8).squareRoot() && $0 <= 60 }.count
        // Half the ordinary ones below the geometric middle (21.9 s), half above; one in ten 1-3 minutes.
        #expect(abs(short - long) < 200, "\(short) short, \(long) long")
        #expect((120...280).contains(intervals.filter { $0 > 60 }.count))
    }

    @Test func urbanCanyonsPushFixesToOneSideNearBigStations() {
        var model = PhoneModel()
        model.canyonBias = RideConditions.canyonBias
        var canyon = Phone(model: model, seed: 9)
        var open = Phone(model: model, seed: 9)
        let place = Coordinate(latitude: 35.68, longitude: 139.76)
        let projection = LocalProjection(origin: place)
        var sideways: [Meters] = []
        var plain: [Meters] = []
        for second in 0..<600 {
            let time = morning.adding(Double(second))
            let args = (coordinate: place, course: 0.0, speed: 10.0, time: time)
            if let fix = canyon.report(
                coordinate: args.coordinate, course: args.course, speed: args.speed, time: args.time, elapsed: 1,
                nearStation: false, atBigStation: false, nearBigStation: true)
            {
                sideways.append(projection.vector(to: fix.coordinate).east)
            }
            if let fix = open.report(
                coordinate: args.coordinate, course: args.course, speed: args.speed, time: args.time, elapsed: 1,
                nearStation: false, atBigStation: false, nearBigStation: false)
            {
                plain.append(projection.vector(to: fix.coordinate).east)
            }
        }
        // Running north, the push is east or west by 15-40 m for minutes at a time.
        let pushed = sideways.filter { abs($0) >= 10 }.count
        #expect(pushed > sideways.count * 8 / 10, "\(pushed) of \(sideways.count)")
        #expect(plain.filter { abs($0) >= 15 }.count < plain.count / 20)
        // For minutes: the side seldom changes from one fix to the next.
        let flips = zip(sideways, sideways.dropFirst()).filter { ($0 > 0) != ($1 > 0) && abs($0) > 10 && abs($1) > 10 }.count
        #expect(flips < 12, "\(flips) changes of side in 10 minutes")
    }

    @Test func aShiftedMapPutsTheRealTrack5To40MetresAsideSmoothly() throws {
        let network = try SharedData.tokyoNetwork()
        let railway = try #require(network.railway(id: "JR-East.Tokaido"))
        var distortion = MapDistortion(seed: 17)
        distortion.swapProbability = 0
        let real = distortion.realTrack(of: railway, in: network)
        let drawn = railway.track.polyline
        #expect(real.track.polyline.coordinates.count == drawn.coordinates.count)
        var offsets: [Meters] = []
        for (index, coordinate) in real.track.polyline.coordinates.enumerated() where index % 20 == 10 {
            offsets.append(try #require(drawn.distance(to: coordinate)))
        }
        // Within the range (a little less on bends, where the nearest drawn point is another edge's).
        #expect(offsets.allSatisfy { $0 <= 40.5 }, "\(offsets.max() ?? 0)")
        #expect(offsets.filter { $0 >= 4.5 }.count >= offsets.count * 9 / 10)
        // The same seed, the same error; another seed, another.
        #expect(distortion.realTrack(of: railway, in: network).track.polyline.coordinates == real.track.polyline.coordinates)
        #expect(
            MapDistortion(seed: 18).realTrack(of: railway, in: network).track.polyline.coordinates
                != real.track.polyline.coordinates)
        // Positions along the drawn track map to the same places along the real one, in order.
        let stations = network.stationPositions(of: railway).map(real.along)
        #expect(zip(stations, stations.dropFirst()).allSatisfy { $0 < $1 })
        for (drawnPosition, realPosition) in zip(network.stationPositions(of: railway), stations) {
            let here = drawn.point(atAlongTrack: drawnPosition).coordinate
            #expect(here.distance(to: real.track.polyline.point(atAlongTrack: realPosition).coordinate) <= 41)
        }
    }

    @Test func aSwappedLineRunsOnTheFarSideOfItsNeighbour() throws {
        let network = try SharedData.tokyoNetwork()
        let railway = try #require(network.railway(id: "JR-East.KeihinTohokuNegishi"))
        var distortion = MapDistortion(seed: 4)
        distortion.swapProbability = 1
        let real = distortion.realTrack(of: railway, in: network).track.polyline
        // Where another line is drawn 5-40 m beside it, the real Keihin-Tohoku track lies nearer
        // that line's drawn track than its own: the map has the two in the wrong order.
        var nearer = 0
        var beside = 0
        for (drawn, coordinate) in zip(railway.track.polyline.coordinates, real.coordinates) {
            let neighbours = network.railways(near: drawn, within: 40).filter { $0.railway.id != railway.id && $0.distance >= 5 }
            guard !neighbours.isEmpty, let own = railway.track.polyline.distance(to: coordinate) else { continue }
            beside += 1
            if neighbours.contains(where: { ($0.railway.track.polyline.distance(to: coordinate) ?? .infinity) < own }) {
                nearer += 1
            }
        }
        #expect(beside > 50)
        #expect(nearer > beside * 2 / 3, "\(nearer) of \(beside)")
    }

    @Test func onADisruptedDayEveryTrainIsLateAndLosesMoreOnTheWay() throws {
        let train = try #require(Self.dataset.timetable.trains.first)
        let disruption = Disruption(seed: 8)
        let late = disruption.stops(of: train)
        let delays = zip(train.stops, late).map { ($1.departure ?? 0) - ($0.departure ?? 0) }
        #expect(delays.allSatisfy { (240...1_500 + 20 * Double(train.stops.count)).contains($0) })
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(abs(delays[0] - disruption.lateness(of: train.id)) <= 20)
        // The rides leave late by that much (against a punctual day's).
        let normal = rides(RideConditions(day: .punctual), count: 3, seed: 12)
        let disrupted = rides(RideConditions(day: .disrupted), count: 3, seed: 12)
        for (plain, late) in zip(normal, disrupted) {
            #expect(plain.truth.trainID == late.truth.trainID)
            let lateness = late.truth.departure - plain.truth.departure
            #expect((240...1_700).contains(lateness))
            #expect(late.truth.delay.map { $0 <= lateness && lateness - $0 <= 200 } == true)
        }
    }

    @Test func onANormalDayTrainsAreAsLateAsCaltrainsRecordedOnesAndStayLate() throws {
        let train = try #require(Self.dataset.timetable.trains.first { $0.stops.count >= 8 })
        var starts: [Double] = []
        var persistent = 0
        var late = 0
        for seed in 0..<400 {
            let delays = EverydayDelays(seed: UInt64(seed))
            let stops = delays.stops(of: train)
            let lateness = zip(train.stops, stops).map { ($1.departure ?? 0) - ($0.departure ?? 0) }
            starts.append(lateness[0])
            #expect(abs(lateness[0] - delays.lateness(of: train.id)) < 0.001)
            #expect(lateness.allSatisfy { $0 >= -EverydayDelays.earliest })
            // A train five minutes late is still late at its last call.
            if lateness[0] >= 300 {
                late += 1
                if (lateness.last ?? 0) >= 120 { persistent += 1 }
            }
        }
        starts.sort()
        let median = starts[starts.count / 2]
        let ninetieth = starts[starts.count * 9 / 10]
        #expect((120...180).contains(median), "median \(median) s (recorded 150 s)")
        #expect((360...520).contains(ninetieth), "90th percentile \(ninetieth) s (recorded 6-8.5 min)")
        #expect(late > 40 && persistent >= late * 9 / 10, "\(persistent) of \(late)")
        // The simulated rides of a normal day leave later than a punctual day's, on the whole.
        let punctual = rides(RideConditions(day: .punctual), count: 6, seed: 21)
        let normal = rides(RideConditions(), count: 6, seed: 21)
        let lateness = zip(punctual, normal).filter { $0.truth.trainID == $1.truth.trainID }.map {
            $1.truth.departure - $0.truth.departure
        }
        #expect(lateness.count >= 3 && lateness.reduce(0, +) / Double(lateness.count) > 60, "\(lateness)")
        #expect(normal.allSatisfy { $0.truth.delay != nil } && punctual.allSatisfy { $0.truth.delay == nil })
    }

    @Test func aLingeringRiderStandsOnThePlatformForMinutes() throws {
        for ride in rides(RideConditions(rider: .lingers), count: 3) {
            let after = ride.truth.fixes.filter { $0.time > ride.truth.arrival }
            let standing = (after.last?.time ?? 0) - ride.truth.arrival
            #expect((110...370).contains(standing), "\(standing) s")
            #expect(after.allSatisfy { $0.speed == 0 && $0.station == ride.truth.stops.last && $0.phase == .now })
        }
        for ride in rides(RideConditions(), count: 3) {
            #expect(((ride.truth.fixes.last?.time ?? 0) - ride.truth.arrival) <= 46)
        }
    }

    @Test(arguments: [
        (RideConditions(), "good"),
        (RideConditions(phone: .background, map: .shifted), "background · shifted map"),
        (
            RideConditions(phone: .sparse, day: .disrupted, rider: .lingers, canyons: true),
            "sparse · disrupted day · rider lingers · canyons"
        ),
    ])
    func conditionsHaveShortNames(conditions: RideConditions, label: String) {
        #expect(conditions.label == label)
    }
}
