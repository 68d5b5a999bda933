import Foundation

/// Reading input files whole: errors that say what is wrong with the path (missing, a
/// folder, unreadable) and a cap on how much is read, so a hostile file (or a zip entry that
/// inflates to gigabytes) is refused before it fills the memory.
public enum InputFile {
    /// The most bytes one input file, or one zip entry once inflated, may hold: 512 MiB.
    public static let maximumBytes = 512 * 1_048_576

    /// The contents of the file at `path`.
    ///
    /// - Throws: `ImportError` naming the file: no such file, is a directory, cannot be read,
    ///   or larger than `maximumBytes`.
    public static func read(_ path: String, maximumBytes: Int = maximumBytes) throws(ImportError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(file: path, problem: "no such file")
        }
        guard !isDirectory.boolValue else { throw ImportError(file: path, problem: "is a directory") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumBytes else { throw tooLarge(path, maximumBytes: maximumBytes) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, problem: "cannot be read")
        }
        // A file that grew while it was read.
        guard data.count <= maximumBytes else { throw tooLarge(path, maximumBytes: maximumBytes) }
        return data
    }

    /// The line (from 1) and byte offset (from 0) of the first byte that is not UTF-8, or nil
    /// when `data` is UTF-8 throughout.
    ///
    /// - Complexity: O(n).
    public static func firstInvalidUTF8(in data: Data) -> (line: Int, offset: Int)? {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var (line, offset) = (1, 0)
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == UInt8(ascii: "\n") { line += 1 }
                offset += scalar.count
            case .emptyInput: return nil
            case .error: return (line, offset)
            }
        }
    }

    /// The error for a file (or zip entry) past `maximumBytes`.
    static func tooLarge(_ name: String, maximumBytes: Int) -> ImportError {
        let limit = maximumBytes % 1_048_576 == 0 ? "\(maximumBytes / 1_048_576) MiB" : "\(maximumBytes) bytes"
        return ImportError(file: name, problem: "larger than \(limit); not read")
    }
}
