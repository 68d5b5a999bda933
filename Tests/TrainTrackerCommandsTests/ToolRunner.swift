import Foundation
import TrainTrackerCore
import TrainTrackerStorage
import TrainTrackerTestSupport

@testable import TrainTrackerLab

/// Writes a session file with one simulated Toyoko ride (Hiyoshi → Kikuna) on the real network.
func writeToyokoSession(to path: String, network: RailwayNetwork, id: String = "TOYOKO-1") throws -> Int {
    let start = Timestamp(secondsSince1970: 1_758_355_200)
    let fixes = try JourneySimulator(network: network).journey(
        on: "Tokyu.Toyoko", from: "Tokyu.Toyoko.Hiyoshi", to: "Tokyu.Toyoko.Kikuna", start: start)
    let database = try SessionDatabase.create(path: path)
    try database.insert(
        Session(id: id, startDate: start, isOnTrain: true),
        fixes: fixes.enumerated().map { RecordedFix(id: "\(id)-\($0.offset)", location: $0.element) })
    return fixes.count
}

/// Runs `traintracker journey` for a ride on the real Toyoko line, Hiyoshi → Tsunashima,
/// written to `out`, with `extra` arguments.
func runToyokoJourney(out: String, _ extra: [String] = []) throws -> ToolOutcome {
    try ToolRunner.run(
        [
            "journey", "--railways", SharedPaths.tokyoRailways, "--railway", "Tokyu.Toyoko", "--from", "Tokyu.Toyoko.Hiyoshi",
            "--to", "Tokyu.Toyoko.Tsunashima", "--out", out,
        ] + extra)
}
