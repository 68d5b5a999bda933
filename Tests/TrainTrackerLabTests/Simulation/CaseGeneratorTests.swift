import RealModule
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Simulated cases on the demonstration network with a small hand-written timetable.
@Suite(.tags(.sharedData)) struct CaseGeneratorTests {
    static let dataset = DemoRides.dataset

    @Test func theSameSeedGivesTheSameCasesAndAnotherSeedOthers() {
        let generator = CaseGenerator(dataset: Self.dataset)
        let first = generator.cases(count: 4, seed: 11)
        let again = generator.cases(count: 4, seed: 11)
        let other = generator.cases(count: 4, seed: 12)
        #expect(first.count == 4)
        #expect(first.map(\.truth) == again.map(\.truth))
        #expect(first.map(\.fixes) == again.map(\.fixes))
        #expect(first.map(\.fixes) != other.map(\.fixes))
    }

    @Test func eachRideIsDatedOnADayItsTrainRuns() throws {
        var dataset = Self.dataset
        dataset.timetable.trains[0].service = "SaturdayHoliday"
        dataset.timetable.calendar = .weekly(named: dataset.timetable.trains.map(\.service))
        let generator = CaseGenerator(dataset: dataset)
        let rides = generator.cases(count: 12, seed: 4, filter: RideFilter(railways: [DemoNetwork.localID]))
        #expect(Set(rides.map(\.truth.trainID)) == ["L1", "L2"])
        for ride in rides {
            let day = dataset.timetable.zone.day(of: Timestamp(secondsSince1970: ride.truth.departure))
            #expect(day.weekday == (ride.truth.trainID == "L1" ? 5 : 0), "\(ride.truth.trainID) left on \(day)")
        }
        // A service that never runs gives no rides.
        dataset.timetable.calendar = ServiceCalendar(services: ["Weekday": ServiceDays(weekdays: [])])
        dataset.timetable.trains[0].service = "Weekday"
        #expect(
            CaseGenerator(dataset: dataset).cases(count: 2, seed: 4, filter: RideFilter(railways: [DemoNetwork.localID])).isEmpty)
    }

    @Test func truthFollowsTheTrainAndNamesItsStops() throws {
        let generator = CaseGenerator(dataset: Self.dataset)
        let filter = RideFilter(name: "express", railways: [DemoNetwork.expressID], stops: 4...4)
        let ride = try #require(generator.cases(count: 1, seed: 3, filter: filter).first)
        #expect(ride.truth.scenario == "express")
        #expect(ride.truth.railwayID == DemoNetwork.expressID && ride.truth.directionName == "Eastbound")
        #expect(
            ride.truth.stops == DemoNetwork.stationNames.filter(DemoNetwork.expressStops.contains).map { "Demo.Express.\($0)" })
        #expect(ride.truth.fixes.count == ride.fixes.count)
        #expect(
            zip(ride.fixes, ride.truth.fixes).allSatisfy {
                $0.id == $1.locationID && $0.location.timestamp.secondsSince1970 == $1.time
            })
        // The truth's along-track positions only grow on an eastbound ride.
        let positions = ride.truth.fixes.map(\.alongTrack)
        #expect(positions == positions.sorted())
        // Next stops skip the stations the express passes.
        let nextStops = Set(ride.truth.fixes.compactMap(\.nextStop))
        #expect(nextStops.isSubset(of: Set(ride.truth.stops)))
        #expect(ride.truth.fixes.contains { $0.station == "Demo.Express.Midori" && $0.phase == .now })
        #expect(ride.truth.departure - ride.start.secondsSince1970 == TimetabledRide.Limits().initialWait)
    }

    @Test func aRideIsToldApartWhereAnotherServiceCallsDifferentlyOrLeavesItsTrack() throws {
        let filter = RideFilter(name: "shared", railways: [DemoNetwork.localID, DemoNetwork.expressID], stops: 3...4)
        let rides = CaseGenerator(dataset: Self.dataset).cases(count: 16, seed: 7, filter: filter)
        #expect(rides.contains { $0.truth.railwayID == DemoNetwork.expressID && $0.truth.telling != nil })
        #expect(rides.contains { $0.truth.railwayID == DemoNetwork.localID && $0.truth.telling != nil })
        for ride in rides {
            // Every station reached, called at or passed, in order.
            let passages = try #require(ride.truth.passages)
            #expect(passages.first?.station == ride.truth.stops.first && passages.last?.station == ride.truth.stops.last)
            #expect(Set(ride.truth.stops).isSubset(of: passages.map(\.station)))
            #expect(passages.map(\.time) == passages.map(\.time).sorted())
            let name = String(ride.truth.stops[0].split(separator: ".").last ?? "")
            let telling = ride.truth.telling
            guard DemoNetwork.expressStops.contains(name), ride.truth.directionName == "Eastbound" else {
                // A local boarding where the express has no station, or going the way no express
                // goes (only locals run westbound): nothing else could be its train.
                #expect(telling == nil, "\(ride.sessionID)")
                continue
            }
            // The express is told from the local at its first call after stations the local
            // calls at; the local from the express at the first station the express lacks.
            #expect(telling?.untold == [], "\(ride.sessionID)")
            #expect(telling?.station == passages[1].station, "\(ride.sessionID)")
        }
    }

    @Test func aServiceThatCallsWhereTheTrainCallsIsNeverToldApart() throws {
        var dataset = Self.dataset
        var semi = try #require(dataset.timetable.trains.first { $0.id == "E1" })
        semi.id = "S1"
        semi.trainTypeID = "Demo.Semi"
        semi.stops = semi.stops.map {
            TimetableStop(stationID: $0.stationID, arrival: $0.arrival.map { $0 + 300 }, departure: $0.departure.map { $0 + 300 })
        }
        dataset.timetable.trains.append(semi)
        let filter = RideFilter(railways: [DemoNetwork.expressID], trainTypes: [DemoNetwork.expressID], stops: 3...4)
        let ride = try #require(CaseGenerator(dataset: dataset).cases(count: 1, seed: 2, filter: filter).first)
        let telling = try #require(ride.truth.telling)
        // The local is told apart (it calls between the express's stops); the semi never is.
        #expect(telling.rivals == ["Demo.Express/Demo.Semi", "Demo.Local/Demo.Local"])
        #expect(telling.untold == ["Demo.Express/Demo.Semi"] && telling.station == nil)
    }

    @Test func thePhoneModelDropsSomeFixesAndReportsLikeAPhone() throws {
        let generator = CaseGenerator(dataset: Self.dataset)
        let ride = try #require(
            generator.cases(count: 1, seed: 5, filter: RideFilter(railways: [DemoNetwork.localID], stops: 8...8)).first)
        let span = ride.fixes.last!.location.timestamp.seconds(since: ride.fixes.first!.location.timestamp)
        let kept = Double(ride.fixes.count) / (span + 1)
        #expect(kept > 0.93 && kept < 0.995, "about 3 % dropped, got \(1 - kept)")
        let model = PhoneModel()
        for (fix, truth) in zip(ride.fixes, ride.truth.fixes) {
            let location = fix.location
            if truth.speed < model.courseMinimumSpeed { #expect(location.course == nil) }
            if (location.horizontalAccuracy ?? 0) > model.speedAccuracyLimit { #expect(location.speed == nil) }
            if truth.speed == 0 { #expect(location.speed == 0 || location.speed == nil) }
        }
        // Errors are correlated from one second to the next, and about as large as reported.
        let railway = try #require(Self.dataset.network.railway(id: DemoNetwork.localID))
        let errors = zip(ride.fixes, ride.truth.fixes).map { fix, truth -> Double in
            let onTrack = railway.track.polyline.point(atAlongTrack: truth.alongTrack).coordinate
            return LocalProjection(origin: onTrack).vector(to: fix.location.coordinate).east
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let variance = errors.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(errors.count)
        let lagged = zip(errors, errors.dropFirst()).reduce(0) { $0 + ($1.0 - mean) * ($1.1 - mean) } / Double(errors.count - 1)
        #expect(lagged / variance > 0.7, "correlated over several seconds")
        #expect(variance.squareRoot() > 2 && variance.squareRoot() < 20)
    }

    @Test func bigStationsThrowFixesFarOffOnlyWhileStopped() throws {
        // Tokyo: Shinjuku is a big station (many railways within 300 m).
        let network = try SharedData.tokyoNetwork()
        let railway = try #require(network.railway(id: "JR-East.ChuoRapid"))
        let stations = ["Shinjuku", "Yotsuya"].map { "JR-East.ChuoRapid.\($0)" }
        let train = TimetabledTrain(
            id: "T", railwayID: railway.id, directionName: railway.descendingName, service: "Weekday",
            stops: [
                TimetableStop(stationID: stations[0], arrival: nil, departure: 30_000),
                TimetableStop(stationID: stations[1], arrival: 30_300, departure: nil),
            ])
        var generator = CaseGenerator(dataset: TransitDataset(network: network, timetable: Timetable(trains: [train])))
        generator.limits.initialWait = 600
        let ride = try #require(generator.cases(count: 1, seed: 9, filter: RideFilter(stops: 2...2)).first)
        let track = railway.track.polyline
        let far = zip(ride.fixes, ride.truth.fixes).filter { (track.distance(to: $0.0.location.coordinate) ?? 0) > 250 }
        #expect(!far.isEmpty, "ten minutes at Shinjuku give some far-off fixes")
        #expect(far.allSatisfy { $0.1.speed == 0 })
    }

    @Test func noFixesComeFromUndergroundTrack() throws {
        let network = try SharedData.tokyoNetwork()
        let railway = try #require(network.railway(id: "Tokyu.Toyoko"))
        let train = TimetabledTrain(
            id: "T", railwayID: railway.id, directionName: railway.ascendingName, service: "Weekday",
            stops: ["Shibuya", "NakaMeguro", "Jiyugaoka"].enumerated().map { index, name in
                TimetableStop(
                    stationID: "Tokyu.Toyoko.\(name)", arrival: 30_000 + Seconds(index) * 240,
                    departure: 30_000 + Seconds(index) * 240)
            })
        let ride = try #require(
            CaseGenerator(dataset: TransitDataset(network: network, timetable: Timetable(trains: [train]))).cases(
                count: 1, seed: 1
            ).first)
        #expect(ride.truth.fixes.allSatisfy { !railway.track.isUnderground(atAlongTrack: $0.alongTrack) })
        // The Shibuya end runs underground: the recording starts well after the departure.
        #expect(ride.fixes.first.map { $0.location.timestamp.secondsSince1970 > ride.truth.departure + 30 } == true)
    }
}
