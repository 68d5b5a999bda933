import CSV
import Foundation

/// A CSV file with a header row, read whole, with the line of every row for messages.
///
/// Refused with an error naming the line: a quote left open (a file cut short inside a
/// quoted field, which a lenient parser would read to the end as one field), a last line
/// with fewer fields than the header and no line break after it (a file cut short), more
/// than `maximumRows` rows or `maximumBlankLines` blank lines.
struct CSVTable {
    /// The file, as messages name it.
    let path: String
    /// The column names, trimmed, without a byte-order mark.
    let header: [String]
    /// The data rows; each has at least `header.count` fields (missing ones are empty).
    let rows: [[String]]
    /// The file line each data row starts on.
    private let lines: [Int32]
    private let columns: [String: Int]

    /// The most data rows a table may have: 50 million (a whole country's `stop_times.txt`
    /// has a few tens of millions).
    static let maximumRows = 50_000_000
    /// The most blank lines a table may have: they carry nothing, and millions of them are
    /// a file made to keep the importer busy.
    static let maximumBlankLines = 100_000

    /// Parses `data` (UTF-8, with or without a byte-order mark).
    ///
    /// - Throws: `ImportError` for text that is not UTF-8 or not CSV, without a header, cut
    ///   short, or beyond the row limits.
    init(data: Data, path: String) throws(ImportError) {
        guard var text = String(data: data, encoding: .utf8) else {
            throw ImportError(file: path, problem: "not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let layout = try CSVLayout(text, path: path)
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
            if row.count < header.count {
                // The last line, without a line break after it: the file was cut short.
                if layout.endsMidLine, rows.count + 2 == layout.recordLines.count {
                    throw ImportError(
                        file: path, location: "line \(layout.recordLines[rows.count + 1])",
                        problem: "ends after \(row.count) of \(header.count) fields (the file is cut short)")
                }
                row += Array(repeating: "", count: header.count - row.count)
            }
            rows.append(row)
        }
        if reader.error != nil {
            let line = rows.count + 1 < layout.recordLines.count ? Int(layout.recordLines[rows.count + 1]) : rows.count + 2
            throw ImportError(file: path, location: "line \(line)", problem: "not valid CSV")
        }
        // Where each row starts, when the reader saw the records the scan did.
        let lines = layout.recordLines.count == rows.count + 1 ? Array(layout.recordLines.dropFirst()) : []
        self.path = path
        self.header = header.map { $0.trimmingCharacters(in: .whitespaces) }
        self.rows = rows
        self.lines = lines
        self.columns = Dictionary(
            self.header.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads the file at `path`.
    ///
    /// - Throws: `ImportError` naming the file: missing, a directory, beyond
    ///   `InputFile.maximumBytes`, or as `init(data:path:)`.
    init(path: String) throws(ImportError) {
        try self.init(data: try InputFile.read(path), path: path)
    }

    /// The file line of data row `index` (the header is line 1).
    func line(_ index: Int) -> String { "line \(index < lines.count ? Int(lines[index]) : index + 2)" }

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

/// Where the records of a CSV text start, found by following its quotes (RFC 4180: a quote
/// opens a field only at its start; `""` inside a quoted field is a quote).
private struct CSVLayout {
    /// The line each record (the header first) starts on; blank lines hold no record.
    var recordLines: [Int32] = []
    /// Whether the text ends without a line break after its last record.
    var endsMidLine = false

    /// - Throws: `ImportError` naming the line of a quote left open, or too many rows or
    ///   blank lines.
    init(_ text: String, path: String) throws(ImportError) {
        var text = text
        text.makeContiguousUTF8()
        enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
        var state = State.fieldStart
        var line = 1
        var quoteLine = 1
        var recordHasContent = false
        var blankLines = 0
        var lastByte: UInt8 = 0
        let (quote, comma, newline, space, tab, carriageReturn) = (
            UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\t"),
            UInt8(ascii: "\r")
        )
        var failure: ImportError?
        // A record starts at its first character that is not blank.
        func content() {
            guard !recordHasContent else { return }
            recordHasContent = true
            recordLines.append(Int32(clamping: line))
        }
        text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes {
                lastByte = byte
                switch state {
                case .fieldStart:
                    if byte == quote {
                        content()
                        state = .quoted
                        quoteLine = line
                    } else if byte == newline {
                        if !recordHasContent { blankLines += 1 }
                        recordHasContent = false
                    } else if byte == comma {
                        content()
                    } else if byte != space && byte != tab && byte != carriageReturn {
                        content()
                        state = .unquoted
                    }
                case .unquoted:
                    if byte == comma {
                        state = .fieldStart
                    } else if byte == newline {
                        state = .fieldStart
                        recordHasContent = false
                    }
                case .quoted:
                    if byte == quote { state = .quoteInQuoted }
                case .quoteInQuoted:
                    if byte == quote {
                        state = .quoted
                    } else if byte == comma {
                        state = .fieldStart
                    } else if byte == newline {
                        state = .fieldStart
                        recordHasContent = false
                    } else {
                        state = .unquoted
                    }
                }
                if byte == newline {
                    line += 1
                    if recordLines.count > CSVTable.maximumRows + 1 || blankLines > CSVTable.maximumBlankLines {
                        break
                    }
                }
            }
        }
        if recordLines.count > CSVTable.maximumRows + 1 {
            failure = ImportError(file: path, problem: "more than \(CSVTable.maximumRows) rows; not read")
        } else if blankLines > CSVTable.maximumBlankLines {
            failure = ImportError(file: path, problem: "more than \(CSVTable.maximumBlankLines) blank lines; not read")
        } else if state == .quoted {
            failure = ImportError(
                file: path, location: "line \(quoteLine)",
                problem: "a quote opened here is never closed (the file is cut short or malformed)")
        }
        if let failure { throw failure }
        endsMidLine = lastByte != newline && recordHasContent
    }
}
