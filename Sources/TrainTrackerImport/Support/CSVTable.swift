import CSV
import Foundation

/// A CSV file with a header row, read whole, with the line of every row for messages.
struct CSVTable {
    /// The file, as messages name it.
    let path: String
    /// The column names, trimmed, without a byte-order mark.
    let header: [String]
    /// The data rows; each has at least `header.count` fields (missing ones are empty).
    let rows: [[String]]
    private let columns: [String: Int]

    /// Parses `data` (UTF-8, with or without a byte-order mark).
    ///
    /// - Throws: `ImportError` for text that is not UTF-8 or not CSV, or without a header.
    init(data: Data, path: String) throws(ImportError) {
        guard var text = String(data: data, encoding: .utf8) else {
            throw ImportError(file: path, problem: "not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true, trimFields: true)
        } catch {
            throw ImportError(file: path, problem: "not CSV with a header row")
        }
        guard let header = reader.headerRow, !header.isEmpty, header != [""] else {
            throw ImportError(file: path, problem: "no header row")
        }
        var rows: [[String]] = []
        while var row = reader.next() {
            if row.count == 1, row[0].isEmpty { continue }  // blank line
            if row.count < header.count { row += Array(repeating: "", count: header.count - row.count) }
            rows.append(row)
        }
        if reader.error != nil { throw ImportError(file: path, location: "line \(rows.count + 2)", problem: "not valid CSV") }
        self.path = path
        self.header = header.map { $0.trimmingCharacters(in: .whitespaces) }
        self.rows = rows
        self.columns = Dictionary(
            self.header.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads the file at `path`.
    init(path: String) throws(ImportError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, problem: "no such file")
        }
        try self.init(data: data, path: path)
    }

    /// The file line of data row `index` (the header is line 1).
    func line(_ index: Int) -> String { "line \(index + 2)" }

    /// The position of column `name`, if present.
    func column(_ name: String) -> Int? { columns[name] }

    /// The position of column `name`.
    ///
    /// - Throws: `ImportError` naming the file and the missing column.
    func requiredColumn(_ name: String) throws(ImportError) -> Int {
        guard let index = columns[name] else { throw ImportError(file: path, field: name, problem: "missing column") }
        return index
    }

    /// The text of a field, `nil` when the column is absent or the field empty.
    func text(_ row: Int, _ column: Int?) -> String? {
        guard let column else { return nil }
        let value = rows[row][column]
        return value.isEmpty ? nil : value
    }

    /// The text of a required field.
    ///
    /// - Throws: `ImportError` naming the line and the field when it is empty.
    func requiredText(_ row: Int, _ column: Int) throws(ImportError) -> String {
        guard let value = text(row, column) else {
            throw ImportError(file: path, location: line(row), field: header[column], problem: "empty")
        }
        return value
    }

    /// A number, `nil` when the field is empty.
    ///
    /// - Throws: `ImportError` naming the line and the field when it is not a finite number.
    func number(_ row: Int, _ column: Int?) throws(ImportError) -> Double? {
        guard let column, let value = text(row, column) else { return nil }
        guard let number = Double(value), number.isFinite else {
            throw ImportError(file: path, location: line(row), field: header[column], problem: "not a number '\(value)'")
        }
        return number
    }
}
