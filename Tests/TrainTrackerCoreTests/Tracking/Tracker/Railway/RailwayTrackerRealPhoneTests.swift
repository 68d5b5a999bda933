import RealModule
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The default algorithm under what real riders bring: battery-saving phones, maps that are
/// not the track, riders who stand and walk.
@Suite struct RailwayTrackerRealPhoneTests {
    static let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.7))

    /// Straight lines given by their ends (east, north in metres from `origin`), stations at
    /// distances along each; the first station of the list is at the first end.
    static func network(_ lines: [(id: String, from: PlanarVector, to: PlanarVector, stations: [Meters])]) throws
        -> RailwayNetwork
    {
        var stations: [Station] = []
        var railways: [Railway] = []
        for line in lines {
            let length = (line.to - line.from).length
            let point = { (along: Meters) in origin.coordinate(at: line.from + (line.to - line.from) * (along / length)) }
            let ids = line.stations.indices.map { "\(line.id).\($0)" }
            for (id, along) in zip(ids, line.stations) {
                stations.append(Station(id: id, railwayID: line.id, name: id, coordinate: point(along)))
            }
            let vertices = stride(from: 0.0, through: length, by: 100).map(point)
            railways.append(
                Railway(
                    id: line.id, name: line.id, stationIDs: ids, ascendingName: "Out", descendingName: "In",
                    track: Track(pieces: [(vertices, false)])))
        }
        return try RailwayNetwork(railways: railways, stations: stations)
    }

    /// One fix a second of a train running from `from` to `to` (east, north) at 15 m/s, standing
    /// `dwell` seconds at each of `stops` (distances from `from`), the fixes `offset` metres to
    /// the left of the direction of travel.
    static func run(
        from: PlanarVector, to: PlanarVector, stops: [Meters], dwell: Seconds = 30, start: Timestamp, offset: Meters = 0
    ) -> [Location] {
        let length = (to - from).length
        let direction = (to - from) * (1 / length)
        let left = PlanarVector(east: -direction.north, north: direction.east)
        var fixes: [Location] = []
        var along = 0.0
        var time = start
        var pending = stops.sorted()
        while along <= length {
            let standing = pending.first.map { abs($0 - along) < 8 } == true
            let steps = standing ? Int(dwell) : 1
            for _ in 0..<steps {
                fixes.append(
                    Location(
                        coordinate: origin.coordinate(at: from + direction * along + left * offset), timestamp: time,
                        horizontalAccuracy: 8, speed: standing ? 0 : 15, course: standing ? nil : direction.course))
                time = time.adding(1)
            }
            if standing { pending.removeFirst() }
            along += 15
        }
        return fixes
    }

    func answers(_ fixes: [Location], network: RailwayNetwork, parameters: RailwayTracker.Parameters = .init())
        -> [TrackingResult]
    {
        var tracker = RailwayTracker(model: TrackerModel(dataset: TransitDataset(network: network)), parameters: parameters)
        return fixes.map { tracker.process($0) }
    }

    @Test func evidenceIsPerSecondOfRidingNotPerFix() throws {
        // Two parallel lines 25 m apart; the train runs on the southern one, every fix on its track.
        let network = try Self.network([
            ("South", PlanarVector(east: 0, north: 0), PlanarVector(east: 6_000, north: 0), [0, 5_900]),
            ("North", PlanarVector(east: 0, north: 25), PlanarVector(east: 6_000, north: 25), [0, 5_900]),
        ])
        let fixes = Self.run(
            from: PlanarVector(east: 0, north: 0), to: PlanarVector(east: 6_000, north: 0), stops: [], start: morning)
        func northScore(every step: Int, seconds: Int) throws -> Double {
            let thinned = stride(from: 0, to: seconds, by: step).map { fixes[$0] }
            let last = try #require(answers(thinned, network: network).last)
            #expect(last.best?.railwayID == "South")
            return try #require(last.candidates.first { $0.railwayID == "North" }?.score)
        }
        let everySecond = try northScore(every: 1, seconds: 300)
        let everyTenSeconds = try northScore(every: 10, seconds: 300)
        #expect(everySecond < -1)
        // As much said per second, whatever the phone's rate (a fix per second counted per fix would say ten times more).
        #expect(everyTenSeconds / everySecond > 0.5 && everyTenSeconds / everySecond < 2, "\(everySecond) vs \(everyTenSeconds)")
    }

    /// An 8 km line with a station every 2 km.
    static func straightLine() throws -> RailwayNetwork {
        try network([
            ("Line", PlanarVector(east: 0, north: 0), PlanarVector(east: 8_000, north: 0), [0, 2_000, 4_000, 6_000, 8_000])
        ])
    }

    /// A westbound run along `straightLine()`, a fix every `every` seconds without speed or course.
    static func westboundWithoutSpeed(every: Int) -> [Location] {
        run(from: PlanarVector(east: 8_000, north: 0), to: PlanarVector(east: 0, north: 0), stops: [], start: morning)
            .enumerated().filter { $0.offset % every == 0 }.map { item in
                Location(coordinate: item.element.coordinate, timestamp: item.element.timestamp, horizontalAccuracy: 15)
            }
    }

    @Test func aWildFixTensOfKilometresOffIsLeftOutUnlessThreeInARowAgree() throws {
        let network = try Self.straightLine()
        // Westbound, a fix every 20 s without speed or course, as Helsinki's phones give them.
        let fixes = Self.westboundWithoutSpeed(every: 20)
        // A Wi-Fi position 27 km away, with an honest-looking accuracy, every third fix from the sixth on.
        let far = Self.origin.coordinate(at: PlanarVector(east: -20_000, north: 18_000))
        let wild = fixes.enumerated().map { index, fix in
            index >= 6 && index % 3 == 0 ? Location(coordinate: far, timestamp: fix.timestamp, horizontalAccuracy: 36) : fix
        }
        let clean = answers(fixes, network: network)
        let noisy = answers(wild, network: network)
        // The answers to the true fixes are the clean ride's, and a wild fix's holds the last.
        for index in fixes.indices.dropFirst(6) where index % 3 != 0 {
            #expect(noisy[index].best?.directionName == "In", "fix \(index)")
            #expect(noisy[index].best?.railwayID == clean[index].best?.railwayID)
        }
        for index in fixes.indices.dropFirst(6) where index % 3 == 0 {
            #expect(noisy[index].best?.directionName == noisy[index - 1].best?.directionName, "wild fix \(index)")
        }
        // The rider really is elsewhere after three fixes that agree: the tracker follows.
        var tracker = RailwayTracker(model: TrackerModel(network: network))
        for fix in fixes.prefix(8) { _ = tracker.process(fix) }
        let last = try #require(fixes.prefix(8).last)
        for step in 1...3 {
            _ = tracker.process(
                Location(coordinate: far, timestamp: last.timestamp.adding(20 * Double(step)), horizontalAccuracy: 20))
            #expect((tracker.lastFix?.coordinate == far) == (step == 3), "after \(step) fixes there")
        }
    }

    @Test func aReflectionAKilometreOffIsLeftOutWhereThePhoneMeasuredItStood() throws {
        let network = try Self.straightLine()
        let station = Self.origin.coordinate(at: PlanarVector(east: 4_000, north: 5))
        let reflection = Self.origin.coordinate(at: PlanarVector(east: 4_900, north: 700))
        /// Two minutes standing at a station, a fix a second; every fourth a big station's
        /// reflection 1.1 km off that claims 40 m and no speed.
        func stand(measuring speed: MetersPerSecond?) -> (taken: Int, kept: Bool) {
            var tracker = RailwayTracker(model: TrackerModel(network: network))
            var taken = 0
            for second in 0..<120 {
                let time = morning.adding(Double(second))
                let reflected = second % 4 == 3
                _ = tracker.process(
                    reflected
                        ? Location(coordinate: reflection, timestamp: time, horizontalAccuracy: 40)
                        : Location(coordinate: station, timestamp: time, horizontalAccuracy: 10, speed: speed))
                if reflected, tracker.lastFix?.coordinate == reflection { taken += 1 }
            }
            return (taken, tracker.lastFix?.coordinate == station)
        }
        // A phone that measured it stood cannot be a kilometre off a second later.
        let measured = stand(measuring: 0)
        #expect(measured.taken == 0 && measured.kept)
        // Without a measured speed only the flat 2 km allowance holds (Helsinki's phones).
        #expect(stand(measuring: nil).taken == 30)
        // A train measured at 20 m/s: the next fix 20 m on is taken.
        var tracker = RailwayTracker(model: TrackerModel(network: network))
        let start = Self.origin.coordinate(at: PlanarVector(east: 1_000, north: 0))
        let next = Self.origin.coordinate(at: PlanarVector(east: 1_020, north: 0))
        _ = tracker.process(Location(coordinate: start, timestamp: morning, horizontalAccuracy: 5, speed: 20))
        _ = tracker.process(Location(coordinate: next, timestamp: morning.adding(1), horizontalAccuracy: 5, speed: 20))
        #expect(tracker.lastFix?.coordinate == next)
    }

    @Test func aPhoneWithoutCourseOrSpeedStillTellsTheDirection() throws {
        let network = try Self.straightLine()
        // Westbound, a fix every 25 s, no speed, no course.
        let fixes = Self.westboundWithoutSpeed(every: 25)
        let direction = { (parameters: RailwayTracker.Parameters) in
            self.answers(fixes, network: network, parameters: parameters).dropFirst(4).filter { $0.best?.directionName == "In" }
                .count
        }
        let judged = fixes.count - 4
        #expect(direction(.init()) == judged)
        var blind = RailwayTracker.Parameters()
        blind.progress.weight = 0
        #expect(direction(blind) < judged, "without progress between fixes the direction is a guess")
    }

    @Test func aLineDrawnOnTheWrongSideOfItsNeighbourIsFollowedOnceItsOffsetIsLearnt() throws {
        // Drawn 20 m apart; the train of "Near" really runs 10 m beyond "Far"'s drawn track, so
        // every fix lies nearer the wrong line. Near stops every 3 km, where Far has no station.
        let stations: [Meters] = [0, 3_000, 6_000, 9_000, 12_000, 15_000]
        let network = try Self.network([
            ("Near", PlanarVector(east: 0, north: 0), PlanarVector(east: 16_000, north: 0), stations + [16_000]),
            ("Far", PlanarVector(east: 0, north: 20), PlanarVector(east: 16_000, north: 20), [0, 16_000]),
        ])
        let fixes = Self.run(
            from: PlanarVector(east: 0, north: 0), to: PlanarVector(east: 15_500, north: 0), stops: stations, start: morning,
            offset: 30)
        // The last five minutes: the offset has been learnt over ten.
        let end = try #require(fixes.last).timestamp
        let late = fixes.indices.filter { end.seconds(since: fixes[$0].timestamp) < 300 }
        let near = { (parameters: RailwayTracker.Parameters) in
            let results = self.answers(fixes, network: network, parameters: parameters)
            return late.filter { results[$0].best?.railwayID == "Near" }.count
        }
        #expect(near(.init()) == late.count, "the stops decide once the map's offset is learnt")
        var rigid = RailwayTracker.Parameters()
        rigid.position.mapOffsetLearning = 0
        #expect(near(rigid) < late.count / 2, "a map taken as exact hands the ride to the nearer line")
    }

    @Test func theLineShownIsKeptWhileTheRiderWalksAndWaitsAndLeftOnceTheNextTrainMoves() throws {
        // Ride "East" to its station at 4 km, walk 150 m north to "North"'s station, wait two
        // minutes, ride "North".
        let network = try Self.network([
            ("East", PlanarVector(east: 0, north: 0), PlanarVector(east: 5_000, north: 0), [0, 2_000, 4_000, 5_000]),
            ("North", PlanarVector(east: 4_000, north: 150), PlanarVector(east: 4_000, north: 6_000), [0, 3_000, 5_850]),
        ])
        var fixes = Self.run(
            from: PlanarVector(east: 0, north: 0), to: PlanarVector(east: 4_000, north: 0), stops: [0, 2_000, 4_000],
            start: morning)
        let alighted = try #require(fixes.last).timestamp
        for second in 1...240 {
            let walked = min(Double(second) * 1.2, 150)
            let walking = walked < 150
            fixes.append(
                Location(
                    coordinate: Self.origin.coordinate(at: PlanarVector(east: 4_000, north: walked)),
                    timestamp: alighted.adding(Double(second)), horizontalAccuracy: 10, speed: walking ? 1.2 : 0,
                    course: walking ? 0 : nil))
        }
        let boarding = alighted.adding(241)
        fixes += Self.run(
            from: PlanarVector(east: 4_000, north: 150), to: PlanarVector(east: 4_000, north: 4_000), stops: [0, 3_000],
            dwell: 20, start: boarding)
        let departure = boarding.adding(20)
        let results = answers(fixes, network: network)
        for (fix, result) in zip(fixes, results) where fix.timestamp > alighted && fix.timestamp < departure {
            #expect(result.best?.railwayID == "East", "walking and waiting at \(fix.timestamp)")
        }
        for (fix, result) in zip(fixes, results) where fix.timestamp.seconds(since: departure) > 60 {
            #expect(result.best?.railwayID == "North", "a minute after the next train left")
        }
        var restless = RailwayTracker.Parameters()
        restless.holdsLineWhileStanding = false
        let unheld = answers(fixes, network: network, parameters: restless)
        #expect(
            zip(fixes, unheld).contains { $0.timestamp > alighted && $0.timestamp < departure && $1.best?.railwayID != "East" },
            "without the rule the answer leaves the train before the next one moves")
    }

    @Test func aSparsePhoneSeesTheStopsOfItsLocalTrain() throws {
        // A local and an express line on one track; the local train, a fix every 10 s with
        // speed and course. Its stops tell it from the express, which passes them.
        let ride = try #require(
            CaseGenerator(dataset: DemoRides.dataset).cases(
                count: 1, seed: 21, filter: RideFilter(railways: [DemoNetwork.localID], stops: 6...8)
            ).first)
        let sparse = ride.fixes.filter { Int($0.location.timestamp.seconds(since: ride.start)) % 10 == 0 }
        let model = TrackerModel(dataset: DemoRides.dataset)
        let score = Evaluator().score(fixes: sparse, truth: ride.truth, tracker: RailwayTracker(model: model))
        #expect(score.scoredFixes > 20)
        #expect(Double(score.railwayCorrect) / Double(score.scoredFixes) > 0.95)
        #expect(Double(score.nextStopCorrect) / Double(score.scoredFixes) > 0.9)
    }

    @Test(arguments: [21 as UInt64, 5, 8, 3])
    func aPhoneThatLogsOnlyOnMovementStopsWhereItFallsSilentAtAStation(seed: UInt64) throws {
        // A local and an express on one track, no timetable; the local train, logged as iOS's
        // distance filter does: a fix only 50 m from the last, so nothing while the train
        // stands, and no speed or course. Its silences at the local's stations are its stops
        // (without the rule, the express was named on 74-90 % of two of these rides).
        let ride = try #require(
            CaseGenerator(dataset: DemoRides.dataset).cases(
                count: 1, seed: seed, filter: RideFilter(railways: [DemoNetwork.localID], stops: 6...8)
            ).first)
        var logged: [RecordedFix] = []
        for var fix in ride.fixes
        where logged.last.map({ $0.location.coordinate.distance(to: fix.location.coordinate) >= 50 }) ?? true {
            // An Android logger: position and time only.
            fix.location.speed = nil
            fix.location.course = nil
            logged.append(fix)
        }
        // No timetable: only where the train stops tells the local from the express.
        let model = TrackerModel(network: DemoRides.dataset.network)
        func railwayShare(silentStopSpeed: MetersPerSecond) -> Double {
            var parameters = RailwayTracker.Parameters()
            parameters.stops.silentStopSpeed = silentStopSpeed
            let score = Evaluator().score(
                fixes: logged, truth: ride.truth, tracker: RailwayTracker(model: model, parameters: parameters))
            return Double(score.railwayCorrect) / Double(max(score.scoredFixes, 1))
        }
        let withSilences = railwayShare(silentStopSpeed: StopEvidence().silentStopSpeed)
        let without = railwayShare(silentStopSpeed: 0)
        #expect(logged.count * 3 < ride.fixes.count)
        #expect(withSilences > 0.95, "\(withSilences)")
        #expect(withSilences > without + 0.1, "\(withSilences) against \(without) without the rule")
    }

    @Test func explainingSplitsEachScoreByTermAndChangesNoAnswer() throws {
        let ride = try #require(
            CaseGenerator(dataset: DemoRides.dataset).cases(
                count: 1, seed: 4, filter: RideFilter(railways: [DemoNetwork.expressID], stops: 4...6)
            ).first)
        let model = TrackerModel(dataset: DemoRides.dataset)
        var plain = RailwayTracker(model: model)
        var explaining = RailwayTracker(model: model)
        explaining.explains = true
        var seen = Set<EvidenceTerm>()
        for fix in ride.fixes {
            let answer = plain.process(fix.location)
            let explained = explaining.process(fix.location)
            #expect(answer == explained)
            let explanation = explaining.explanation()
            #expect(explanation.map(\.score) == explanation.map(\.score).sorted(by: >))
            #expect(explanation.first.map { $0.score == 0 } ?? true, "the leader first, at 0")
            for item in explanation { seen.formUnion(item.terms.map(\.term)) }
        }
        #expect(seen.isSuperset(of: [.position, .course, .stops, .traffic]), "\(seen)")
        #expect(plain.explanation().isEmpty, "nothing is kept unless asked for")
    }
}
