import Foundation
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Where trains stand, learnt from recorded rides (issue 59, point 4): the simulator's
/// displaced stopping places found again, and a train standing beyond the station point's
/// reach seen to stop at its station once its platforms are learnt.
@Suite(.tags(.sharedData)) struct PlatformFitTests {
    static let dataset = DemoRides.dataset
    static let morning = Timestamp(secondsSince1970: 1_758_500_000)

    /// Rides of the demo local (both ways) with trains stopping `offsets` along the track from
    /// the station points.
    func rides(offsets: ClosedRange<Meters>, count: Int, seed: UInt64) -> [SimulatedCase] {
        var generator = CaseGenerator(dataset: Self.dataset)
        RideConditions(map: .platforms).configure(&generator, seed: seed, mapSeed: 9)
        generator.stationDisplacement?.offset = offsets
        return generator.cases(count: count, seed: seed, filter: RideFilter(railways: [DemoNetwork.localID], stops: 4...8))
    }

    func learn(_ rides: [SimulatedCase], network: RailwayNetwork = dataset.network) -> PlatformFit.Outcome {
        PlatformFit(network: network).learn(rides: rides.map { ($0.fixes, $0.truth) })
    }

    /// Fixes `step` seconds apart at `places` (metres east of a point), each a good phone's.
    func fixes(_ places: [Meters], step: Seconds = 1, accuracy: Meters = 8) -> [Location] {
        let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.6))
        return places.enumerated().map { index, east in
            Location(
                coordinate: origin.coordinate(at: PlanarVector(east: east, north: 0)),
                timestamp: Self.morning.adding(Double(index) * step), horizontalAccuracy: accuracy)
        }
    }

    @Test func aStandIsARunOfCloseFixesLastingEightSeconds() {
        #expect(PlatformFit.stands(in: []).isEmpty)
        #expect(PlatformFit.stands(in: fixes([0])).isEmpty)
        // Two fixes 8 s apart within 15 m: a stand; 7 s apart: none.
        #expect(PlatformFit.stands(in: fixes([0, 5], step: 8)).count == 1)
        #expect(PlatformFit.stands(in: fixes([0, 5], step: 7)).isEmpty)
        // Running at 10 m/s, a 12 s stand, running on: one stand, at the stand's mean.
        let running: [Meters] = (0..<20).map { Double($0) * 10 }
        let standing: [Meters] = Array(repeating: 200, count: 6) + [204, 196, 200, 202, 198, 200]
        let leaving: [Meters] = (1..<20).map { 200 + Double($0) * 10 }
        let run = running + standing + leaving
        let stands = PlatformFit.stands(in: fixes(run))
        #expect(stands.count == 1)
        let origin = LocalProjection(origin: Coordinate(latitude: 35.6, longitude: 139.6))
        let place = origin.coordinate(at: PlanarVector(east: 200, north: 0))
        #expect(stands.first.map { $0.distance(to: place) < 3 } == true)
        // A standing phone's cell positions (200 m sure) say nothing.
        #expect(PlatformFit.stands(in: fixes(Array(repeating: 0, count: 30), accuracy: 200)).isEmpty)
    }

    /// Caltrain's recorded trains held 270 m short of Santa Clara: where most stood is the
    /// platform, not the signal (of two as full, the one nearer the point).
    @Test func aPlatformIsWhereMostStandsLieNotASignalShortOfIt() {
        #expect(PlatformFit.densest([]) == nil)
        #expect(PlatformFit.densest([12]) == nil)
        #expect(PlatformFit.densest([12, 30]).map { [$0.low, $0.high, Double($0.count)] } == [12, 30, 2])
        #expect(PlatformFit.densest([-271, -265, 4, 20, 59]).map { [$0.low, $0.high, Double($0.count)] } == [4, 59, 3])
        #expect(PlatformFit.densest([-271, -265, 40, 59]).map { [$0.low, $0.high, Double($0.count)] } == [40, 59, 2])
        #expect(PlatformFit.densest([-60, 20, 300, 310]).map { [$0.low, $0.high, Double($0.count)] } == [-60, 20, 2])
        // Stands farther apart than a platform, one each: none is learnt.
        #expect(PlatformFit.densest([-300, 0, 300]) == nil)
    }

    @Test func theSimulatorsStoppingPlacesAreFoundAgain() throws {
        let network = Self.dataset.network
        let local = try #require(network.railway(id: DemoNetwork.localID))
        let positions = network.stationPositions(of: local)
        let truth = StationDisplacement(seed: 9 ^ 0x504C_4154).stoppingPlaces(
            of: network.stations(of: local).map(\.name), at: positions, length: local.track.polyline.length)
        let outcome = learn(rides(offsets: 20...250, count: 8, seed: 3))
        #expect(outcome.placed == outcome.stands && outcome.stands > 8, "\(outcome.stands) stands, \(outcome.placed) placed")
        #expect(outcome.platforms.count >= 6, "\(outcome.platforms.count) platforms")
        for platform in outcome.platforms {
            let index = try #require(local.stationIDs.firstIndex(of: platform.stationID))
            let offset = truth[index] - positions[index]
            // Where the simulated train stood (its phone within a few metres), at most 15 m out.
            #expect(
                platform.offsets.lowerBound - 15 <= offset && offset <= platform.offsets.upperBound + 15,
                "\(platform.stationID): learnt \(platform.offsets), trains stop \(offset) m from the point")
            #expect(platform.offsets.upperBound - platform.offsets.lowerBound < 40)
        }
        // A stand is given only to a station its train stops at.
        let none = PlatformFit(network: network).learn(
            rides: rides(offsets: 20...250, count: 3, seed: 3).map { ride in
                var truth = ride.truth
                truth.stops = []
                return (ride.fixes, truth)
            })
        #expect(none.placed == 0 && none.platforms.isEmpty && none.stands > 0)
    }

    /// Trains that stop 300-380 m from the station points (beyond `StopEvidence.stationReach`):
    /// each stop reads as a stray stop and each station as passed, which a local's pattern
    /// explains worst. With the platforms learnt from other rides, the stops are the local's.
    @Test func aTrainStandingBeyondTheStationPointsReachStopsThereOnceItsPlatformsAreLearnt() throws {
        let far = 300...380.0
        let learnt = learn(rides(offsets: far, count: 6, seed: 3))
        #expect(learnt.platforms.count >= 6)
        let plain = TrackerModel(dataset: Self.dataset)
        let placed = plain.placing(learnt.platforms)
        #expect(placed.unplaced.isEmpty)
        let fresh = rides(offsets: far, count: 6, seed: 21)
        let score = { (model: TrackerModel) in
            AlgorithmScore(
                algorithm: "railway",
                scores: fresh.map { Evaluator().score(fixes: $0.fixes, truth: $0.truth, tracker: RailwayTracker(model: model)) })
        }
        let before = score(plain)
        let after = score(placed.model)
        #expect(
            after.nextStopAccuracy >= before.nextStopAccuracy + 0.05, "\(before.nextStopAccuracy) -> \(after.nextStopAccuracy)")
        #expect(after.railwayAccuracy >= 0.95, "\(before.railwayAccuracy) -> \(after.railwayAccuracy)")
    }

    @Test func aLearntPlatformWidensAStationsReachAndNeverNarrowsIt() throws {
        let network = Self.dataset.network
        let local = try #require(network.railwayIndex(id: DemoNetwork.localID))
        let station = 2
        let point = network.stationAlongTrack[local][station]
        let beyond = { (network: RailwayNetwork, offset: Meters) in
            network.beyondPlatform(railway: local, station: station, position: point + offset, reach: 250, learntReach: 100)
        }
        #expect(beyond(network, 240) < 0 && beyond(network, -240) < 0)
        #expect(beyond(network, 300) > 0 && beyond(network, 400) > 0)
        let stationID = network.railways[local].stationIDs[station]
        let (learnt, unplaced) = network.placing([
            LearntPlatform(railwayID: DemoNetwork.localID, stationID: stationID, offsets: 280...320, stands: 4),
            LearntPlatform(railwayID: DemoNetwork.localID, stationID: "nowhere", offsets: 0...1, stands: 2),
            LearntPlatform(railwayID: DemoNetwork.localID, stationID: stationID, offsets: 0...Double.infinity, stands: 2),
        ])
        #expect(unplaced.map(\.stationID) == ["nowhere", stationID])
        // A span wider than any platform mixes one with a signal: left out.
        let wide = network.placing([
            LearntPlatform(railwayID: DemoNetwork.localID, stationID: stationID, offsets: -300...310, stands: 9)
        ])
        #expect(wide.unplaced.count == 1)
        // A stop goes to the station where trains stand nearest: here, inside the platform
        // learnt 280-320 m from the point, not to a neighbour's point.
        #expect(learnt.distanceFromPlatform(railway: local, station: station, position: point + 300) == 0)
        // Within 100 m of where trains stood, and still within 250 m of the point.
        #expect(beyond(learnt, 300) < 0 && beyond(learnt, 410) < 0 && beyond(learnt, 430) > 0)
        #expect(beyond(learnt, -240) < 0 && beyond(learnt, -260) > 0)
        // Judged once the train is past the far end of the platform, whichever way it runs.
        let east = TrackWalk(length: network.trackPolylines[local].length, isLoop: false, sign: 1)
        let west = TrackWalk(length: network.trackPolylines[local].length, isLoop: false, sign: -1)
        #expect(abs(learnt.platformFarEnd(railway: local, station: station, walk: east) - (point + 320)) < 1e-9)
        // Running west, the platform lies behind the point: judged at the point, never sooner.
        #expect(abs(learnt.platformFarEnd(railway: local, station: station, walk: west) - point) < 1e-9)
        #expect(abs(network.platformFarEnd(railway: local, station: station, walk: west) - point) < 1e-9)
    }
}
