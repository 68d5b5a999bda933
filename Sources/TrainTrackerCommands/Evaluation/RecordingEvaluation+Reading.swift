import Foundation
import TrainTrackerCore
import TrainTrackerImport
import TrainTrackerRealtime

extension RecordingEvaluation {
    /// The positions of every recording at `paths` (local times on `zone` where they carry no
    /// offset), and what each left out, by reason. A recording is a file of positions (SQLite
    /// or CSV, `VehiclePositionRecording`) or an operator's GTFS-realtime archive: a folder of
    /// feeds, or one feed file ending `.pb` (`archivedPositions(path:)`).
    ///
    /// - Throws: `CommandFailure` naming the file: missing, not a recording, an archive
    ///   without a feed. A malformed row or entity is skipped and counted.
    static func read(_ paths: [String], zone: TimeZoneRules) throws(CommandFailure) -> (
        positions: [VehiclePosition], skipped: [String: Int]
    ) {
        var positions: [VehiclePosition] = []
        var skipped: [String: Int] = [:]
        for path in paths {
            if let archived = try archivedPositions(path: path) {
                positions += archived.positions
                skipped.merge(archived.skipped, uniquingKeysWith: +)
                continue
            }
            let recording = try CommandFailure.wrapping { () throws(ImportError) in
                try VehiclePositionRecording.read(path: path, zone: zone)
            }
            positions += recording.positions
            skipped.merge(recording.skipped, uniquingKeysWith: +)
        }
        return (positions, skipped)
    }

    /// The trains' positions in a GTFS-realtime archive at `path` (a folder of feeds, or a
    /// feed file ending `.pb`): every vehicle the feeds place on a trip, once per trip and
    /// moment (a position repeated by the next feeds counts once); nil when `path` is neither.
    ///
    /// - Throws: `CommandFailure` when the archive cannot be read or holds no feed.
    /// - Complexity: O(v) in the vehicle positions of all the feeds.
    static func archivedPositions(path: String) throws(CommandFailure) -> (
        positions: [VehiclePosition], skipped: [String: Int]
    )? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            isFolder.boolValue || path.lowercased().hasSuffix(".pb")
        else { return nil }
        let archive = try CommandFailure.wrapping { () throws(RealtimeError) in try RealtimeArchive.read(path: path) }
        var skipped = archive.skipped
        if !archive.unreadable.isEmpty { skipped["files that are not feeds", default: 0] += archive.unreadable.count }
        var seen = Set<TripMoment>()
        var positions: [VehiclePosition] = []
        for vehicle in archive.feeds.lazy.flatMap(\.vehicles) {
            guard let trip = vehicle.tripID else {
                skipped["vehicles on no trip", default: 0] += 1
                continue
            }
            guard seen.insert(TripMoment(trip: trip, time: vehicle.time)).inserted else { continue }
            positions.append(VehiclePosition(tripID: trip, coordinate: vehicle.coordinate, time: vehicle.time))
        }
        return (positions, skipped)
    }

    /// A trip at a moment: an archive's feeds repeat a position until the next one comes.
    private struct TripMoment: Hashable {
        var trip: String
        var time: Timestamp
    }
}
