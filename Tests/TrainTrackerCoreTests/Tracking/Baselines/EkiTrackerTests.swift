import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The algorithm's parts on the built-in demonstration network and on hand-made histories.
@Suite struct EkiTrackerTests {
    let network = DemoNetwork.make()

    func ride(_ railwayID: String, seed: UInt64 = 3) throws -> [Location] {
        var parameters = JourneySimulator.Parameters()
        parameters.positionNoise = 5
        parameters.seed = seed
        let railway = try #require(network.railway(id: railwayID))
        return try JourneySimulator(network: network, parameters: parameters).journey(
            on: railwayID, from: try #require(railway.stationIDs.first), to: try #require(railway.stationIDs.last), start: morning
        )
    }

    func candidate(_ result: TrackingResult?, _ railwayID: String) -> TrackingCandidate? {
        result?.candidates.first { $0.railwayID == railwayID }
    }

    @Test func anExpressRideOnSharedTrackIsTheExpressBecauseTheLocalPassedStations() throws {
        let final = try #require(track(try ride(DemoNetwork.expressID), on: network).last)
        #expect(final.best?.railwayID == DemoNetwork.expressID)
        let express = try #require(candidate(final, DemoNetwork.expressID))
        let local = try #require(candidate(final, DemoNetwork.localID))
        // Same track, so the same proximity: the difference is the four passed local stations.
        #expect(abs((express.score - local.score) - 4 * EkiParameters().passedStationPenalty) < 1e-9)
    }

    @Test func aLocalRideOnSharedTrackIsTheLocalBecauseTheExpressStoppedBetweenStations() throws {
        let final = try #require(track(try ride(DemoNetwork.localID), on: network).last)
        #expect(final.best?.railwayID == DemoNetwork.localID)
        let express = try #require(candidate(final, DemoNetwork.expressID))
        let local = try #require(candidate(final, DemoNetwork.localID))
        #expect(local.score > express.score)
    }

    @Test func noFixesWithoutSpeedOrCourseGiveAnAnswer() throws {
        let fixes = try ride(DemoNetwork.localID).map { fix -> Location in
            Location(coordinate: fix.coordinate, timestamp: fix.timestamp, horizontalAccuracy: 10)
        }
        #expect(track(fixes, on: network).allSatisfy { $0.candidates.isEmpty })
    }

    @Test func fixesFarFromEveryTrackGiveNoCandidates() {
        let far = (0..<60).map { second in
            Location(
                coordinate: Coordinate(latitude: 36.5, longitude: 140.5), timestamp: morning.adding(Double(second)),
                speed: 20, course: 90)
        }
        #expect(track(far, on: network).allSatisfy { $0.candidates.isEmpty })
    }

    @Test func aRideShowsStationsInOrderWithNextSoonAndNow() throws {
        let results = track(try ride(DemoNetwork.localID), on: network)
        var shown: [String] = []
        for result in results {
            guard let best = result.best else { continue }
            let label = "\(best.phase.label): \(network.station(id: best.focusStationID)?.name ?? "?")"
            if shown.last != label { shown.append(label) }
        }
        let expected =
            ["Now: Minato"] + DemoNetwork.stationNames.dropFirst().flatMap { ["Next: \($0)", "Soon: \($0)", "Now: \($0)"] }
        #expect(shown == expected)
        let final = try #require(results.last?.best)
        #expect(final.destinationStationID == "\(DemoNetwork.localID).Yama")
        #expect(final.directionName == "Eastbound")
        #expect(final.laterStationIDs.isEmpty)
    }

    @Test func laterStationsFollowTheFocusInTravelOrder() throws {
        let results = track(try ride(DemoNetwork.localID), on: network)
        let atSakura = try #require(results.first { $0.best?.focusStationID == "\(DemoNetwork.localID).Sakura" }?.best)
        #expect(atSakura.laterStationIDs == ["\(DemoNetwork.localID).Kawabe", "\(DemoNetwork.localID).Midori"])
    }
}

@Suite struct StationPhaseTests {
    @Test func phasesOnlyMoveForward() {
        let all: [StationPhase] = [.departure, .approaching, .visiting, .visited, .passed]
        let allowed = Set(all.flatMap { from in all.filter { from.allowsTransition(to: $0) }.map { "\(from)→\($0)" } })
        #expect(
            allowed == [
                "approaching→visiting", "approaching→visited", "approaching→passed", "visiting→visited", "visiting→passed",
            ])
    }

    func log(
        visits: Int = 0, approaches: Int = 0, firstVisit: Double? = nil, stopped: (Double, Double)? = nil,
        departure: Double? = nil
    ) -> StationLog {
        var log = StationLog()
        log.visitingCount = visits
        log.approachingCount = approaches
        log.firstVisit = firstVisit.map(Timestamp.init(secondsSince1970:))
        log.firstStoppedVisit = stopped.map { Timestamp(secondsSince1970: $0.0) }
        log.lastStoppedVisit = stopped.map { Timestamp(secondsSince1970: $0.1) }
        log.departure = departure.map(Timestamp.init(secondsSince1970:))
        return log
    }

    @Test func phaseFollowsTheHistory() {
        let parameters = EkiParameters()
        #expect(log(departure: 5).proposedPhase(isTerminal: false, parameters: parameters) == .departure)
        #expect(log(approaches: 3).proposedPhase(isTerminal: false, parameters: parameters) == .approaching)
        #expect(
            log(visits: 1, approaches: 3, firstVisit: 0).proposedPhase(isTerminal: false, parameters: parameters) == .visiting)
        #expect(log(approaches: 3, departure: 9).proposedPhase(isTerminal: false, parameters: parameters) == .passed)
        #expect(StationLog().proposedPhase(isTerminal: false, parameters: parameters) == nil)
    }

    @Test(arguments: [
        // (stopped from, to), first visit, departure, terminal → visited?
        ((0.0, 21.0), 0.0, 30.0, false, true),  // stopped > 20 s
        ((0.0, 19.0), 0.0, 30.0, false, false),  // stopped 19 s, within bounds 30 s
        ((0.0, 0.0), 0.0, 71.0, false, true),  // within bounds > 70 s
        ((0.0, 0.0), 0.0, 69.0, false, false),
        ((0.0, 0.0), 0.0, 5.0, true, true),  // the last station is always visited
    ])
    func visitedVersusPassed(stopped: (Double, Double), firstVisit: Double, departure: Double, terminal: Bool, visited: Bool) {
        let history = log(visits: 10, firstVisit: firstVisit, stopped: stopped, departure: departure)
        #expect(history.proposedPhase(isTerminal: terminal, parameters: EkiParameters()) == (visited ? .visited : .passed))
    }

    @Test func scoresFallOffSteeplyAndVanishBeyondThreeKilometres() {
        let parameters = EkiParameters()
        #expect(parameters.proximityScore(distance: 0) == 1)
        #expect(parameters.proximityScore(distance: 12) > 0.97)
        #expect(parameters.proximityScore(distance: 177) < 0.75)
        #expect(parameters.proximityScore(distance: 1_500) < 0.04)
        #expect(parameters.proximityScore(distance: 3_000) == 0)
        #expect(parameters.speedWeight(nil) == 0)
        #expect(parameters.speedWeight(1) == 0)
        #expect(parameters.speedWeight(25) == 1)
        #expect(parameters.speedWeight(11) > 0 && parameters.speedWeight(11) < 1)
    }
}
