import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerStorage

/// The real data in `../shared/data`, read in place.
public enum SharedData {
    /// The Greater Tokyo railway file.
    public static var tokyoRailwayPath: String { SharedPaths.tokyoRailways }

    /// The Greater Tokyo network, loaded once for all tests.
    public static let tokyo: Result<RailwayNetwork, StorageError> = Result { () throws(StorageError) in
        try RailwayDatabase.load(path: tokyoRailwayPath)
    }

    /// The Tokyo network, or a test failure that says where the data should be.
    public static func tokyoNetwork() throws -> RailwayNetwork {
        switch tokyo {
        case .success(let network):
            return network
        case .failure(let error):
            Issue.record(
                "the Greater Tokyo network is needed at \(tokyoRailwayPath) (../shared/data from the package root): \(error)")
            throw error
        }
    }
}

/// Helpers for journeys on real track.
extension RailwayNetwork {
    /// The id of the station of `railwayID` whose id ends with `.suffix`.
    public func stationID(_ railwayID: String, _ suffix: String) -> String { "\(railwayID).\(suffix)" }
}

/// Runs a fresh tracker over `fixes` and returns every result.
public func track(_ fixes: [Location], on network: RailwayNetwork, parameters: EkiParameters = EkiParameters())
    -> [TrackingResult]
{
    var tracker = EkiTracker(network: network, parameters: parameters)
    return fixes.map { tracker.process($0) }
}

/// A fixed start time for simulated journeys.
public let morning = Timestamp(secondsSince1970: 1_758_355_200)  // 2025-09-20 08:00 UTC
