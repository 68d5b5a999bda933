import Foundation
import GRDB
import TrainTrackerCore

extension RailwayDatabase {
    /// Loads the network at `path` prepared for the default tracker, with its timetable when
    /// the file has one (`timetables`). A file `traintracker import` wrote holds the timetable
    /// compiled (`trackerModel`): read in place of the 1.2 million calls of Tokyo's trains, it
    /// loads in a fraction of the time and memory, and the tracker answers exactly as with a
    /// model built from the trains. A compiled timetable of another version is compiled afresh
    /// from the train tables (`recompiled` is then told why; importing again saves that).
    ///
    /// - Throws: as `loadDataset(path:)`, and `.invalidValue` naming the `trackerModel` part at
    ///   fault when its bytes do not describe this file's network.
    public static func loadModel(
        path: String, timetables: Bool = true, recompiled: (String) -> Void = { _ in }
    ) throws(StorageError) -> TrackerModel {
        let queue = try DatabaseFile.openReadOnly(path: path, schema: schema)
        do {
            return try queue.read { db in
                let network = try readNetwork(db, path: path)
                guard timetables else { return TrackerModel(network: network) }
                if try db.tableExists("trackerModel"),
                    let model = try readCompiledTimetable(db, path: path, network: network, recompiled: recompiled)
                {
                    return model
                }
                return TrackerModel(dataset: TransitDataset(network: network, timetable: try readTimetable(db, path: path)))
            }
        } catch {
            throw DatabaseFile.storageError(error, path: path)
        }
    }

    /// The model from the compiled timetable, or `nil` when it is of another version.
    private static func readCompiledTimetable(
        _ db: Database, path: String, network: RailwayNetwork, recompiled: (String) -> Void
    ) throws -> TrackerModel? {
        let parts = try Row.fetchCursor(db, sql: #"SELECT part, data FROM trackerModel ORDER BY part"#)
        var reader: CompiledTimetableReader?
        var expected = 0
        do {
            while let row = try parts.next() {
                let part: DatabaseValue = row[0]
                let data: DatabaseValue = row[1]
                guard part == expected.databaseValue else {
                    throw CompiledTimetableError(part: expected, problem: "missing (the next is part \(part.shown))")
                }
                guard case .blob(let blob) = data.storage else {
                    throw CompiledTimetableError(part: expected, problem: "not bytes but \(data.shown.prefix(40))")
                }
                let bytes = [UInt8](blob)
                if reader == nil {
                    guard let version = CompiledTimetableReader.version(ofHeader: bytes) else {
                        throw CompiledTimetableError(part: 0, problem: "not a compiled timetable")
                    }
                    guard version == TrackerModel.compiledTimetableVersion else {
                        recompiled("\(path): its compiled timetable is of another version; compiling it from the trains")
                        return nil
                    }
                    reader = try CompiledTimetableReader(network: network, header: bytes)
                } else {
                    try reader?.add(bytes)
                }
                expected += 1
            }
            // An empty table: a file imported from a source without trains.
            guard let reader else { return nil }
            let (zone, calendar) = try readTimetableInfo(db, path: path, services: reader.services)
            return try reader.model(calendar: calendar, zone: zone)
        } catch let error as CompiledTimetableError {
            throw StorageError.invalidValue(
                path: path, table: "trackerModel", row: "part \(error.part)", column: "data", problem: error.problem)
        }
    }
}
