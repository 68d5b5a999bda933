import Foundation
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// The trip model follows scheduled trips and their delays: a local running twelve minutes
/// late, in the express's slot, is still the local when it stops where locals stop.
@Suite struct TripTrackerTests {
    static let origin = LocalProjection(origin: Coordinate(latitude: 35.66, longitude: 139.66))

    /// The place `east` metres along the track from station 0.
    static func point(_ east: Double) -> Coordinate { origin.coordinate(at: PlanarVector(east: east, north: 0)) }

    /// "Local" and "Express" on one straight track, stations 0 to 4 two kilometres apart. A
    /// local every 20 minutes from 07:00, calling everywhere (150 s running, 30 s dwell); an
    /// express every 20 minutes from 07:12, calling at 0 and 4 only (400 s).
    static func dataset() throws -> TransitDataset {
        var trains: [TimetabledTrain] = []
        for index in 0..<9 {
            let start = 25_200 + Double(index) * 1_200
            trains.append(
                TimetabledTrain(
                    id: "L\(index)", railwayID: "Local", directionName: "East", service: "Daily",
                    stops: (0...4).map {
                        TimetableStop(stationID: "Local.\($0)", arrival: nil, departure: start + Double($0) * 180)
                    }))
            trains.append(
                TimetabledTrain(
                    id: "E\(index)", railwayID: "Express", directionName: "East", service: "Daily",
                    stops: [0, 4].map {
                        TimetableStop(stationID: "Express.\($0)", arrival: nil, departure: start + 720 + Double($0) * 100)
                    }))
        }
        return TransitDataset(network: try network(), timetable: Timetable(trains: trains))
    }

    static func network() throws -> RailwayNetwork {
        let track = Track(pieces: [((0...80).map { point(Double($0) * 100) }, false)])
        var stations: [Station] = []
        var railways: [Railway] = []
        for id in ["Local", "Express"] {
            stations += (0...4).map {
                Station(id: "\(id).\($0)", railwayID: id, name: "\($0)", coordinate: point(Double($0) * 2_000))
            }
            railways.append(
                Railway(
                    id: id, name: id, stationIDs: (0...4).map { "\(id).\($0)" }, ascendingName: "East",
                    descendingName: "West", track: track))
        }
        return try RailwayNetwork(railways: railways, stations: stations)
    }

    /// Fixes every `every` seconds of a train leaving station 0 at `departure` (seconds after
    /// the morning's 08:00), running 150 s between stations and standing `dwell` s at each of
    /// `stops` (1, 2, 3) on the way; no speed, no course, as a recorded train.
    static func ride(departure: Seconds, dwell: Seconds, stops: Bool, every: Seconds = 30) -> [Location] {
        var fixes: [Location] = []
        var legs: [(start: Seconds, from: Meters, to: Meters, duration: Seconds)] = []
        var clock = departure
        for leg in 0..<4 {
            let duration: Seconds = stops ? 150 : 100
            legs.append((clock, Double(leg) * 2_000, Double(leg + 1) * 2_000, duration))
            clock += duration + (stops ? dwell : 0)
        }
        for second in stride(from: departure - 120, through: clock, by: every) {
            var place: Meters = 0
            for leg in legs where second >= leg.start {
                place = leg.from + (leg.to - leg.from) * min((second - leg.start) / leg.duration, 1)
            }
            fixes.append(Location(coordinate: point(place), timestamp: morning.adding(second - 3_600)))
        }
        return fixes
    }

    /// The local of 07:00 (morning is 08:00, so its train is L0), twelve minutes late: it
    /// leaves station 0 exactly when express E0 does, and stops at 1, 2 and 3.
    @Test func aLateLocalThatStopsWhereLocalsStopIsTheLocal() throws {
        var tracker = TripTracker(model: TrackerModel(dataset: try Self.dataset()))
        let answers = Self.ride(departure: 720, dwell: 30, stops: true).map { tracker.process($0).best }
        let last = try #require(answers.last ?? nil)
        #expect(last.railwayID == "Local")
        #expect(last.trainID == "L0")
        #expect(abs((last.delaySeconds ?? 0) - 720) <= 60, "\(String(describing: last.delaySeconds))")
        // From the first stop on (station 1, 3 minutes out), every answer is the local.
        #expect(answers.suffix(20).allSatisfy { $0?.railwayID == "Local" }, "\(answers.map { $0?.trainID })")
    }

    /// The local of 07:00 on time stands 15 minutes at station 2 and its logger is silent
    /// while it stands (a recording of positions that change, a phone that logs on movement);
    /// then it runs on, 15 minutes late. It is still L0, not L1 five minutes early: a
    /// stand on its way (rare) explains the gap. With a delay that only wanders, a prior that
    /// lets a train run early (an early side of 96 s, as the likelihood alone fitted it) and a
    /// grid down to 10 minutes early, the next local is the likelier.
    @Test func aLocalThatStoodLongIsStillTheLocal() throws {
        let model = TrackerModel(dataset: try Self.dataset())
        let ride = Self.ride(departure: 0, dwell: 30, stops: true)
        // Station 2 is reached at 330 s (two legs of 150 s, a dwell of 30 s); the train stands
        // there 15 minutes longer, silent.
        let stand: Seconds = 900
        let arrival = morning.adding(330 - 3_600)
        let stood =
            ride.filter { $0.timestamp <= arrival }
            + ride.filter { $0.timestamp > arrival.adding(30) }.map {
                Location(coordinate: $0.coordinate, timestamp: $0.timestamp.adding(stand))
            }
        func lastTrain(_ parameters: TripModelParameters) -> (train: String?, delay: Seconds?) {
            var tracker = TripTracker(model: model, trips: parameters)
            let last = stood.map { tracker.process($0).best }.last ?? nil
            return (last?.trainID, last?.delaySeconds)
        }
        let answer = lastTrain(TripModelParameters())
        #expect(answer.train == "L0")
        #expect(abs((answer.delay ?? 0) - stand) <= 90, "\(String(describing: answer.delay))")
        // A delay that only wanders, without jumps or stands, makes it the next local running early.
        var withoutJumps = TripModelParameters()
        // (The fitted prior, changed, on this network's lines too.)
        withoutJumps.delayPriorLines = nil
        withoutJumps.earlyScale = 96
        #expect(lastTrain(withoutJumps).train == "L0", "the early side alone does not change it")
        withoutJumps.disruptionRate = 0
        withoutJumps.holdRate = 0
        withoutJumps.standRate = 0
        withoutJumps.earliest = -600
        #expect(lastTrain(withoutJumps).train == "L1")
    }

    /// The control: the same departure, running through as an express does, is the express.
    @Test func theSameDepartureRunningThroughIsTheExpress() throws {
        var tracker = TripTracker(model: TrackerModel(dataset: try Self.dataset()))
        let answers = Self.ride(departure: 720, dwell: 0, stops: false).map { tracker.process($0).best }
        let last = try #require(answers.last ?? nil)
        #expect(last.railwayID == "Express")
        #expect(last.trainID == "E0")
    }

    /// Without a timetable there is no trip: the default tracker's answer stands.
    @Test func withoutATimetableTheDefaultAnswerStands() throws {
        let model = TrackerModel(network: try Self.network())
        var trips = TripTracker(model: model)
        var plain = RailwayTracker(model: model)
        for fix in Self.ride(departure: 720, dwell: 30, stops: true) {
            #expect(trips.process(fix) == plain.process(fix))
        }
    }

    /// Between fixes (a tunnel, a phone's silence) the rider is carried along by the believed
    /// trip's timetable: the local twelve minutes late, last heard 60 % of the way from
    /// station 1 to 2, is told "next: 3" two and a half minutes later, when its timetable has
    /// it halfway from 2 to 3 (the default tracker's reckoning stops at the next station, 2).
    /// Once the trip has left service the default tracker's estimate stands.
    @Test func aSilenceIsBridgedByTheTripsTimetable() throws {
        var tracker = TripTracker(model: TrackerModel(dataset: try Self.dataset()))
        let heard = Self.ride(departure: 720, dwell: 30, stops: true).filter { $0.timestamp <= morning.adding(1_000 - 3_600) }
        for fix in heard { _ = tracker.process(fix) }
        #expect(tracker.process(heard[heard.count - 1]).best?.trainID == "L0")
        var bridging = tracker
        let later = bridging.estimate(at: morning.adding(1_155 - 3_600))
        let best = try #require(later.best)
        #expect(later.estimated)
        #expect(best.trainID == "L0" && best.railwayID == "Local")
        #expect(best.focusStationID == "Local.3" && best.nextStopID == "Local.3", "\(best)")
        #expect(best.laterStationIDs == ["Local.4"])
        var plain = tracker.inner
        #expect(plain.estimate(at: morning.adding(1_155 - 3_600)).best?.focusStationID == "Local.2", "the contrast")
        // Hours later the trip has left service.
        let gone = morning.adding(1_155 + 3 * 3_600)
        var after = tracker
        var innerAfter = tracker.inner
        #expect(after.estimate(at: gone) == innerAfter.estimate(at: gone))
    }

    /// A phone that logs every second tells the model no more than one logging every 20 s:
    /// its fixes' errors (here a slow wander of up to 60 m along the track, as a phone's) are
    /// the same from one second to the next. The late local's ride, read at 1 Hz and at one
    /// fix in 20, gives the same railway and about the same confidence at each 20-second mark;
    /// counted as independent, the fixes a second made the model sure of whatever the wander
    /// pointed to, and on Tokyo's parallel lines it swung from one line's trip to the other's.
    @Test func aFixASecondIsNoSurerThanAFixEveryTwentySeconds() throws {
        let model = TrackerModel(dataset: try Self.dataset())
        let wandering = Self.ride(departure: 720, dwell: 30, stops: true, every: 1).enumerated().map { index, fix in
            let along = 60 * sin(Double(index) * 2 * .pi / 240)
            let place = Self.origin.vector(to: fix.coordinate).east + along
            return Location(coordinate: Self.point(place), timestamp: fix.timestamp)
        }
        var dense = TripTracker(model: model)
        var sparse = TripTracker(model: model)
        var gaps: [Double] = []
        var agree = 0
        for (index, fix) in wandering.enumerated() {
            let every = dense.process(fix).best
            guard index % 20 == 0 else { continue }
            let thinned = sparse.process(fix).best
            if every?.railwayID == thinned?.railwayID { agree += 1 }
            gaps.append(abs((every?.confidence ?? 0) - (thinned?.confidence ?? 0)))
        }
        #expect(agree * 10 >= gaps.count * 9, "\(agree) of \(gaps.count) marks")
        let meanGap = gaps.reduce(0, +) / Double(gaps.count)
        #expect(meanGap < 0.1, "confidence apart by \(meanGap) on average")
    }

    /// One fix dated a day ahead (a phone's clock gone wrong, a hostile upload) in a ride at
    /// 1 Hz does not stop the trip model: the fixes after it, dated before it, are still
    /// weighed, and the late local is still named at the end.
    @Test func aFixDatedADayAheadDoesNotStopTheModel() throws {
        var tracker = TripTracker(model: TrackerModel(dataset: try Self.dataset()))
        var fixes = Self.ride(departure: 720, dwell: 30, stops: true, every: 1)
        let wrong = fixes[200]
        fixes.insert(Location(coordinate: wrong.coordinate, timestamp: wrong.timestamp.adding(86_400)), at: 201)
        let answers = fixes.map { tracker.process($0).best }
        let last = try #require(answers.last ?? nil)
        #expect(last.trainID == "L0" && last.railwayID == "Local", "\(last)")
    }

    /// The likelihood of a ride under its true trip is higher than under another trip, and a
    /// ride's fixes far from any track cost it.
    @Test func theTrueTripIsTheLikelierOne() throws {
        let model = TrackerModel(dataset: try Self.dataset())
        let fixes = Self.ride(departure: 720, dwell: 30, stops: true)
        let parameters = TripModelParameters()
        let truth = parameters.logLikelihood(of: TripModelRide(fixes: fixes, tripID: "L0", model: model), model: model)
        let other = parameters.logLikelihood(of: TripModelRide(fixes: fixes, tripID: "E0", model: model), model: model)
        #expect(truth > other + 10, "\(truth) vs \(other)")
    }
}
