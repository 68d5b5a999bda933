import Foundation

/// Reading JSON files into `Decodable` values with errors that name the file and record.
enum JSONFile {
    /// Decodes `type` from the file at `path`.
    ///
    /// - Throws: `ImportError` for a missing file, invalid JSON, or JSON of another shape,
    ///   naming the record and field (e.g. `record 12`, field `coord`).
    static func decode<T: Decodable>(_ type: T.Type, path: String) throws(ImportError) -> T {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImportError(
                file: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        return try decode(type, from: data, path: path)
    }

    /// Decodes `type` from `data` read from `path`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws(ImportError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw importError(error, path: path)
        } catch {
            throw ImportError(file: path, problem: "not JSON")
        }
    }

    private static func importError(_ error: DecodingError, path: String) -> ImportError {
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
            if context.codingPath.isEmpty { return ImportError(file: path, problem: "not valid JSON") }
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
