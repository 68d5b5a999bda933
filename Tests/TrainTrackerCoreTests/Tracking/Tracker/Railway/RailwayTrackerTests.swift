import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The default algorithm on hand-made networks and timetables where the answer is known.
@Suite(.tags(.sharedData)) struct RailwayTrackerTests {
    static let dataset = DemoRides.dataset
    static let model = TrackerModel(dataset: dataset)

    func ride(_ railway: String, seed: UInt64 = 21) throws -> SimulatedCase {
        let filter = RideFilter(railways: [railway], stops: 4...8)
        return try #require(CaseGenerator(dataset: Self.dataset).cases(count: 1, seed: seed, filter: filter).first)
    }

    func answers(_ fixes: [Location], model: TrackerModel = model) -> [TrackingResult] {
        var tracker = RailwayTracker(model: model)
        return fixes.map { tracker.process($0) }
    }

    @Test(arguments: [DemoNetwork.localID, DemoNetwork.expressID])
    func localAndExpressOnOneTrackAreToldApartByTheirStops(railway: String) throws {
        let ride = try ride(railway)
        let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: RailwayTracker(model: Self.model))
        #expect(score.scoredFixes > 100)
        #expect(Double(score.railwayCorrect) / Double(score.scoredFixes) > 0.97)
        #expect(Double(score.focusCorrect) / Double(score.scoredFixes) > 0.95)
        #expect(Double(score.nextStopCorrect) / Double(score.scoredFixes) > 0.95)
        #expect(score.locked)
    }

    @Test func theTimetableGivesTheTrainTypeNextStopAndArrival() throws {
        let ride = try ride(DemoNetwork.expressID)
        let results = answers(ride.fixes.map(\.location))
        let late = try #require(results.last?.best)
        #expect(late.trainTypeID == DemoNetwork.expressID)
        // Mid-ride the next stop is an express stop ahead, with an arrival after now.
        let middle = results[results.count / 2]
        let best = try #require(middle.best)
        let stop = try #require(best.nextStopID)
        #expect(stop.hasPrefix("Demo.Express."))
        let now = ride.fixes[results.count / 2].location.timestamp
        #expect(best.eta.map { $0 >= now && $0.seconds(since: now) < 600 } == true)
    }

    @Test func farOffFixesAndFalseZerosNeverFlipTheAnswer() throws {
        let ride = try ride(DemoNetwork.localID, seed: 8)
        var noisy = ride.fixes.map(\.location)
        var generator = SeededGenerator(seed: 99)
        for index in noisy.indices where index % 17 == 0 {
            if noisy[index].speed == 0 {
                // Inside a station: a fix 1 km away, sometimes claiming good accuracy.
                let projection = LocalProjection(origin: noisy[index].coordinate)
                noisy[index].coordinate = projection.coordinate(
                    at: PlanarVector(course: Double.random(in: 0..<360, using: &generator)) * 1_000)
                noisy[index].horizontalAccuracy = Bool.random(using: &generator) ? 1_000 : 40
            } else {
                noisy[index].speed = 0  // a spurious zero while moving
            }
        }
        let clean = answers(ride.fixes.map(\.location))
        let dirty = answers(noisy)
        let departure = ride.truth.departure + 60
        for (index, fix) in ride.fixes.enumerated() where fix.location.timestamp.secondsSince1970 > departure {
            #expect(dirty[index].best?.railwayID == clean[index].best?.railwayID)
            #expect(dirty[index].best?.directionName == clean[index].best?.directionName)
        }
    }

    @Test func aGapIsBridgedByDeadReckoningAndReanchoredAfter() throws {
        let ride = try ride(DemoNetwork.localID, seed: 3)
        let fixes = ride.fixes.map(\.location)
        // Find a stretch of fast running and cut 40 s out of it.
        let start = try #require(
            fixes.indices.first { index in
                index > fixes.count / 3 && (fixes[index].speed ?? 0) > 8
            })
        var tracker = RailwayTracker(model: Self.model)
        var before: TrackingResult?
        for fix in fixes[..<start] { before = tracker.process(fix) }
        let last = fixes[start - 1].timestamp
        let estimated = tracker.estimate(at: last.adding(30))
        #expect(estimated.estimated)
        #expect(estimated.best?.railwayID == before?.best?.railwayID)
        let fresh = tracker.estimate(at: last.adding(1))
        #expect(!fresh.estimated, "a second-old fix is not a gap")
        // The position moved on: the truth 30 s later has the same focus, or the train stops first.
        let truthLater = try #require(ride.truth.fixes.first { $0.time >= last.secondsSince1970 + 30 })
        let local = try #require(DemoNetwork.make().railway(id: DemoNetwork.localID))
        let order = local.stationIDs
        let estimatedFocus = try #require(estimated.best?.focusStationID)
        let beforeFocus = try #require(before?.best?.focusStationID)
        let estimatedIndex = try #require(order.firstIndex(of: estimatedFocus))
        let beforeIndex = try #require(order.firstIndex(of: beforeFocus))
        let truthIndex = try #require(order.firstIndex(of: truthLater.station))
        #expect(estimatedIndex >= beforeIndex && estimatedIndex <= truthIndex + 1)
        // Fixes return: the answer is measured again and right.
        let resumed = fixes[(start + 40)...].map { tracker.process($0) }
        #expect(resumed.allSatisfy { !$0.estimated })
        #expect(resumed.suffix(60).allSatisfy { $0.best?.railwayID == DemoNetwork.localID })
    }

    @Test func confidenceIsLowWhileAmbiguousAndHighOnceTheStopsTell() throws {
        let ride = try ride(DemoNetwork.expressID, seed: 5)
        let results = answers(ride.fixes.map(\.location))
        let confidences = results.compactMap { $0.best?.confidence }
        #expect(confidences.allSatisfy { $0 > 0 && $0 <= 1 })
        for result in results {
            let total = result.candidates.compactMap(\.confidence).reduce(0, +)
            #expect(total <= 1 + 1e-9)
        }
        // At the first station both lines fit; at the end, after passing local stations, one does.
        #expect((results.first { $0.best != nil }?.best?.confidence ?? 1) < 0.6)
        #expect((results.last?.best?.confidence ?? 0) > 0.9)
    }

    @Test func hypothesesStayBoundedOnALongRide() throws {
        let network = try SharedData.tokyoNetwork()
        let model = TrackerModel(dataset: TransitDataset(network: network))
        let fixes = try JourneySimulator(network: network).journey(
            on: "JR-East.Tokaido", from: "JR-East.Tokaido.Tokyo", to: "JR-East.Tokaido.Odawara", start: morning)
        var tracker = RailwayTracker(model: model)
        var most = 0
        var slotsAstray = 0
        for fix in fixes {
            _ = tracker.process(fix)
            most = max(most, tracker.hypothesisCount)
            #expect(tracker.largestHypothesis <= 64)
            // Each line's slot still finds its hypothesis after the forgotten are dropped.
            let hypotheses = tracker.hypotheses
            let held = tracker.slots.filter { $0 >= 0 }.count
            if held != hypotheses.count
                || hypotheses.indices.contains(where: { tracker.slots[line: hypotheses[$0].line] != Int32($0) })
            {
                slotsAstray += 1
            }
        }
        #expect(slotsAstray == 0)
        #expect(fixes.count > 4_000)
        #expect(most < 80, "hypotheses are dropped once far behind and out of reach")
        #expect(tracker.hypothesisCount < 20)
    }

    @Test func aThroughTrainSwitchesRailwayWithinAMinuteOfTheBoundary() throws {
        // Two railways end to end on one straight track, linked by through service.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.7, longitude: 139.5))
        let point = { (east: Double) in origin.coordinate(at: PlanarVector(east: east, north: 0)) }
        let first = (0...40).map { point(Double($0) * 100) }
        let second = (40...80).map { point(Double($0) * 100) }
        var stations: [Station] = []
        for (railway, range) in [("A", 0...4), ("B", 4...8)] {
            for index in range {
                stations.append(
                    Station(
                        id: "\(railway).\(index)", railwayID: railway, name: "\(index)", coordinate: point(Double(index) * 1_000))
                )
            }
        }
        let railways = [
            Railway(
                id: "A", name: "A", stationIDs: (0...4).map { "A.\($0)" }, ascendingName: "East", descendingName: "West",
                track: Track(pieces: [(first, false)])),
            Railway(
                id: "B", name: "B", stationIDs: (4...8).map { "B.\($0)" }, ascendingName: "East", descendingName: "West",
                track: Track(pieces: [(second, false)])),
        ]
        let network = try RailwayNetwork(railways: railways, stations: stations)
        func train(_ id: String, _ railway: String, _ range: ClosedRange<Int>, start: Seconds, next: [String], previous: [String])
            -> TimetabledTrain
        {
            TimetabledTrain(
                id: id, railwayID: railway, directionName: "East", service: "Daily",
                stops: range.map {
                    TimetableStop(
                        stationID: "\(railway).\($0)", arrival: start + Double($0 - range.lowerBound) * 120,
                        departure: start + Double($0 - range.lowerBound) * 120)
                },
                previousTrainIDs: previous, nextTrainIDs: next)
        }
        let timetable = Timetable(trains: [
            train("A1", "A", 0...4, start: 30_000, next: ["B1"], previous: []),
            train("B1", "B", 4...8, start: 30_480, next: [], previous: ["A1"]),
        ])
        let model = TrackerModel(dataset: TransitDataset(network: network, timetable: timetable))
        #expect(model.throughService[0] == [1])
        // The rider stays on: a ride along A, a short stop at the shared end station, on along B.
        let simulator = JourneySimulator(network: network)
        let onA = try simulator.journey(on: "A", from: "A.0", to: "A.4", start: morning)
        let boundary = try #require(onA.last).timestamp
        let onB = try simulator.journey(on: "B", from: "B.4", to: "B.8", start: boundary.adding(1)).dropFirst(15)
        var tracker = RailwayTracker(model: model)
        for fix in onA { _ = tracker.process(fix) }
        let end = try #require(onA.last)
        #expect(tracker.process(end).best?.railwayID == "A")
        let departure = try #require(onB.first { ($0.speed ?? 0) > 1 }).timestamp
        var switched: Timestamp?
        for fix in onB {
            let answer = tracker.process(fix)
            if answer.best?.railwayID == "B", switched == nil { switched = fix.timestamp }
            if answer.best?.railwayID != "B" { switched = nil }
        }
        let at = try #require(switched)
        #expect(at.seconds(since: departure) <= 60)
    }

    @Test func stationsCrossedInATunnelSayNothingAboutTheTrain() throws {
        // A local ride whose stop at a station the express passes falls in a gap of the fixes.
        let ride = try ride(DemoNetwork.localID, seed: 21)
        let localOnly = ride.truth.stops.dropFirst().dropLast().first { id in
            !DemoNetwork.expressStops.contains(String(id.split(separator: ".").last ?? ""))
        }
        let station = try #require(localOnly)
        let standing = ride.truth.fixes.filter { $0.station == station && $0.speed == 0 }.map(\.time)
        let (from, to) = (try #require(standing.min()) - 40, try #require(standing.max()) + 40)
        let fixes = ride.fixes.map(\.location).filter {
            $0.timestamp.secondsSince1970 < from || $0.timestamp.secondsSince1970 > to
        }
        #expect(fixes.count < ride.fixes.count - 60)
        var tracker = RailwayTracker(model: Self.model)
        func lead(_ result: TrackingResult) -> Double? {
            let local = result.candidates.first { $0.railwayID == DemoNetwork.localID }?.score
            let express = result.candidates.first { $0.railwayID == DemoNetwork.expressID }?.score
            return local.flatMap { local in express.map { local - $0 } }
        }
        var before: Double?
        var after: Double?
        for fix in fixes {
            let result = tracker.process(fix)
            if fix.timestamp.secondsSince1970 < from { before = lead(result) ?? before }
            if fix.timestamp.secondsSince1970 > to, after == nil { after = lead(result) }
        }
        // Neither a pass nor a stop: the local line's lead over the express does not fall.
        let (leadBefore, leadAfter) = (try #require(before), try #require(after))
        #expect(leadAfter > leadBefore - 1, "lead \(leadBefore) before the gap, \(leadAfter) after")
    }

    @Test func aFixUnderTheSkyIsNotFromATrainDeepInATunnel() throws {
        // Two lines on the same line on the map with the same stations (a subway under a street
        // railway); the subway is underground from 1 to 5 km.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.75, longitude: 139.8))
        // The subway first: on equal evidence the first line wins, so only the tunnel can tell.
        let network = try Self.straightLines(
            [
                ("Subway", [(0, 10, false), (10, 50, true), (50, 60, false)], [0, 2_000, 4_000, 6_000]),
                ("Surface", [(0, 60, false)], [0, 2_000, 4_000, 6_000]),
            ], origin: origin)
        #expect(
            network.railways[0].track.undergroundStretches().map { Int($0.lowerBound.rounded())...Int($0.upperBound.rounded()) }
                == [1_000...5_000])
        let model = TrackerModel(dataset: TransitDataset(network: network))
        let fixes = try JourneySimulator(network: network).journey(
            on: "Surface", from: "Surface.0", to: "Surface.3", start: morning)
        var tracker = RailwayTracker(model: model)
        var deep = 0
        var right = 0
        for fix in fixes {
            let answer = tracker.process(fix)
            let east = origin.vector(to: fix.coordinate).east
            guard east > 2_000, east < 4_500 else { continue }
            deep += 1
            if answer.best?.railwayID == "Surface" { right += 1 }
        }
        #expect(deep > 60)
        #expect(Double(right) / Double(deep) > 0.95, "\(right) of \(deep) fixes above the tunnel on the surface line")
    }

    @Test func onSharedTrackTheLineMostTrainsRunWinsUntilTheEvidenceSpeaks() throws {
        // "Z" stops at five stations; "B" runs the same track between Z's ends with no station of
        // its own in between (a through service few of its trains make), and on beyond, where
        // most of its trains run: B is the busier line, but not here.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.66, longitude: 139.66))
        let point = { (east: Double) in origin.coordinate(at: PlanarVector(east: east, north: 0)) }
        let track = Track(pieces: [((0...40).map { point(Double($0) * 100) }, false)])
        let longer = Track(pieces: [((0...80).map { point(Double($0) * 100) }, false)])
        var stations = (0...4).map {
            Station(id: "Z.\($0)", railwayID: "Z", name: "\($0)", coordinate: point(Double($0) * 1_000))
        }
        stations += [0, 4, 8].map { Station(id: "B.\($0)", railwayID: "B", name: "\($0)", coordinate: point(Double($0) * 1_000)) }
        let railways = [
            Railway(
                id: "B", name: "B", stationIDs: ["B.0", "B.4", "B.8"], ascendingName: "East", descendingName: "West",
                track: longer),
            Railway(
                id: "Z", name: "Z", stationIDs: (0...4).map { "Z.\($0)" }, ascendingName: "East", descendingName: "West",
                track: track),
        ]
        func train(_ id: String, _ railway: String, _ stops: [Int], start: Seconds) -> TimetabledTrain {
            TimetabledTrain(
                id: id, railwayID: railway, directionName: "East", service: "Daily",
                stops: stops.map {
                    TimetableStop(stationID: "\(railway).\($0)", arrival: nil, departure: start + Double($0) * 90)
                })
        }
        var trains: [TimetabledTrain] = (0..<40).map { train("Z\($0)", "Z", [0, 1, 2, 3, 4], start: 21_600 + Double($0) * 600) }
        trains += (0..<3).map { train("B\($0)", "B", [0, 4], start: 30_000 + Double($0) * 3_600) }
        trains += (0..<100).map { train("B\($0 + 3)", "B", [4, 8], start: 21_600 + Double($0) * 300) }
        let dataset = TransitDataset(
            network: try RailwayNetwork(railways: railways, stations: stations), timetable: Timetable(trains: trains))
        let model = TrackerModel(dataset: dataset)
        let z = try #require(model.network.railwayIndex(id: "Z"))
        let b = try #require(model.network.railwayIndex(id: "B"))
        #expect(model.segmentTraffic[z * 2].map { Int(Double.exp($0).rounded()) - 1 } == [40, 40, 40, 40, 0])
        #expect(model.segmentTraffic[b * 2].map { Int(Double.exp($0).rounded()) - 1 } == [3, 100, 0])
        #expect(model.logPrior[b * 2] > model.logPrior[z * 2])
        // Moving fixes between two of Z's stations: nothing but the traffic tells the lines apart.
        let fixes = (0..<40).map { second in
            Location(
                coordinate: point(1_200 + Double(second) * 15), timestamp: morning.adding(Double(second)),
                horizontalAccuracy: 8, speed: 15, course: 90)
        }
        // (Where the scheduled trains are at the time would tell too: that is another test's.)
        var traffic = RailwayTracker.Parameters()
        traffic.passages.cap = 0
        var tracker = RailwayTracker(model: model, parameters: traffic)
        let answers = fixes.map { tracker.process($0).best?.railwayID }
        #expect(answers.suffix(30).allSatisfy { $0 == "Z" }, "\(answers)")
    }

    @Test func aLongSilenceMeansATunnelNotALineUnderTheSky() throws {
        // A street railway ("Above", first, so that it wins a tie) over a subway ("Metro",
        // underground from 1 to 5 km) with the same stations; the rider is on the subway, and
        // the phone is silent while it is underground.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.75, longitude: 139.8))
        let network = try Self.straightLines(
            [
                ("Above", [(0, 60, false)], [0, 2_000, 4_000, 6_000]),
                ("Metro", [(0, 10, false), (10, 50, true), (50, 60, false)], [0, 2_000, 4_000, 6_000]),
            ], origin: origin)
        let model = TrackerModel(dataset: TransitDataset(network: network))
        let fixes = try JourneySimulator(network: network).journey(on: "Metro", from: "Metro.0", to: "Metro.3", start: morning)
            .filter {
                let east = origin.vector(to: $0.coordinate).east
                return east < 1_000 || east > 5_000
            }
        var tracker = RailwayTracker(model: model)
        var afterGap: [String?] = []
        var previous: Timestamp?
        for fix in fixes {
            let answer = tracker.process(fix)
            if let previous, fix.timestamp.seconds(since: previous) > 60 || !afterGap.isEmpty {
                afterGap.append(answer.best?.railwayID)
            }
            previous = fix.timestamp
        }
        #expect(afterGap.count > 20)
        #expect(afterGap.allSatisfy { $0 == "Metro" }, "\(afterGap)")
    }

    /// Straight lines along one east-west axis (stations at the given distances east), and
    /// the points of that axis.
    static func straightLines(
        _ lines: [(id: String, track: [(from: Int, to: Int, underground: Bool)], stations: [Meters])],
        origin: LocalProjection
    ) throws -> RailwayNetwork {
        let point = { (east: Double) in origin.coordinate(at: PlanarVector(east: east, north: 0)) }
        var stations: [Station] = []
        var railways: [Railway] = []
        for line in lines {
            let ids = line.stations.indices.map { "\(line.id).\($0)" }
            for (id, east) in zip(ids, line.stations) {
                stations.append(Station(id: id, railwayID: line.id, name: id, coordinate: point(east)))
            }
            let pieces = line.track.map { piece in ((piece.from...piece.to).map { point(Double($0) * 100) }, piece.underground) }
            railways.append(
                Railway(
                    id: line.id, name: line.id, stationIDs: ids, ascendingName: "East", descendingName: "West",
                    track: Track(pieces: pieces)))
        }
        return try RailwayNetwork(railways: railways, stations: stations)
    }

    /// A rider walking east along the axis from `from` to `to` at 1.2 m/s, then standing
    /// there until `until`; one good fix a second.
    static func walk(from: Meters, to: Meters, start: Timestamp, until: Timestamp, origin: LocalProjection) -> [Location] {
        let duration = (to - from) / 1.2
        return stride(from: 0.0, to: until.seconds(since: start), by: 1).map { second in
            let walking = second < duration
            let east = walking ? from + 1.2 * second : to
            return Location(
                coordinate: origin.coordinate(at: PlanarVector(east: east, north: 0)), timestamp: start.adding(second),
                horizontalAccuracy: 12, speed: walking ? 1.2 : 0, course: walking ? 90 : nil)
        }
    }

    @Test func theWalkToAnUndergroundPlatformIsNotAStopAwayFromItsStation() throws {
        // Two lines on one track, underground for the first 5 km: "Twin" (first, so that it
        // wins a tie) has its station at 0, "Metro" at 400 m. The rider walks along the street
        // from 0 to the Metro station, waits, and is silent until the Metro train comes out.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.7, longitude: 139.6))
        let track = [(0, 50, true), (50, 80, false)]
        let network = try Self.straightLines(
            [("Twin", track, [0, 6_000, 8_000]), ("Metro", track, [400, 6_000, 8_000])], origin: origin)
        let boarding = morning.adding(600)
        let walk = Self.walk(from: 0, to: 400, start: morning, until: boarding, origin: origin)
        let ride = try JourneySimulator(network: network).journey(on: "Metro", from: "Metro.0", to: "Metro.2", start: boarding)
            .filter { origin.vector(to: $0.coordinate).east > 5_000 }
        #expect(ride.count > 60)
        var tracker = RailwayTracker(model: TrackerModel(dataset: TransitDataset(network: network)))
        for fix in walk { _ = tracker.process(fix) }
        let answers = ride.map { tracker.process($0).best?.railwayID }
        #expect(answers.allSatisfy { $0 == "Metro" }, "\(answers)")
    }

    @Test func aLineTheTrainComesOntoAfterASilenceAnswersForIt() throws {
        // "Above" runs on the surface from 4 to 8 km beside "Metro", which is underground for
        // its first 5 km; "Street" crosses 40 m west of the Metro station at 0. The rider
        // comes on a Street train, walks to the Metro station, waits and is silent until the
        // Metro train comes out beside Above. Had an Above train carried the rider, the phone
        // would have seen the sky for minutes.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.7, longitude: 139.6))
        let north = { (meters: Double) in origin.coordinate(at: PlanarVector(east: -40, north: meters)) }
        var network = try Self.straightLines(
            [
                ("Above", [(40, 80, false)], [4_000, 6_000, 8_000]),
                ("Metro", [(0, 50, true), (50, 80, false)], [0, 2_000, 6_000, 8_000]),
            ],
            origin: origin)
        let street = Railway(
            id: "Street", name: "Street", stationIDs: ["Street.0", "Street.1"], ascendingName: "North", descendingName: "South",
            track: Track(pieces: [((-30...0).map { north(Double($0) * 100) }, false)]))
        network = try RailwayNetwork(
            railways: network.railways + [street],
            stations: network.stations + [
                Station(id: "Street.0", railwayID: "Street", name: "Street.0", coordinate: north(-2_500)),
                Station(id: "Street.1", railwayID: "Street", name: "Street.1", coordinate: north(0)),
            ])
        let simulator = JourneySimulator(network: network)
        let first = try simulator.journey(on: "Street", from: "Street.0", to: "Street.1", start: morning)
        let alighted = try #require(first.last).timestamp.adding(1)
        let boarding = alighted.adding(300)
        let walk = Self.walk(from: -40, to: 0, start: alighted, until: boarding, origin: origin)
        let ride = try simulator.journey(on: "Metro", from: "Metro.0", to: "Metro.3", start: boarding)
            .filter { origin.vector(to: $0.coordinate).east > 5_000 }
        #expect(ride.count > 60)
        var tracker = RailwayTracker(model: TrackerModel(dataset: TransitDataset(network: network)))
        for fix in first + walk { _ = tracker.process(fix) }
        let answers = ride.map { tracker.process($0).best?.railwayID }
        // (The Street train, the last one seen, is let go within a few seconds.)
        #expect(!answers.contains("Above") && answers.dropFirst(5).allSatisfy { $0 == "Metro" }, "\(answers)")
    }

    @Test func aRiderWhoWalksAwayFromATrainIsUnlikelyToRideItsLineBack() throws {
        // "A" (first, so that it wins a tie) runs from -4 to 4 km, "B" shares its track from 0.
        // The rider comes east on A to 2 km, walks along the platform, waits, and rides west
        // on B: on the shared track only the walk away from A tells the lines apart.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.7, longitude: 139.6))
        let network = try Self.straightLines(
            [("A", [(-40, 40, false)], [-4_000, -2_000, 0, 2_000, 4_000]), ("B", [(0, 40, false)], [0, 2_000, 4_000])],
            origin: origin)
        let simulator = JourneySimulator(network: network)
        let first = try simulator.journey(on: "A", from: "A.0", to: "A.3", start: morning)
        let alighted = try #require(first.last).timestamp.adding(1)
        let boarding = alighted.adding(240)
        let walk = Self.walk(from: 2_000, to: 2_100, start: alighted, until: boarding, origin: origin)
        let back = try simulator.journey(on: "B", from: "B.1", to: "B.0", start: boarding)
            .filter { origin.vector(to: $0.coordinate).east > 300 }
        var tracker = RailwayTracker(model: TrackerModel(dataset: TransitDataset(network: network)))
        let onA = first.map { tracker.process($0).best?.railwayID }
        #expect(onA.suffix(60).allSatisfy { $0 == "A" })
        for fix in walk { _ = tracker.process(fix) }
        // Answers once the train is 200 m on its way (standing, either direction is as good).
        let answers = back.map { (tracker.process($0).best, origin.vector(to: $0.coordinate).east) }.filter { $0.1 < 1_800 }
            .map { [$0.0?.railwayID ?? "-", $0.0?.directionName ?? "-"] }
        #expect(answers.count > 60)
        #expect(answers.allSatisfy { $0 == ["B", "West"] }, "\(answers.filter { $0 != ["B", "West"] })")
    }

    @Test func aKinkInTheDrawnTrackDoesNotCostItsLine() throws {
        // Two lines on one straight track; "A" is drawn with a 10 m zig-zag at 1 km (drawn
        // tracks kink at junctions and terminals). A train going east passes it.
        let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.9))
        let point = { (east: Double, north: Double) in origin.coordinate(at: PlanarVector(east: east, north: north)) }
        let straight = (0...20).map { point(Double($0) * 100, 0) }
        var kinked = (0...10).map { point(Double($0) * 100, 0) }
        kinked += [point(1_000.5, 10), point(1_001, 0)] + (11...20).map { point(Double($0) * 100, 0) }
        var stations: [Station] = []
        for railway in ["A", "B"] {
            for index in 0...2 {
                stations.append(
                    Station(
                        id: "\(railway).\(index)", railwayID: railway, name: "\(index)",
                        coordinate: point(Double(index) * 1_000, 0)))
            }
        }
        let railways = [
            Railway(
                id: "A", name: "A", stationIDs: ["A.0", "A.1", "A.2"], ascendingName: "East", descendingName: "West",
                track: Track(pieces: [(kinked, false)])),
            Railway(
                id: "B", name: "B", stationIDs: ["B.0", "B.1", "B.2"], ascendingName: "East", descendingName: "West",
                track: Track(pieces: [(straight, false)])),
        ]
        let model = TrackerModel(dataset: TransitDataset(network: try RailwayNetwork(railways: railways, stations: stations)))
        var tracker = RailwayTracker(model: model)
        var widest = 0.0
        for second in 0..<100 {
            let fix = Location(
                coordinate: point(500 + Double(second) * 10, 3), timestamp: morning.adding(Double(second)),
                horizontalAccuracy: 8, speed: 10, course: 90)
            let answer = tracker.process(fix)
            let a = answer.candidates.first { $0.railwayID == "A" && $0.directionName == "East" }?.score
            let b = answer.candidates.first { $0.railwayID == "B" && $0.directionName == "East" }?.score
            if let a, let b { widest = max(widest, b - a) }
        }
        // Judged by its edges' courses alone it falls 2.8 nats behind; what remains is the
        // 20 m the zig-zag adds to its length.
        #expect(widest < 2, "the kinked line fell \(widest) nats behind")
    }

    /// Two lines on one track with the same stations (like the Yamanote and the Keihin-Tohoku
    /// local): A's trains leave every 4 minutes on the minute, B's 2 minutes later.
    static func twinLines() throws -> TransitDataset {
        let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.7))
        let point = { (east: Double) in origin.coordinate(at: PlanarVector(east: east, north: 0)) }
        let track = (0...60).map { point(Double($0) * 100) }
        var stations: [Station] = []
        var railways: [Railway] = []
        var trains: [TimetabledTrain] = []
        for (railway, offset) in [("A", 0.0), ("B", 120.0)] {
            for index in 0...5 {
                stations.append(
                    Station(
                        id: "\(railway).\(index)", railwayID: railway, name: "\(index)",
                        coordinate: point(Double(index) * 1_200)))
            }
            railways.append(
                Railway(
                    id: railway, name: railway, stationIDs: (0...5).map { "\(railway).\($0)" }, ascendingName: "East",
                    descendingName: "West", track: Track(pieces: [(track, false)])))
            for run in 0..<60 {
                let start = 25_200 + offset + Double(run) * 240
                trains.append(
                    TimetabledTrain(
                        id: "\(railway)\(run)", railwayID: railway, directionName: "East", service: "Daily",
                        stops: (0...5).map {
                            TimetableStop(stationID: "\(railway).\($0)", arrival: nil, departure: start + Double($0) * 120)
                        }))
            }
        }
        let network = try RailwayNetwork(railways: railways, stations: stations)
        return TransitDataset(network: network, timetable: Timetable(trains: trains, utcOffset: 32_400))
    }

    @Test(arguments: ["A", "B"])
    func twinLinesOnOneTrackAreToldApartByTheirDepartureTimes(railway: String) throws {
        let dataset = try Self.twinLines()
        let model = TrackerModel(dataset: dataset)
        let rides = CaseGenerator(dataset: dataset).cases(
            count: 4, seed: 5, filter: RideFilter(railways: [railway], stops: 4...6))
        #expect(rides.count == 4)
        for ride in rides {
            let score = Evaluator().score(fixes: ride.fixes, truth: ride.truth, tracker: RailwayTracker(model: model))
            #expect(score.scoredFixes > 100)
            #expect(Double(score.railwayCorrect) / Double(score.scoredFixes) > 0.95, "\(ride.sessionID)")
            #expect(score.locked, "\(ride.sessionID)")
        }
    }
}
