import TrainTrackerCore

/// Why a railway or session file cannot be used. Every case names the file; its
/// `description` is the one line the command-line tool prints.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There is no file at the path.
    case missingFile(path: String)
    /// The path names a folder where a file belongs.
    case isDirectory(path: String)
    /// The file exists but is not an SQLite database.
    case notSQLite(path: String)
    /// A table the schema needs is missing.
    case missingTable(path: String, table: String)
    /// A column the schema needs is missing.
    case missingColumn(path: String, table: String, column: String)
    /// A value cannot be read.
    case invalidValue(path: String, table: String, row: String, column: String, problem: String)
    /// The railways and stations read do not form a network.
    case invalidNetwork(path: String, problem: NetworkError)
    /// The file already exists and would be overwritten.
    case fileExists(path: String)
    /// A session id asked for is not in the file.
    case unknownSession(path: String, id: String)
    /// SQLite reported an error.
    case database(path: String, message: String)
    /// The file cannot be written (no such folder, no permission, a full disk).
    case cannotWrite(path: String, problem: String)

    /// One line saying what is wrong.

    public var description: String {
        switch self {
        case .missingFile(let path): "\(path): no such file"
        case .isDirectory(let path): "\(path): is a directory"
        case .notSQLite(let path): "\(path): not an SQLite database"
        case .missingTable(let path, let table): "\(path): missing table '\(table)'"
        case .missingColumn(let path, let table, let column): "\(path): table '\(table)' has no column '\(column)'"
        case .invalidValue(let path, let table, let row, let column, let problem):
            "\(path): table '\(table)', row '\(row)', column '\(column)': \(problem)"
        case .invalidNetwork(let path, let problem): "\(path): \(problem)"
        case .fileExists(let path): "\(path): file exists; not overwriting it"
        case .unknownSession(let path, let id): "\(path): no session with id '\(id)'"
        case .database(let path, let message): "\(path): \(message)"
        case .cannotWrite(let path, let problem): "\(path): cannot be written (\(problem))"
        }
    }
}

extension StorageError {
    /// The file the error is about.
    public var path: String {
        switch self {
        case .missingFile(let path), .isDirectory(let path), .notSQLite(let path), .missingTable(let path, _),
            .missingColumn(let path, _, _),
            .invalidValue(let path, _, _, _, _), .invalidNetwork(let path, _), .fileExists(let path),
            .unknownSession(let path, _),
            .database(let path, _), .cannotWrite(let path, _):
            path
        }
    }
}
