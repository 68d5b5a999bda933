import Foundation

/// The files of a GTFS feed, from a folder or a zip archive.
struct GTFSFeed {
    /// The feed's path, as messages name it.
    let path: String
    private let archive: ZipArchive?

    /// Whether `path` is a folder holding `stops.txt`.
    static func isFeed(at path: String) -> Bool {
        FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent("stops.txt").path)
    }

    /// Opens the feed at `path`: a folder, or a zip file (whose files may sit in one subfolder).
    ///
    /// - Throws: `ImportError` for a missing path or a file that is not a zip archive.
    init(path: String) throws(ImportError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(file: path, problem: "no such file")
        }
        if isDirectory.boolValue {
            archive = nil
        } else {
            archive = try ZipArchive(path: path)
        }
    }

    /// The table `name` (e.g. `stops.txt`), or `nil` when the feed lacks it.
    ///
    /// - Throws: `ImportError` naming the table: beyond `InputFile.maximumBytes` once
    ///   inflated, or as `CSVTable`.
    func table(_ name: String) throws(ImportError) -> CSVTable? {
        let display = "\(path)/\(name)"
        if let archive {
            guard let entry = archive.entry(named: name) else { return nil }
            return try CSVTable(
                data: try archive.data(of: entry, name: display, maximumBytes: InputFile.maximumBytes), path: display)
        }
        let file = URL(fileURLWithPath: path).appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        return try CSVTable(path: file)
    }

    /// The table `name`, which the feed must have.
    ///
    /// - Throws: `ImportError` naming the feed and the missing file.
    func requiredTable(_ name: String) throws(ImportError) -> CSVTable {
        guard let table = try table(name) else { throw ImportError(file: path, problem: "missing required file \(name)") }
        return table
    }
}
