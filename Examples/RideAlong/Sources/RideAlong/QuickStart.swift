import TrainTrackerCore
import TrainTrackerStorage

/// The README's quick start, compiled with the example so that it cannot go stale.
func quickStart() throws {
    // Once per launch: the network with its compiled timetable (Tokyo: 0.3 s, about 61 MB),
    // from a file made once by `traintracker import ../shared/data/tokyo/mini-tokyo-3d --out tokyo.sqlite`.
    let model = try RailwayDatabase.loadModel(path: "tokyo.sqlite")
    var tracker = TripTracker(model: model)  // one per rider: the default tracker

    // Per fix (on Apple platforms: Location(clLocation), see the adapter below):
    let answer = tracker.process(
        Location(
            coordinate: Coordinate(latitude: 35.6581, longitude: 139.7017),
            timestamp: Timestamp(secondsSince1970: 1_758_527_280), horizontalAccuracy: 10, speed: 12, course: 200))
    if let best = answer.best {
        let line = model.network.railway(id: best.railwayID)?.name ?? best.railwayID
        let station = model.network.station(id: best.focusStationID)?.name ?? best.focusStationID
        print("\(line) · \(best.phase.label): \(station)", best.eta.map { "· \($0.timeOfDay(utcOffset: 32_400))" } ?? "")
    }

    // No fix for a while (a tunnel): what to show now, marked estimated once the last fix is stale.
    let meanwhile = tracker.estimate(at: Timestamp(secondsSince1970: 1_758_527_340))
    _ = meanwhile
}
