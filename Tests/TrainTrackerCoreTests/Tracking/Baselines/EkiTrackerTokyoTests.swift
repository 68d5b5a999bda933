import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// The Eki Live talk's examples, reproduced on the real Greater Tokyo network with
/// journeys that move along the real track.
@Suite(.tags(.sharedData)) struct EkiTrackerTokyoTests {
    /// A point 12 m off the Toyoko Line track beside Tsunashima, on the side away from the
    /// Tokyu Shin-Yokohama Line.
    func pointBesideTsunashima(_ network: RailwayNetwork) throws -> Coordinate {
        let toyoko = try #require(network.railway(id: "Tokyu.Toyoko"))
        let station = try #require(network.station(id: "Tokyu.Toyoko.Tsunashima"))
        let onTrack = try #require(toyoko.track.polyline.projection(of: station.coordinate))
        let (_, course) = toyoko.track.polyline.point(atAlongTrack: onTrack.alongTrack)
        let projection = LocalProjection(origin: onTrack.coordinate)
        let shinYokohama = try #require(network.railway(id: "Tokyu.TokyuShinYokohama"))
        let other = try #require(shinYokohama.track.polyline.projection(of: onTrack.coordinate))
        let towardsOther = projection.vector(to: other.coordinate)
        let across = PlanarVector(course: course + 90)
        let side = across.dot(towardsOther) > 0 ? -1.0 : 1.0
        return projection.coordinate(at: across * (12 * side))
    }

    @Test func aFix12MetresFromTheToyokoLineRanksToyokoFirstAndShinYokohamaNext() throws {
        let network = try SharedData.tokyoNetwork()
        let point = try pointBesideTsunashima(network)
        let nearby = network.railways(near: point, within: 3_000)
        #expect(nearby.map(\.railway.id).prefix(2) == ["Tokyu.Toyoko", "Tokyu.TokyuShinYokohama"])
        #expect(abs(nearby[0].distance - 12) < 1)
        #expect(nearby[1].distance > 50)
        #expect(!nearby.contains { $0.distance > 3_000 })
    }

    @Test func aRidePastTsunashimaRanksToyokoFirstAndShinYokohamaSecond() throws {
        let network = try SharedData.tokyoNetwork()
        let fixes = try JourneySimulator(network: network).journey(
            on: "Tokyu.Toyoko", from: "Tokyu.Toyoko.Hiyoshi", to: "Tokyu.Toyoko.Okurayama", start: morning)
        let results = track(fixes, on: network)
        let final = try #require(results.last)
        #expect(final.candidates.first?.railwayID == "Tokyu.Toyoko")
        #expect(final.candidates.first?.directionName == "Outbound")
        #expect(final.candidates.dropFirst().first?.railwayID == "Tokyu.TokyuShinYokohama")
        #expect(final.candidates.count <= 8)
    }
}

// MARK: Parallel lines

extension EkiTrackerTokyoTests {
    /// The results of the fixes whose position on the Toyoko track lies between two of its stations.
    func resultsBetween(
        _ from: String, _ to: String, fixes: [Location], results: [TrackingResult], network: RailwayNetwork
    ) throws -> [TrackingResult] {
        let toyoko = try #require(network.railway(id: "Tokyu.Toyoko"))
        let positions = network.stationPositions(of: toyoko)
        let ids = toyoko.stationIDs
        let start = try #require(ids.firstIndex(of: "Tokyu.Toyoko.\(from)"))
        let end = try #require(ids.firstIndex(of: "Tokyu.Toyoko.\(to)"))
        let range = min(positions[start], positions[end])...max(positions[start], positions[end])
        return zip(fixes, results).compactMap { fix, result in
            guard let along = toyoko.track.polyline.projection(of: fix.coordinate)?.alongTrack, range.contains(along)
            else { return nil }
            return result
        }
    }

    @Test(arguments: [
        ("Tokyu.Toyoko", "Tokyu.Toyoko.Shibuya", "Tokyu.Toyoko.Yokohama", "Tokyu.Meguro"),
        ("Tokyu.Meguro", "Tokyu.Meguro.Meguro", "Tokyu.Meguro.Hiyoshi", "Tokyu.Toyoko"),
    ])
    func theToyokoMeguroParallelSectionResolvesByHistory(railway: String, from: String, to: String, parallel other: String) throws
    {
        let network = try SharedData.tokyoNetwork()
        var parameters = JourneySimulator.Parameters()
        parameters.positionNoise = 5
        let fixes = try JourneySimulator(network: network, parameters: parameters).journey(
            on: railway, from: from, to: to, start: morning)
        let results = track(fixes, on: network)
        let parallel = try resultsBetween("DenEnChofu", "Hiyoshi", fixes: fixes, results: results, network: network)
        #expect(parallel.count > 300)
        let wrong = parallel.filter { $0.best?.railwayID != railway }
        #expect(wrong.isEmpty, "\(wrong.count) of \(parallel.count) fixes on the parallel section were not \(railway)")
        // The other line runs alongside, so it is a candidate too, ranked below.
        #expect(parallel.last?.candidates.contains { $0.railwayID == other } == true)
    }

    /// A ride on the Keihin-Tohoku/Tokaido corridor whose fixes lie midway between the two
    /// tracks, so that proximity cannot tell them apart and only the stopping pattern can.
    func corridorRide(stoppingAt stops: Set<String>?, network: RailwayNetwork) throws -> [Location] {
        let keihinTohoku = "JR-East.KeihinTohokuNegishi"
        let tokaido = try #require(network.railway(id: "JR-East.Tokaido")).track.polyline
        let fixes = try JourneySimulator(network: network).journey(
            on: keihinTohoku, from: "\(keihinTohoku).Shinagawa", to: "\(keihinTohoku).Yokohama",
            stopsAt: stops.map { stops in { stops.contains(String($0.id.split(separator: ".").last ?? "")) } },
            start: morning
        )
        return try fixes.map { fix in
            let other = try #require(tokaido.projection(of: fix.coordinate))
            let projection = LocalProjection(origin: fix.coordinate)
            var midway = fix
            midway.coordinate = projection.coordinate(at: projection.vector(to: other.coordinate) * 0.5)
            return midway
        }
    }

    @Test func aTokaidoStoppingPatternOnTheCorridorResolvesByThePassedStationPenalty() throws {
        let network = try SharedData.tokyoNetwork()
        let fixes = try corridorRide(stoppingAt: ["Kawasaki"], network: network)
        let final = try #require(track(fixes, on: network).last)
        #expect(final.best?.railwayID == "JR-East.Tokaido")
        #expect(final.candidates.dropFirst().first?.railwayID == "JR-East.KeihinTohokuNegishi")

        // The Keihin-Tohoku candidate lost by the stations it passed: Oimachi, Omori, Kamata,
        // Tsurumi, Shin-Koyasu and Higashi-Kanagawa.
        var unpenalised = EkiParameters()
        unpenalised.passedStationPenalty = 0
        unpenalised.strayStopPenalty = 0
        let unpenalisedFinal = try #require(track(fixes, on: network, parameters: unpenalised).last)
        let score = { (result: TrackingResult) in
            result.candidates.first { $0.railwayID == "JR-East.KeihinTohokuNegishi" }?.score ?? .nan
        }
        #expect(score(unpenalisedFinal) - score(final) >= 0.06 - 1e-9)
    }

    @Test func aKeihinTohokuStoppingPatternOnTheCorridorResolvesToKeihinTohoku() throws {
        let network = try SharedData.tokyoNetwork()
        let fixes = try corridorRide(stoppingAt: nil, network: network)
        let final = try #require(track(fixes, on: network).last)
        #expect(final.best?.railwayID == "JR-East.KeihinTohokuNegishi")
        #expect(final.best?.directionName == "Southbound")
        #expect(final.candidates.dropFirst().first?.railwayID == "JR-East.Tokaido")
    }
}

// MARK: Direction and focus

extension EkiTrackerTokyoTests {
    /// The sequence of (station, phase) the Toyoko candidate shows, without repeats.
    func focusSequence(_ results: [TrackingResult], railway: String) -> [(station: String, phase: FocusPhase)] {
        var sequence: [(station: String, phase: FocusPhase)] = []
        for result in results {
            guard let candidate = result.candidates.first(where: { $0.railwayID == railway }) else { continue }
            if sequence.last.map({ $0.station == candidate.focusStationID && $0.phase == candidate.phase }) == true { continue }
            sequence.append((candidate.focusStationID, candidate.phase))
        }
        return sequence
    }

    @Test(arguments: [
        ("Tokyu.Toyoko.Shibuya", "Tokyu.Toyoko.Yokohama", "Outbound"),
        ("Tokyu.Toyoko.Yokohama", "Tokyu.Toyoko.Shibuya", "Inbound"),
    ])
    func aToyokoRideShowsItsDirectionAndNextSoonNowForEveryStationInOrder(from: String, to: String, direction: String) throws {
        let network = try SharedData.tokyoNetwork()
        let toyoko = try #require(network.railway(id: "Tokyu.Toyoko"))
        var parameters = JourneySimulator.Parameters()
        parameters.positionNoise = 4
        let fixes = try JourneySimulator(network: network, parameters: parameters).journey(
            on: toyoko.id, from: from, to: to, start: morning)
        let results = track(fixes, on: network)

        // Direction: once known, the Toyoko candidate always has the travel direction.
        let directions = Set(results.compactMap { $0.candidates.first { $0.railwayID == toyoko.id }?.directionName })
        #expect(directions == [direction])
        #expect(results.last?.best?.destinationStationID == to)

        // Focus: stations come in travel order, each reaching Now, phases only moving forward.
        let order = direction == "Outbound" ? toyoko.stationIDs : toyoko.stationIDs.reversed()
        let sequence = focusSequence(results, railway: toyoko.id)
        let positions = try sequence.map { try #require(order.firstIndex(of: $0.station)) }
        #expect(positions == positions.sorted(), "the focus went back to an earlier station")
        let phaseRank: [FocusPhase: Int] = [.next: 0, .soon: 1, .now: 2]
        for (earlier, later) in zip(sequence, sequence.dropFirst()) where earlier.station == later.station {
            #expect(phaseRank[earlier.phase, default: 0] < phaseRank[later.phase, default: 0])
        }
        let reachedNow = Set(sequence.filter { $0.phase == .now }.map(\.station))
        // Every station, the origin included (the rider waits there before departure).
        #expect(reachedNow == Set(order), "missing Now: \(Set(order).subtracting(reachedNow))")
        let approached = Set(sequence.filter { $0.phase == .soon }.map(\.station))
        #expect(approached.count >= order.count - 3, "most stations are announced with Soon")
        #expect(sequence.last.map { $0.station == to && $0.phase == .now } == true)
    }
}

// MARK: Loop line

extension EkiTrackerTokyoTests {
    @Test func theYamanoteLoopHasNoTerminalAndWrapsItsLaterStations() throws {
        let network = try SharedData.tokyoNetwork()
        let yamanote = try #require(network.railway(id: "JR-East.Yamanote"))
        #expect(yamanote.isLoop)
        #expect(yamanote.stationIDs.count == 30)
        let fixes = try JourneySimulator(network: network).journey(
            on: yamanote.id, from: "JR-East.Yamanote.Meguro", to: "JR-East.Yamanote.Osaki", start: morning)
        let results = track(fixes, on: network)
        let final = try #require(results.last?.candidates.first { $0.railwayID == yamanote.id })
        #expect(final.directionName == yamanote.descendingName)
        #expect(final.destinationStationID == nil)
        #expect(final.focusStationID == "JR-East.Yamanote.Osaki")
        #expect(final.phase == .now)
        #expect(final.laterStationIDs == ["JR-East.Yamanote.Shinagawa", "JR-East.Yamanote.TakanawaGateway"])
    }
}
