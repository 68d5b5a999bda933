import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written all or nothing: into a temporary file beside its destination
/// (`.NAME.tmp-PID`, in the same folder, so that moving it into place is a rename), moved
/// into place only once complete. A crash leaves at most the temporary file (with SQLite's
/// `-journal`, `-wal` or `-shm` beside it), which the next write of the same destination
/// removes. Every command that writes a file writes it through this type.
///
///     try StagedFile.write(to: "ride.gpx") { temporary in
///         try Data(gpx.utf8).write(to: URL(fileURLWithPath: temporary))
///     }
public struct StagedFile: Sendable {
    /// Where the file goes.
    public let destination: String
    /// Where it is written until it is complete.
    public let temporaryPath: String
    /// Whether a file already at `destination` is replaced.
    public let replacing: Bool

    /// What SQLite may create beside a database file.
    static let companionSuffixes = ["-journal", "-wal", "-shm"]

    /// Prepares to write `destination`: checks that its folder exists, that it is not a
    /// folder and, unless `replacing`, that no file is there; removes what earlier writes of
    /// it that crashed left behind.
    ///
    /// - Throws: `StorageError.isDirectory`, `.fileExists` or `.cannotWrite` (no such folder).
    public init(destination: String, replacing: Bool) throws(StorageError) {
        let url = URL(fileURLWithPath: destination)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .cannotWrite(path: destination, problem: "no such folder \(folder)")
        }
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .isDirectory(path: destination) }
            if !replacing { throw .fileExists(path: destination) }
            // A device, a pipe or a socket is not a file to replace (as root, /dev/null would go).
            let type = (try? FileManager.default.attributesOfItem(atPath: destination))?[.type] as? FileAttributeType
            if let type, type != .typeRegular, type != .typeSymbolicLink {
                throw .cannotWrite(path: destination, problem: "not a regular file; not replacing it")
            }
        }
        self.destination = destination
        self.replacing = replacing
        self.temporaryPath =
            url.deletingLastPathComponent()
            .appendingPathComponent(Self.temporaryPrefix(of: url.lastPathComponent) + "\(getpid())").path
        Self.removeLeftovers(of: url)
    }

    /// `.NAME.tmp-`: what the temporary files of `name` start with.
    static func temporaryPrefix(of name: String) -> String { ".\(name).tmp-" }

    /// Removes the temporary files of `destination` whose process is gone (or is this one:
    /// a process id used again).
    private static func removeLeftovers(of destination: URL) {
        let folder = destination.deletingLastPathComponent()
        let prefix = temporaryPrefix(of: destination.lastPathComponent)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            guard let pid = Int32(digits), pid == getpid() || !isRunning(pid) else { continue }
            try? FileManager.default.removeItem(atPath: folder.appendingPathComponent(name).path)
        }
    }

    /// Whether a process with id `pid` exists.
    private static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Moves the complete file into place: atomically replacing the destination when
    /// `replacing`, else only if no file has appeared there meanwhile.
    ///
    /// - Throws: `StorageError.fileExists`, or `.cannotWrite` when the move fails; the
    ///   temporary file is removed then.
    public func commit() throws(StorageError) {
        removeCompanions()
        // On disk before it is named, so a crash after the rename cannot leave a torn file.
        let descriptor = open(temporaryPath, O_RDONLY)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            _ = close(descriptor)
        }
        if replacing {
            guard rename(temporaryPath, destination) == 0 else { throw failure(errno) }
            return
        }
        // A hard link fails rather than replace a file that appeared while this one was written.
        if link(temporaryPath, destination) == 0 {
            _ = unlink(temporaryPath)
            return
        }
        let linkError = errno
        guard linkError != EEXIST else {
            discard()
            throw .fileExists(path: destination)
        }
        // A file system without hard links.
        guard !FileManager.default.fileExists(atPath: destination) else {
            discard()
            throw .fileExists(path: destination)
        }
        guard rename(temporaryPath, destination) == 0 else { throw failure(errno) }
    }

    private func failure(_ code: Int32) -> StorageError {
        discard()
        if code == EISDIR { return .isDirectory(path: destination) }
        return .cannotWrite(path: destination, problem: String(cString: strerror(code)))
    }

    /// Removes the temporary file and SQLite's files beside it.
    public func discard() {
        _ = unlink(temporaryPath)
        removeCompanions()
    }

    private func removeCompanions() {
        for suffix in Self.companionSuffixes { _ = unlink(temporaryPath + suffix) }
    }

    /// Writes `destination` all or nothing: `body` writes the file at the temporary path it
    /// is given, which is then moved into place; when `body` throws, nothing is left behind.
    ///
    /// - Throws: the `StorageError` `body` throws, any other error of `body` as
    ///   `StorageError.cannotWrite`, or the errors of `init(destination:replacing:)` and `commit()`.
    @discardableResult
    public static func write<Result>(
        to destination: String, replacing: Bool = true, _ body: (_ temporaryPath: String) throws -> Result
    ) throws(StorageError) -> Result {
        let staged = try StagedFile(destination: destination, replacing: replacing)
        let result: Result
        do {
            result = try body(staged.temporaryPath)
        } catch let error as StorageError {
            staged.discard()
            throw error
        } catch {
            staged.discard()
            throw .cannotWrite(path: destination, problem: error.localizedDescription)
        }
        try staged.commit()
        return result
    }

    /// Writes `data` to `destination` all or nothing.
    ///
    /// - Throws: as `write(to:replacing:_:)`.
    public static func write(_ data: Data, to destination: String, replacing: Bool = true) throws(StorageError) {
        try write(to: destination, replacing: replacing) { temporary in
            try data.write(to: URL(fileURLWithPath: temporary))
        }
    }
}
