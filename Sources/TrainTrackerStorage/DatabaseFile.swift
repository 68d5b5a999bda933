import Foundation
import GRDB

/// Opening SQLite files with checks that turn SQLite's errors into `StorageError`s.
enum DatabaseFile {
    /// The page cache of a file opened to be read, in KiB (SQLite's default is 2,000). Such a
    /// file is read in passes, each in order (the network, the compiled timetable, a session's
    /// fixes), which a cache hardly helps: Tokyo's replay of 40 rides takes as long with it and
    /// peaks about 2 MB lower. Set by hand.
    static let readCacheKiB = 512

    /// Opens an existing file read-only and checks that it is SQLite and has `schema`'s
    /// tables and columns.
    static func openReadOnly(path: String, schema: [String: [String]], optionalTables: Set<String> = []) throws(StorageError)
        -> DatabaseQueue
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missingFile(path: path) }
        guard !isDirectory.boolValue else { throw .isDirectory(path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = path
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(readCacheKiB)") }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in try check(db, path: path, schema: schema, optionalTables: optionalTables) }
            return queue
        } catch let error as StorageError {
            throw error
        } catch {
            throw storageError(error, path: path)
        }
    }

    /// Checks that every table of `schema` exists (unless optional) with the listed columns.
    static func check(_ db: Database, path: String, schema: [String: [String]], optionalTables: Set<String>) throws {
        for (table, columns) in schema.sorted(by: { $0.key < $1.key }) {
            guard try db.tableExists(table) else {
                if optionalTables.contains(table) { continue }
                throw StorageError.missingTable(path: path, table: table)
            }
            let present = Set(try db.columns(in: table).map { $0.name.lowercased() })
            for column in columns where !present.contains(column.lowercased()) {
                throw StorageError.missingColumn(path: path, table: table, column: column)
            }
        }
    }

    /// Maps an SQLite error to a `StorageError` naming `path`.
    static func storageError(_ error: any Error, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB: return .notSQLite(path: path)
            case .SQLITE_CANTOPEN: return .missingFile(path: path)
            default: return .database(path: path, message: error.message ?? "\(error.resultCode)")
            }
        }
        return .database(path: path, message: "\(error)")
    }
}

extension DatabaseValue {
    /// The value as a finite or non-finite number, or `nil` for NULL, text and blobs.
    var number: Double? {
        switch storage {
        case .double(let value): value
        case .int64(let value): Double(value)
        default: nil
        }
    }

    /// The value as a message shows it: `12`, `1e+300`, `'east'`, `NULL`.
    var shown: String {
        switch storage {
        case .string(let text): "'\(text)'"
        case .double(let value): "\(value)"
        default: description
        }
    }

    /// The value as text, or `nil` for anything else.
    var text: String? {
        if case .string(let value) = storage { return value }
        return nil
    }
}
