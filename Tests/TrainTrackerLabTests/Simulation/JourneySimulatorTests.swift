import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerLab

@Suite(.tags(.sharedData)) struct JourneySimulatorTests {
    let network = DemoNetwork.make()

    func stationsStoppedAt(_ fixes: [Location], railway: Railway) -> [String] {
        let stations = network.stations(of: railway)
        var stops: [String] = []
        for fix in fixes where fix.speed == 0 {
            guard let station = stations.first(where: { $0.coordinate.distance(to: fix.coordinate) < 30 }) else { continue }
            if stops.last != station.name { stops.append(station.name) }
        }
        return stops
    }

    @Test func aRideStopsAtTheChosenStationsOnlyAndPassesTheOthersAtSpeed() throws {
        let local = try #require(network.railway(id: DemoNetwork.localID))
        let fixes = try JourneySimulator(network: network).journey(
            on: local.id, from: "Demo.Local.Minato", to: "Demo.Local.Yama",
            stopsAt: { DemoNetwork.expressStops.contains($0.name) }, start: morning)
        #expect(stationsStoppedAt(fixes, railway: local) == ["Minato", "Midori", "Hikari", "Yama"])
        let sakura = try #require(network.station(id: "Demo.Local.Sakura"))
        let passing = fixes.filter { $0.coordinate.distance(to: sakura.coordinate) < 50 }
        #expect(!passing.isEmpty && passing.allSatisfy { ($0.speed ?? 0) > 10 })
    }

    @Test func fixesComeOncePerSecondWithinPhysicalLimits() throws {
        let fixes = try JourneySimulator(network: network).journey(
            on: DemoNetwork.localID, from: "Demo.Local.Minato", to: "Demo.Local.Sakura", start: morning)
        for (earlier, later) in zip(fixes, fixes.dropFirst()) {
            #expect(later.timestamp.seconds(since: earlier.timestamp) == 1)
            // 0.8 m/s² acceleration and braking.
            #expect(abs((later.speed ?? 0) - (earlier.speed ?? 0)) <= 0.8 + 1e-9)
            #expect(earlier.coordinate.distance(to: later.coordinate) <= 25.01)
        }
        #expect(fixes.allSatisfy { ($0.speed ?? 0) <= 25 })
        // 20 s waiting, the ride, 20 s at the end.
        #expect(fixes.prefix(20).allSatisfy { $0.speed == 0 && $0.course == nil })
    }

    @Test func theSameSeedGivesTheSameRideAndAnotherSeedAnotherNoise() throws {
        var parameters = JourneySimulator.Parameters()
        parameters.positionNoise = 10
        let simulate = { (seed: UInt64) throws -> [Location] in
            parameters.seed = seed
            return try JourneySimulator(network: network, parameters: parameters).journey(
                on: DemoNetwork.expressID, from: "Demo.Express.Minato", to: "Demo.Express.Midori", start: morning)
        }
        #expect(try simulate(1) == simulate(1))
        #expect(try simulate(1) != simulate(2))
    }

    @Test func unknownRailwaysAndStationsAreReported() {
        let simulator = JourneySimulator(network: network)
        #expect(throws: JourneySimulator.Failure.unknownRailway("Nope")) {
            try simulator.journey(on: "Nope", from: "a", to: "b", start: morning)
        }
        #expect(throws: JourneySimulator.Failure.unknownStation(railway: DemoNetwork.localID, station: "Demo.Express.Yama")) {
            try simulator.journey(on: DemoNetwork.localID, from: "Demo.Local.Minato", to: "Demo.Express.Yama", start: morning)
        }
        #expect(throws: JourneySimulator.Failure.sameStation("Demo.Local.Oka")) {
            try simulator.journey(on: DemoNetwork.localID, from: "Demo.Local.Oka", to: "Demo.Local.Oka", start: morning)
        }
    }

    @Test func ridesRunEitherWayAlongRealTrackWithTheRightCourse() throws {
        let network = try SharedData.tokyoNetwork()
        let toyoko = try #require(network.railway(id: "Tokyu.Toyoko"))
        let inbound = try JourneySimulator(network: network).journey(
            on: toyoko.id, from: "Tokyu.Toyoko.Kikuna", to: "Tokyu.Toyoko.Tsunashima", start: morning)
        let first = try #require(inbound.first)
        let last = try #require(inbound.last)
        #expect(first.coordinate.distance(to: try #require(network.station(id: "Tokyu.Toyoko.Kikuna")).coordinate) < 50)
        #expect(last.coordinate.distance(to: try #require(network.station(id: "Tokyu.Toyoko.Tsunashima")).coordinate) < 50)
        #expect(inbound.allSatisfy { (toyoko.track.polyline.distance(to: $0.coordinate) ?? 99) < 0.5 })
        // Kikuna to Tsunashima heads roughly north.
        let moving = inbound.compactMap(\.course)
        let northward = moving.filter { $0 > 270 || $0 < 90 }
        #expect(Double(northward.count) / Double(moving.count) > 0.8)
    }
}
