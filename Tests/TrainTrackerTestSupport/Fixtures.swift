import Foundation

extension TemporaryDirectory {
    /// A writable copy of `files` (all of them when `nil`) of the folder at `source`, as the
    /// folder `name` inside this directory; the shared data itself is read-only.
    public func copy(of source: String, files: [String]? = nil, as name: String) throws -> String {
        let folder = path(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in try files ?? FileManager.default.contentsOfDirectory(atPath: source) {
            try FileManager.default.copyItem(atPath: source + "/" + file, toPath: folder + "/" + file)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/" + file)
        }
        return folder
    }
}

/// Damaging copies of real data in place, for tests of malformed input.
public enum Fixture {
    /// What a fixture edit could not find.
    public struct Missing: Error, CustomStringConvertible {
        /// What was looked for, and where.
        public var description: String
    }

    /// Replaces `old` with `new` in line `line` (from 1) of the text file at `path`.
    ///
    /// - Throws: `Missing` when the line does not hold `old`.
    public static func replace(_ old: String, with new: String, line: Int, in path: String) throws {
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        guard lines.indices.contains(line - 1), lines[line - 1].contains(old) else {
            throw Missing(description: "\(path): line \(line) does not hold '\(old)'")
        }
        lines[line - 1] = lines[line - 1].replacingOccurrences(of: old, with: new)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Appends `data` to the file at `path`.
    public static func append(_ data: Data, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
        try handle.close()
    }

    /// Changes the track of railway `id` in the mini-tokyo-3d `coordinates.json` at `path`.
    ///
    /// - Throws: `Missing` when the file holds no such railway.
    public static func editTrack(_ id: String, in path: String, _ change: (inout [String: Any]) -> Void) throws {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        guard var root, var tracks = root["railways"] as? [[String: Any]],
            let index = tracks.firstIndex(where: { $0["id"] as? String == id })
        else { throw Missing(description: "\(path): no track of railway '\(id)'") }
        change(&tracks[index])
        root["railways"] = tracks
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
    }
}
