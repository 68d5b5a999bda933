import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore

/// A rider in a train standing at its origin, with a phone that logs on movement: it writes a
/// standing fix (0 m/s) every 5 or 10 seconds, now and then a position hundreds of metres off with
/// no speed (a big station's cell or Wi-Fi position), and nothing at all once it stops
/// moving; its first fix after the train moves off comes tens of seconds and a hundred metres
/// later. The departure is dated from that fix's speed and the distance run, and the stray
/// positions are no departures.
@Suite struct RailwayTrackerDepartureTimeTests {
    typealias Fixture = RailwayTrackerPassageTests

    /// One line, stations 0 to 4 two kilometres apart. Locals call everywhere, one every five
    /// minutes from 06:02 to 11:57; one express calls at 0 and 4 only, leaving 0 at 08:10.
    static func dataset() throws -> TransitDataset {
        var trains = (0..<72).map { index in
            var train = Fixture.train("L\(index)", "L", start: 21_720 + Double(index) * 300)
            train.trainTypeID = "Local"
            return train
        }
        trains.append(
            TimetabledTrain(
                id: "X", railwayID: "L", trainTypeID: "Express", directionName: "East", service: "Daily",
                stops: [
                    TimetableStop(stationID: "L.0", arrival: nil, departure: 29_400),
                    TimetableStop(stationID: "L.4", arrival: 29_800, departure: nil),
                ]))
        return TransitDataset(network: try Fixture.network(["L"]), timetable: Timetable(trains: trains))
    }

    /// The answer at the phone's first fix after the express left on time: standing from 07:55
    /// to 08:09:50, a fix every `spacing` seconds (with a stray position 290 m off, claiming
    /// 300 m, 7 s after each when `strays`), silent until 08:10:20, when the train, accelerating at
    /// 0.5 m/s², is 100 m on at 10 m/s.
    func answerAfterMovingOff(strays: Bool, every spacing: Seconds) throws -> TrackingCandidate? {
        var tracker = RailwayTracker(model: TrackerModel(dataset: try Self.dataset()))
        let stray = Fixture.origin.coordinate(at: PlanarVector(east: 0, north: 290))
        for second in stride(from: 590, through: -300, by: -spacing).reversed() {
            _ = tracker.process(
                Location(coordinate: Fixture.point(0), timestamp: morning.adding(second), horizontalAccuracy: 15, speed: 0))
            if strays, second < 590 {
                _ = tracker.process(Location(coordinate: stray, timestamp: morning.adding(second + 7), horizontalAccuracy: 300))
            }
        }
        return tracker.process(
            Location(coordinate: Fixture.point(100), timestamp: morning.adding(620), horizontalAccuracy: 10, speed: 10)
        ).best
    }

    @Test(arguments: [false, true], [5.0, 10.0])
    func theTrainIsNamedAsItLeavesAfterASilence(strays: Bool, every spacing: Seconds) throws {
        let answer = try answerAfterMovingOff(strays: strays, every: spacing)
        // Left 20 s before the fix: 08:10, the express on time (the 08:07 local would be 3
        // minutes late, and stray positions taken for departures would have named a local
        // that left minutes before).
        #expect(answer?.trainID == "X")
        #expect(answer?.delaySeconds.map { abs($0) <= 5 } == true, "\(String(describing: answer?.delaySeconds))")
    }
}
