import Foundation

/// Reading JSON files into `Decodable` values with errors that name the file and record.
enum JSONFile {
    /// Decodes `type` from the file at `path`.
    ///
    /// - Throws: `ImportError` for a missing file, a directory, a file beyond
    ///   `InputFile.maximumBytes`, invalid JSON (saying so when it is cut short), or JSON of
    ///   another shape, naming the record and field (e.g. `record 12`, field `coord`).
    static func decode<T: Decodable>(_ type: T.Type, path: String) throws(ImportError) -> T {
        try decode(type, from: try InputFile.read(path), path: path)
    }

    /// Decodes `type` from `data` read from `path`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws(ImportError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw importError(error, path: path, data: data)
        } catch {
            throw ImportError(file: path, problem: invalidJSON(data))
        }
    }

    /// The JSON value (arrays, dictionaries, `NSNumber`s...) in the file at `path`.
    ///
    /// - Throws: `ImportError` naming the file: missing, a directory, too large, not JSON.
    static func value(path: String) throws(ImportError) -> Any {
        try value(of: try InputFile.read(path), path: path)
    }

    /// The JSON value in `data` read from `path`.
    static func value(of data: Data, path: String) throws(ImportError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ImportError(file: path, problem: invalidJSON(data))
        }
    }

    /// What is wrong with `data`, which does not parse: "not valid JSON", and why when the
    /// text ends inside a string, an array or an object (a file cut short).
    static func invalidJSON(_ data: Data) -> String {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return "empty; not valid JSON" }
        return inString || depth > 0
            ? "not valid JSON: it ends inside a string, an array or an object (the file is cut short)" : "not valid JSON"
    }

    private static func importError(_ error: DecodingError, path: String, data: Data) -> ImportError {
        func place(_ codingPath: [any CodingKey]) -> (location: String?, field: String?) {
            var location: [String] = []
            var field: String?
            for key in codingPath {
                if let index = key.intValue {
                    location.append(field.map { "\($0)[\(index)]" } ?? "record \(index + 1)")
                    field = nil
                } else {
                    if let field { location.append(field) }
                    field = key.stringValue
                }
            }
            return (location.isEmpty ? nil : location.joined(separator: ", "), field)
        }
        switch error {
        case .typeMismatch(let type, let context):
            let (location, field) = place(context.codingPath)
            return ImportError(file: path, location: location, field: field, problem: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            let (location, field) = place(context.codingPath)
            return ImportError(file: path, location: location, field: field, problem: "missing \(describe(type))")
        case .keyNotFound(let key, let context):
            let (location, _) = place(context.codingPath)
            let parent = context.codingPath.last.flatMap { $0.intValue == nil ? $0.stringValue : nil }
            let where_ = [location, parent].compactMap { $0 }.joined(separator: ", ")
            return ImportError(file: path, location: where_.isEmpty ? nil : where_, field: key.stringValue, problem: "missing")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return ImportError(file: path, problem: invalidJSON(data)) }
            let (location, field) = place(context.codingPath)
            return ImportError(file: path, location: location, field: field, problem: context.debugDescription)
        @unknown default:
            return ImportError(file: path, problem: "not the expected JSON")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type: "a number"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).hasPrefix("Array")
                ? "an array" : (String(describing: type).hasPrefix("Dictionary") ? "an object" : "a \(type)")
        }
    }
}
