import Foundation
import TrainTrackerCore
import TrainTrackerLab
import TrainTrackerStorage

/// A folder of rides with their truth, as `simulate` writes it and `evaluate --cases` reads
/// it: `sessions.sqlite` (Eki session schema) and `truth.json`.
enum CasesFolder {
    /// Writes both files into `folder`, each all or nothing, and the second only once the first
    /// is in place.
    static func write(
        _ file: CasesFile, sessions: [(session: Session, fixes: [RecordedFix])], to folder: String, replacing: Bool
    ) throws(CommandFailure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandFailure("\(folder): not a directory")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(folder): cannot create the folder")
        }
        let truthPath = URL(fileURLWithPath: folder).appendingPathComponent("truth.json").path
        let sessionsPath = URL(fileURLWithPath: folder).appendingPathComponent("sessions.sqlite").path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(file)
        } catch {
            throw CommandFailure("\(truthPath): cannot encode the truth (\(error))")
        }
        try CommandFailure.wrapping { () throws(StorageError) in
            let truth = try StagedFile(destination: truthPath, replacing: replacing)
            do {
                try data.write(to: URL(fileURLWithPath: truth.temporaryPath))
            } catch {
                truth.discard()
                throw StorageError.cannotWrite(path: truthPath, problem: error.localizedDescription)
            }
            do throws(StorageError) {
                try SessionDatabase.create(path: sessionsPath, replacing: replacing, sessions: sessions)
            } catch {
                truth.discard()
                throw error
            }
            do throws(StorageError) {
                try truth.commit()
            } catch {
                try? FileManager.default.removeItem(atPath: sessionsPath)
                throw error
            }
        }
    }

    /// Writes real rides (from a recording) as a cases folder, so that any tool that replays
    /// sessions or scores cases reads them.
    static func write(
        _ rides: [(fixes: [RecordedFix], truth: CaseTruth)], railways: String, to folder: String
    ) throws(CommandFailure) {
        let file = CasesFile(
            seed: 0, countPerScenario: rides.count, railways: railways, phone: "recorded train positions",
            conditions: nil, cases: rides.map(\.truth))
        let sessions = rides.map {
            (
                session: Session(
                    id: $0.truth.sessionID, startDate: Timestamp(secondsSince1970: $0.truth.departure),
                    endDate: $0.fixes.last?.location.timestamp, notes: "recorded \($0.truth.trainID)", isOnTrain: true),
                fixes: $0.fixes
            )
        }
        try write(file, sessions: sessions, to: folder, replacing: true)
    }
}

extension RailwayNetwork {
    /// Whether `other` is the same map: the same railways with the same stations in order,
    /// each station within `SameMap.stationTolerance` of where it was and each track as long
    /// within `SameMap.lengthTolerance` (an import may round coordinates).
    func isSameMap(as other: RailwayNetwork) -> Bool {
        guard railways.count == other.railways.count, stations.count == other.stations.count else { return false }
        for (mine, theirs) in zip(railways, other.railways) {
            guard mine.id == theirs.id, mine.stationIDs == theirs.stationIDs,
                abs(mine.track.polyline.length - theirs.track.polyline.length)
                    <= SameMap.lengthTolerance * max(mine.track.polyline.length, 1)
            else { return false }
        }
        return stations.allSatisfy { mine in
            other.station(id: mine.id).map { mine.coordinate.distance(to: $0.coordinate) <= SameMap.stationTolerance } ?? false
        }
    }
}

/// How close two maps must be to count as one.
enum SameMap {
    /// A station this far from where the other map has it has moved.
    static let stationTolerance: Meters = 1
    /// A track longer or shorter than the other's by this share has been redrawn.
    static let lengthTolerance = 0.001
}
