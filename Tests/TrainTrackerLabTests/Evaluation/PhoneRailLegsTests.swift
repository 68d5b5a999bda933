import Testing
import TrainTrackerCore

@testable import TrainTrackerLab

/// What counts as right on a logged rail leg: the logged line, or one with the same stops there.
@Suite struct PhoneRailLegsTests {
    let origin = LocalProjection(origin: Coordinate(latitude: 60.2, longitude: 24.9))

    func station(_ code: String, _ east: Double) -> RailStation {
        RailStation(code: code, name: "Station \(code)", coordinate: origin.coordinate(at: PlanarVector(east: east, north: 0)))
    }

    /// A local L stopping at A, B, C, D and an express X at A and D only, on one track.
    var lines: [RailLine] {
        let all = [station("A", 0), station("B", 2_000), station("C", 4_000), station("D", 6_000)]
        return [
            RailLine(name: "L", kind: "train", stations: all, bothWays: true),
            RailLine(name: "X", kind: "train", stations: [all[0], all[3]], bothWays: true),
        ]
    }

    func leg(_ line: String, _ from: String, _ to: String, fixes: [Location] = []) -> LoggedLeg {
        LoggedLeg(
            device: 1, start: Timestamp(secondsSince1970: 1_000), end: Timestamp(secondsSince1970: 2_000), kind: .rail,
            label: "TRAIN \(line)", line: line, from: "Station \(from)", to: "Station \(to)")
    }

    @Test func onlyLinesWithTheLoggedStopsAreRight() throws {
        let legs = try PhoneRailLegs(
            log: [leg("X", "A", "D"), leg("L", "A", "D"), leg("L", "C", "B")], fixes: [1: []], lines: lines)
        #expect(legs.legs.map { Set($0.accepted.map(\.railwayID)) } == [["X"], ["L"], ["L"]])
        #expect(legs.legs[2].accepted.map(\.directionName) == ["L to Station A"])
        #expect(legs.legs.allSatisfy { $0.problem == nil })
    }

    @Test func aLegTheLineDoesNotRunOrAStationNobodyKnowsIsNotScored() throws {
        var backwards = leg("L", "A", "B")
        backwards.end = backwards.start.adding(-60)
        var endless = leg("L", "A", "B")
        endless.end = endless.start.adding(5 * 3_600)
        var otherPhone = leg("L", "A", "B")
        otherPhone.device = 7
        let legs = try PhoneRailLegs(
            log: [
                leg("X", "A", "B"), leg("L", "A", "Nowhere"), leg("Z", "A", "B"), leg("L", "B", "B"), backwards, endless,
                otherPhone,
            ],
            fixes: [1: []], lines: lines)
        #expect(
            legs.legs.map(\.problem) == [
                "line X does not run Station A → Station B", "stations not found", "line Z does not run Station A → Station B",
                "boards and alights at Station B", "arrival before departure", "longer than 4 hours",
                "no phone 7 among the sessions",
            ])
        // Nothing of an unscorable leg is counted.
        let score = legs.legs[0].score(RailwayTracker(model: TrackerModel(network: legs.network)))
        #expect(score.fixes == 0)
    }

    @Test func aRideAlongTheLocalIsScoredFromTwoMinutesAfterDeparture() throws {
        // 10 m/s from A to D, a fix every 10 s, stopping 30 s at B and C.
        var fixes: [Location] = []
        var time = 1_000.0
        var east = 0.0
        while east <= 6_000 {
            let coordinate = origin.coordinate(at: PlanarVector(east: east, north: 5))
            fixes.append(Location(coordinate: coordinate, timestamp: Timestamp(secondsSince1970: time), horizontalAccuracy: 10))
            time += 10
            if [2_000.0, 4_000].contains(east) {
                for _ in 0..<3 {
                    fixes.append(
                        Location(coordinate: coordinate, timestamp: Timestamp(secondsSince1970: time), horizontalAccuracy: 10))
                    time += 10
                }
            }
            east += 100
        }
        var logged = leg("L", "A", "D")
        logged.end = Timestamp(secondsSince1970: time)
        let legs = try PhoneRailLegs(log: [logged], fixes: [1: fixes], lines: lines)
        var verdicts: [PhoneFixVerdict] = []
        let score = legs.legs[0].score(RailwayTracker(model: TrackerModel(network: legs.network))) { verdicts.append($0) }
        #expect(score.fixes == fixes.filter { $0.timestamp.secondsSince1970 >= 1_120 }.count)
        #expect(score.line == score.fixes && score.direction == score.fixes, "\(score)")
        #expect(score.approach > 0 && score.alightingNamed == score.approach, "\(score)")
        // B is the first station that tells the local from the express (which passes it): the
        // answer locks by the station after it.
        let lock = try #require(PhoneLegLock(verdicts: verdicts))
        #expect(lock.stations.map { $0 <= 2 } == true, "\(lock)")
        #expect(verdicts.last?.stationsPassed == 2, "B and C are behind the train standing at D")
    }

    @Test func theLockIsTheFirstFixAfterTheLastWrongAnswer() {
        func verdicts(_ outcomes: [PhoneFixVerdict.Outcome]) -> [PhoneFixVerdict] {
            outcomes.enumerated().map { index, outcome in
                PhoneFixVerdict(
                    secondsFromDeparture: Double(index * 30 - 30), scored: index >= 5, outcome: outcome, named: nil,
                    stationsPassed: index / 3)
            }
        }
        let flip = PhoneLegLock(verdicts: verdicts([.wrongLine, .right, .wrongDirection, .right, .wrongLine, .right, .right]))
        #expect(flip == PhoneLegLock(seconds: 120, stations: 1))
        // Wrong before the departure only: locked from it (not from the earlier right answers).
        let early = verdicts([.wrongLine, .right, .right, .right, .right])
            .map { verdict in
                var verdict = verdict
                verdict.secondsFromDeparture -= 60
                return verdict
            }
        #expect(PhoneLegLock(verdicts: early) == PhoneLegLock(seconds: 0, stations: 1))
        // Fixes only from 30 s after the departure, all right: locked at the first.
        #expect(PhoneLegLock(verdicts: Array(early.suffix(1))) == PhoneLegLock(seconds: 30, stations: 1))
        #expect(PhoneLegLock(verdicts: verdicts([.right, .right, .wrongLine])) == nil, "wrong at the end: never locked")
        #expect(PhoneLegLock(verdicts: []) == nil)
    }
}
