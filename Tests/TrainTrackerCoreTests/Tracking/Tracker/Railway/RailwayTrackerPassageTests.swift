import Foundation
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// Where the scheduled trains are at the time tells two lines on one track apart for a phone
/// that never shows a stop.
@Suite struct RailwayTrackerPassageTests {
    /// "B" and "A" run the same track with the same stations 2 km apart, a train every ten
    /// minutes each, B's five minutes after A's (B has one more train, so it wins a tie); the
    /// rider is on A's 08:00 train. A background phone gives a fix every 40 s, no speed, no
    /// course: the 30 s dwells fall between fixes, so no stop and no departure is ever seen.
    static let origin = LocalProjection(origin: Coordinate(latitude: 35.66, longitude: 139.66))

    /// The place `east` metres along the track from station 0.
    static func point(_ east: Double) -> Coordinate { origin.coordinate(at: PlanarVector(east: east, north: 0)) }

    static func dataset() throws -> TransitDataset {
        // "C" runs the same track too, but no train of it runs today.
        var trains = (0..<40).map { train("A\($0)", "A", start: 21_600 + Double($0) * 600) }
        trains += (0..<41).map { train("B\($0)", "B", start: 21_900 + Double($0) * 600) }
        return TransitDataset(network: try network(["B", "A", "C"]), timetable: Timetable(trains: trains))
    }

    /// Railways `ids` on one straight track, each with stations 0 to 4 two kilometres apart.
    static func network(_ ids: [String]) throws -> RailwayNetwork {
        let track = Track(pieces: [((0...80).map { point(Double($0) * 100) }, false)])
        var stations: [Station] = []
        var railways: [Railway] = []
        for id in ids {
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

    /// A train of `railway` eastward that leaves station k at `start` + 150 k s (seconds after
    /// midnight): 120 s running, 30 s dwell.
    static func train(_ id: String, _ railway: String, start: Seconds) -> TimetabledTrain {
        TimetabledTrain(
            id: id, railwayID: railway, directionName: "East", service: "Daily",
            stops: (0...4).map {
                TimetableStop(stationID: "\(railway).\($0)", arrival: nil, departure: start + Double($0) * 150)
            })
    }

    func ride(passages: Bool, explaining: ((RailwayTracker) -> Void)? = nil) throws -> [String?] {
        var parameters = RailwayTracker.Parameters()
        if !passages { parameters.passages.cap = 0 }
        var tracker = RailwayTracker(model: TrackerModel(dataset: try Self.dataset()), parameters: parameters)
        tracker.explains = explaining != nil
        // A's 08:00 train, as its timetable runs it, seen every 40 s.
        return stride(from: 0.0, to: 570, by: 40).map { second in
            let leg = (second / 150).rounded(.down)
            let into = min(second - 150 * leg, 120)
            let fix = Location(
                coordinate: Self.point(2_000 * leg + 2_000 * into / 120), timestamp: morning.adding(second),
                horizontalAccuracy: 10)
            let answer = tracker.process(fix).best?.railwayID
            explaining?(tracker)
            return answer
        }
    }

    /// A phone silent for a quarter of an hour (a stale feed, a phone asleep) from the
    /// platform to between stations: the fix after the silence has no speed of its own (a
    /// kilometre in 16 minutes), but away from stations its train runs, so the timetable is
    /// asked there at once: A, whose 08:00 train is due there then, gains on B, which has none.
    @Test func theFixAfterASilenceIsJudgedByTheTrainsDueThere() throws {
        var tracker = RailwayTracker(model: TrackerModel(dataset: try Self.dataset()))
        tracker.explains = true
        _ = tracker.process(Location(coordinate: Self.point(0), timestamp: morning.adding(-900), horizontalAccuracy: 10))
        // A's 08:00 train, a minute out of station 0: halfway to station 1.
        _ = tracker.process(Location(coordinate: Self.point(1_000), timestamp: morning.adding(60), horizontalAccuracy: 10))
        let passages = { (railway: String) in
            tracker.explanation(limit: 20).first { $0.railwayID == railway && $0.directionName == "East" }?
                .terms.first { $0.term == .passages }?.nats
        }
        let a = try #require(passages("A"), "A judged at the fix after the silence")
        let b = try #require(passages("B"), "B judged at the fix after the silence")
        #expect(a > b)
    }

    @Test func theLineWhoseTrainIsDueThereThenWins() throws {
        let answers = try ride(passages: true)
        #expect(answers.suffix(8).allSatisfy { $0 == "A" }, "\(answers)")
    }

    @Test func withoutPassagesTheBusierLineWins() throws {
        // The control: nothing else tells the lines apart, so the passages above are what did.
        let answers = try ride(passages: false)
        #expect(answers.suffix(8).allSatisfy { $0 == "B" }, "\(answers)")
    }

    @Test func aLineWithNoTrainDueSaysSoOnce() throws {
        var charges: [Double] = []
        _ = try ride(passages: true) { tracker in
            for item in tracker.explanation(limit: 20) where item.railwayID == "C" && item.directionName == "East" {
                charges += item.terms.filter { $0.term == .passages }.map(\.nats)
            }
        }
        // Once, as a train off its timetable (a share of the window, at most the first look's
        // cap), not every 30 s.
        let offTimetable = Foundation.log(DepartureEvidence().offTimetableShare)
        #expect(charges.count == 1, "\(charges)")
        #expect(charges.allSatisfy { abs($0 - max(-PassageEvidence().firstCap, offTimetable)) < 1e-9 }, "\(charges)")
    }
}
