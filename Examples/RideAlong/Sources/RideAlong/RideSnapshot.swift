import Foundation
import TrainTrackerCore

/// What an app saves when the system suspends it, so that it resumes where it was: the
/// tracker's snapshot (a few kilobytes). Restored onto the same network, the tracker answers
/// exactly as the one that was never suspended.
enum RideSnapshot {
    /// JSON has no infinity, and a tracker's scores may be: they are written as names.
    static func encoded(_ tracker: RailwayTracker) throws -> Data {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(tracker.snapshot())
    }

    /// The tracker saved in `data`, on `model`; a file that does not fit the network (another
    /// network, a damaged file) is an error, as any outside input.
    static func restore(_ data: Data, model: TrackerModel) throws -> RailwayTracker {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try RailwayTracker(model: model, restoring: decoder.decode(RailwayTracker.Snapshot.self, from: data))
    }
}
