/// A small XML reader in pure Swift, enough for GPX: elements with attributes, text, CDATA and
/// the five named and numeric character references; declarations, processing instructions,
/// comments and a DOCTYPE are passed over. It replaces Foundation's `XMLParser`, which on
/// Linux crashed on hostile input (fuzzing found a trap on a name that is not UTF-8 and a
/// null dereference on a processing instruction without data).
///
///     var scanner = XMLScanner(Array(data))
///     while let event = try scanner.next() { ... }
///
/// Every byte is bounds-checked; nesting is limited to `maximumDepth`.
/// - Complexity: O(n) in the size of the document.
struct XMLScanner {
    enum Event: Equatable {
        case start(name: String, attributes: [String: String])
        case end(name: String)
        case text(String)
    }

    /// Why the document is not XML, and where.
    struct Failure: Error, Equatable {
        var line: Int
        var problem: String
    }

    /// The deepest nesting taken.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0
    private var pendingEnd: String?
    /// The elements open at this point, outermost first.
    private(set) var openElements: [String] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The line (from 1) of the current position.
    var line: Int { 1 + bytes[..<min(position, bytes.count)].lazy.filter { $0 == UInt8(ascii: "\n") }.count }

    /// The next event, or nil at the end of the document.
    mutating func next() throws(Failure) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            openElements.removeLast()
            return .end(name: name)
        }
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "<") else { return .text(try text(until: "<")) }
            if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                try skip(past: "]]>", what: "CDATA section")
                return .text(String(decoding: bytes[start..<(position - 3)], as: UTF8.self))
            } else if starts(with: "<!") {
                try skipDeclaration()
            } else if starts(with: "</") {
                position += 2
                let name = try self.name()
                skipSpaces()
                try expect(">")
                guard let open = openElements.last else { throw failure("</\(name)> closes nothing") }
                guard open == name else { throw failure("</\(name)> closes <\(open)>") }
                openElements.removeLast()
                return .end(name: name)
            } else {
                return try startTag()
            }
        }
        return nil
    }

    // MARK: Pieces

    private mutating func startTag() throws(Failure) -> Event {
        position += 1
        let name = try self.name()
        var attributes: [String: String] = [:]
        while true {
            skipSpaces()
            guard position < bytes.count else { throw failure("the file ends inside <\(name)>") }
            if starts(with: "/>") {
                position += 2
                pendingEnd = name
                break
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            let attribute = try self.name()
            skipSpaces()
            guard position < bytes.count else { throw failure("the file ends inside <\(name)>") }
            try expect("=")
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
            else { throw failure("attribute '\(attribute)' of <\(name)> has no quoted value") }
            let quote = bytes[position]
            position += 1
            let value = try text(until: quote)
            guard position < bytes.count else { throw failure("attribute '\(attribute)' of <\(name)> is not closed") }
            position += 1
            if attributes[attribute] == nil { attributes[attribute] = value }
        }
        guard openElements.count < Self.maximumDepth else { throw failure("elements nested deeper than \(Self.maximumDepth)") }
        openElements.append(name)
        return .start(name: name, attributes: attributes)
    }

    /// A name: up to a space, `/`, `>`, `=` or a quote.
    private mutating func name() throws(Failure) -> String {
        let start = position
        while position < bytes.count, !Self.endsName(bytes[position]) { position += 1 }
        guard position > start else { throw failure("a tag without a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "/"),
            UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default: false
        }
    }

    /// Text up to `stop` (not taken), with character references replaced.
    private mutating func text(until stop: UInt8) throws(Failure) -> String {
        var result: [UInt8] = []
        while position < bytes.count, bytes[position] != stop {
            if bytes[position] == UInt8(ascii: "<") { throw failure("'<' inside a value") }
            if bytes[position] == UInt8(ascii: "&") {
                result += try reference()
            } else {
                result.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private mutating func text(until stop: Unicode.Scalar) throws(Failure) -> String {
        try text(until: UInt8(ascii: stop))
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;`, `&#xH;` as UTF-8.
    private mutating func reference() throws(Failure) -> [UInt8] {
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: ";"), position - start < 12 { position += 1 }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
            throw failure("an '&' that starts no reference")
        }
        let body = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
        position += 1
        switch body {
        case "lt": return Array("<".utf8)
        case "gt": return Array(">".utf8)
        case "amp": return Array("&".utf8)
        case "quot": return Array("\"".utf8)
        case "apos": return Array("'".utf8)
        default:
            let number: UInt32? =
                body.hasPrefix("#x") ? UInt32(body.dropFirst(2), radix: 16) : body.hasPrefix("#") ? UInt32(body.dropFirst()) : nil
            guard let number, let scalar = Unicode.Scalar(number) else { throw failure("unknown reference '&\(body);'") }
            return Array(String(Character(scalar)).utf8)
        }
    }

    private mutating func skipDeclaration() throws(Failure) {
        var depth = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ">") where depth <= 0:
                position += 1
                return
            default: break
            }
            position += 1
        }
        throw failure("the file ends inside a <! declaration")
    }

    private mutating func skip(past marker: String, what: String) throws(Failure) {
        let needle = Array(marker.utf8)
        while position < bytes.count {
            if starts(with: needle) {
                position += needle.count
                return
            }
            position += 1
        }
        throw failure("the file ends inside a \(what)")
    }

    private mutating func skipSpaces() {
        while position < bytes.count,
            [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[position])
        {
            position += 1
        }
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(Failure) {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else {
            throw failure("expected '\(character)'")
        }
        position += 1
    }

    private func starts(with text: String) -> Bool { starts(with: Array(text.utf8)) }

    private func starts(with needle: [UInt8]) -> Bool {
        position + needle.count <= bytes.count && bytes[position..<(position + needle.count)].elementsEqual(needle)
    }

    private func failure(_ problem: String) -> Failure { Failure(line: line, problem: problem) }
}
