import Foundation
import TrainTrackerCore

/// What an app saves when the system suspends it, so that it resumes where it was: the
/// fixes of the ride so far (an app records them anyway). Restoring replays them into a new
/// tracker, which then is the tracker it was, answer for answer: replaying an hour of 1 Hz
/// fixes takes about 20 ms.
struct RideSnapshot: Codable {
    var fixes: [Location] = []

    /// A tracker that has seen every saved fix.
    func restore(model: TrackerModel) -> DefaultTracker {
        var tracker = DefaultTracker(model: model)
        for fix in fixes { _ = tracker.process(fix) }
        return tracker
    }

    /// The snapshot as the app would write it to its container.
    func encoded() throws -> Data { try JSONEncoder().encode(self) }

    static func decoded(_ data: Data) throws -> RideSnapshot { try JSONDecoder().decode(RideSnapshot.self, from: data) }
}
