import Foundation
import RealModule
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// What real phones on shared track showed (issue 59), in the simulator: trains that stand at
/// stations their service passes, stations drawn away from where trains stop, phones that claim
/// to move while they stand, and gaps a station is passed in.
@Suite(.tags(.sharedData)) struct SharedTrackConditionsTests {
    static let dataset = DemoRides.dataset

    /// Rides on the demo express (a railway of its own, listing only its four stops), or on
    /// the local.
    func rides(_ conditions: RideConditions, railway: String = DemoNetwork.expressID, count: Int = 6, seed: UInt64 = 5)
        -> [SimulatedCase]
    {
        var generator = CaseGenerator(dataset: Self.dataset)
        conditions.configure(&generator, seed: seed)
        return generator.cases(count: count, seed: seed, filter: RideFilter(railways: [railway], stops: 3...8))
    }

    /// Each stand between the ride's departure and arrival: where along the track, how long.
    func stands(_ ride: SimulatedCase) -> [(along: Meters, seconds: Seconds)] {
        var stands: [(along: Meters, seconds: Seconds)] = []
        var start: TruthFix?
        for fix in ride.truth.fixes where fix.time > ride.truth.departure && fix.time < ride.truth.arrival {
            if fix.speed == 0 {
                start = start ?? fix
            } else if let begun = start {
                stands.append((begun.alongTrack, fix.time - begun.time))
                start = nil
            }
        }
        return stands
    }

    /// The network's station nearest `along` on `railwayID`'s track, and how far.
    func nearestStation(railwayID: String, along: Meters) -> (station: Station, distance: Meters)? {
        let network = Self.dataset.network
        guard let railway = network.railway(id: railwayID) else { return nil }
        let place = railway.track.polyline.point(atAlongTrack: along).coordinate
        return network.stations.map { ($0, $0.coordinate.distance(to: place)) }.min { $0.1 < $1.1 }
    }

    @Test func withSignalStopsTheExpressStandsAtStationsItPassesAndItsNextStopIsItsOwn() throws {
        let plain = rides(RideConditions())
        let signalled = rides(RideConditions(signalStops: true))
        #expect(signalled.count == 6 && signalled.map(\.truth.trainID) == plain.map(\.truth.trainID))
        var unscheduled = 0
        for (ride, before) in zip(signalled, plain) {
            // The same service: its stops, and the next stop at every fix one of them.
            #expect(ride.truth.stops == before.truth.stops)
            let stops = Set(ride.truth.stops)
            #expect(ride.truth.fixes.allSatisfy { $0.nextStop.map(stops.contains) ?? true })
            for stand in stands(ride) {
                let nearest = try #require(nearestStation(railwayID: ride.truth.railwayID, along: stand.along))
                #expect(nearest.distance < 100, "a stand \(nearest.distance) m from any station")
                if !DemoNetwork.expressStops.contains(nearest.station.name) {
                    unscheduled += 1
                    #expect((18...62).contains(stand.seconds), "\(stand.seconds) s at \(nearest.station.name)")
                }
            }
            // Without signal stops, it stands only where it calls.
            for stand in stands(before) {
                let nearest = try #require(nearestStation(railwayID: before.truth.railwayID, along: stand.along))
                #expect(DemoNetwork.expressStops.contains(nearest.station.name))
            }
        }
        // At least one a ride that passes a station (every express ride of 3 stops or more does).
        #expect(unscheduled >= signalled.count, "\(unscheduled) signal stops on \(signalled.count) rides")
    }

    @Test func onAPlatformsMapTrainsStopAlongTheTrackFromTheStationPoints() throws {
        let drawn = rides(RideConditions(), railway: DemoNetwork.localID)
        let platforms = rides(RideConditions(map: .platforms), railway: DemoNetwork.localID)
        #expect(platforms.count == 6 && platforms.map(\.truth.trainID) == drawn.map(\.truth.trainID))
        var offsets: [Meters] = []
        for ride in platforms {
            for stand in stands(ride) {
                offsets.append(try #require(nearestStation(railwayID: ride.truth.railwayID, along: stand.along)).distance)
            }
        }
        #expect(!offsets.isEmpty)
        // 20-250 m from the point (less near a close neighbour), never at it.
        #expect(offsets.allSatisfy { $0 > 5 && $0 <= 255 }, "\(offsets)")
        #expect(offsets.contains { $0 > 60 })
        for ride in drawn {
            for stand in stands(ride) {
                #expect(try #require(nearestStation(railwayID: ride.truth.railwayID, along: stand.along)).distance < 5)
            }
        }
        // The same station's displacement in every ride.
        let displacement = StationDisplacement(seed: 9)
        let positions: [Meters] = [0, 2_000, 4_000]
        let once = displacement.stoppingPlaces(of: ["A", "B", "C"], at: positions, length: 5_000)
        #expect(once == displacement.stoppingPlaces(of: ["A", "B", "C"], at: positions, length: 5_000))
        #expect(zip(once, positions).allSatisfy { abs($0 - $1) <= 250 && abs($0 - $1) >= 20 || $0 == 0 })
    }

    @Test func aDriftingPhoneClaimsSpeedsWhileStandingAndRunsAsAGoodPhone() {
        let place = Coordinate(latitude: 35.68, longitude: 139.76)
        var claims: [MetersPerSecond] = []
        var standing = 0
        for (speed, preset) in [(0.0, PhoneModel.Preset.drifting), (10, .drifting), (10, .good)] {
            var phone = Phone(model: preset.model, seed: 11)
            var fixes: [Location] = []
            for second in 0..<1_200 {
                if let fix = phone.report(
                    coordinate: place, course: 90, speed: speed, time: morning.adding(Double(second)), elapsed: 1,
                    nearStation: false, atBigStation: false)
                {
                    fixes.append(fix)
                }
            }
            if speed == 0 {
                standing = fixes.count
                claims = fixes.compactMap(\.speed).filter { $0 > 0 }
                // Each claim with a course at random.
                #expect(fixes.filter { ($0.speed ?? 0) > 0 }.allSatisfy { $0.course != nil })
                #expect(fixes.filter { ($0.speed ?? 0) == 0 }.allSatisfy { $0.course == nil })
            } else {
                // Running, its speeds and courses are a good phone's (the odd false zero aside).
                let true_ = fixes.filter { abs(($0.speed ?? 0) - 10) < 2 && $0.course.map { abs($0 - 90) < 20 } == true }
                #expect(true_.count * 20 >= fixes.count * 19, "\(true_.count) of \(fixes.count)")
            }
        }
        // About a third of its standing fixes claim 0.5-7 m/s.
        #expect(claims.allSatisfy { (0.5...7).contains($0) })
        #expect((standing / 5...standing / 2).contains(claims.count), "\(claims.count) of \(standing)")
        #expect(claims.contains { $0 > 5 })
    }

    @Test func aGappyPhoneFallsSilentForHalfAMinuteEveryFewMinutes() {
        var phone = Phone(model: PhoneModel.Preset.gappy.model, seed: 4)
        let intervals = (0..<3_600).map { _ in phone.nextInterval() }
        let gaps = intervals.filter { $0 > 1 }
        // About one in three minutes, each 20-60 s.
        #expect((8...40).contains(gaps.count), "\(gaps.count) gaps")
        #expect(gaps.allSatisfy { (20...60).contains($0) })
    }

    @Test func conditionsWrittenBeforeSignalStopsAreReadWithout() throws {
        let old = #"{"phone":"good","map":"drawn","day":"normal","rider":"leaves","canyons":true}"#
        let conditions = try JSONDecoder().decode(RideConditions.self, from: Data(old.utf8))
        #expect(conditions == RideConditions(canyons: true))
        let new = RideConditions(phone: .drifting, map: .platforms, signalStops: true)
        #expect(try JSONDecoder().decode(RideConditions.self, from: JSONEncoder().encode(new)) == new)
        #expect(new.label == "drifting · platforms map · signal stops")
    }
}
