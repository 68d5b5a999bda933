/// Writes JSON text into a byte buffer that is kept from one line to the next: strings are
/// copied as UTF-8 (escaped only when they must be), times written digit by digit, and no
/// `String` is made per value. The JSONL contract of `replay` and the live server is written
/// with it, a line of 10–20 values in about a microsecond.
///
///     let json = JSONBuffer()
///     json.beginObject()
///     json.key("railway"); json.string("Tokyu.Toyoko")
///     json.key("score"); json.number(-0.5)
///     json.endObject()        // {"railway":"Tokyu.Toyoko","score":-0.5}
package final class JSONBuffer {
    /// The text written so far, UTF-8: `count` bytes from `base`, in `capacity` allocated.
    /// (Unchecked: the buffer is never shared between threads, and a checked access to a class's
    /// property costs as much as writing a byte.)
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) package private(set) var count = 0
    /// Whether the next value or key needs a comma before it.
    @exclusivity(unchecked) private var needsComma = false

    package init(capacity: Int = 1_024) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Forgets the text, keeping the memory for the next line.
    package func removeAll() {
        count = 0
        needsComma = false
    }

    /// Calls `body` with the text written so far (valid only during the call).
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The text as a `String`.
    package var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Room for `extra` more bytes.
    @inline(__always) private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        new.update(from: base, count: count)
        base.deallocate()
        base = new
        capacity = grown
    }

    @inline(__always) private func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always) private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) private func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    @inline(__always) private func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }

    package func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    package func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    package func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    package func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key of the object being written: `"name":` (one reservation, one copy).
    package func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        var target = base + count
        if needsComma {
            target.pointee = UInt8(ascii: ",")
            target += 1
        }
        target.pointee = UInt8(ascii: "\"")
        (target + 1).update(from: name.utf8Start, count: length)
        target += length + 1
        target[0] = UInt8(ascii: "\"")
        target[1] = UInt8(ascii: ":")
        count = base.distance(to: target) + 2
        needsComma = false
    }

    /// A key not known at compile time, quoted and escaped like any string.
    package func key(named name: String) {
        separate()
        appendQuoted(name)
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A string, or `null`.
    package func string(_ value: String?) {
        guard let value else {
            separate()
            append("null")
            needsComma = true
            return
        }
        string(value)
    }

    /// A string.
    package func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// A number as Swift writes it (`-0.5`, `1e-05`), or `null` when missing or not finite.
    package func number(_ value: Double?) {
        separate()
        if let value, value.isFinite {
            var stream = Stream(buffer: self)
            value.write(to: &stream)
        } else {
            append("null")
        }
        needsComma = true
    }

    /// Takes a number's digits as Swift writes them, without a `String` between.
    private struct Stream: TextOutputStream {
        let buffer: JSONBuffer
        mutating func write(_ string: String) {
            var string = string
            string.withUTF8 { buffer.append($0) }
        }
        mutating func _writeASCII(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }
    }

    /// A whole number, or `null`.
    package func integer(_ value: Int?) {
        separate()
        if let value {
            // (Up to 15 digits make a small string, kept without allocating.)
            var digits = value.description
            digits.withUTF8 { append($0) }
        } else {
            append("null")
        }
        needsComma = true
    }

    /// `true` or `false`.
    package func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
        needsComma = true
    }

    /// A time as `"2025-09-20T08:00:00.000Z"`, or `null`.
    package func timestamp(_ value: Timestamp?) {
        separate()
        if let value {
            reserve(26)
            append(UInt8(ascii: "\""))
            value.writeISO8601(to: base + count)
            count += 24
            append(UInt8(ascii: "\""))
        } else {
            append("null")
        }
        needsComma = true
    }

    /// Text that is JSON already, as one value.
    package func raw(_ json: String) {
        separate()
        var json = json
        json.withUTF8 { append($0) }
        needsComma = true
    }

    /// Ends a line of JSONL.
    package func newline() {
        append(UInt8(ascii: "\n"))
        needsComma = false
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// `value` in quotes, with `"`, backslash and control characters escaped (as `\n`, `\r`,
    /// `\t`, else `\u001f`). Bytes of a character beyond ASCII never need escaping, so the
    /// UTF-8 is copied as it is.
    private func appendQuoted(_ value: String) {
        // (Borrowed where the text is contiguous, as Swift's own strings are; copied otherwise.)
        if value.utf8.withContiguousStorageIfAvailable({ appendQuoted(utf8: $0) }) == nil {
            Array(value.utf8).withUnsafeBufferPointer { appendQuoted(utf8: $0) }
        }
    }

    private func appendQuoted(utf8: UnsafeBufferPointer<UInt8>) {
        if !Self.anyNeedsEscape(utf8) {
            reserve(utf8.count + 2)
            let target = base + count
            target[0] = UInt8(ascii: "\"")
            if let source = utf8.baseAddress { (target + 1).update(from: source, count: utf8.count) }
            target[utf8.count + 1] = UInt8(ascii: "\"")
            count += utf8.count + 2
            return
        }
        append(UInt8(ascii: "\""))
        for byte in utf8 {
            if Self.needsEscape(byte) { appendEscaped(byte) } else { append(byte) }
        }
        append(UInt8(ascii: "\""))
    }

    /// Whether any byte of `utf8` needs escaping: eight bytes at a time (a byte below 0x20,
    /// a quote or a backslash shows as a high bit in one of three words), the rest one by one.
    private static func anyNeedsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(start)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let below = (word &- ones &* 0x20) & ~word
            let zeroQuote = (quote &- ones) & ~quote
            let zeroBackslash = (backslash &- ones) & ~backslash
            if (below | zeroQuote | zeroBackslash) & highs != 0 { return true }
            offset += 8
        }
        while offset < utf8.count {
            if needsEscape(utf8[offset]) { return true }
            offset += 1
        }
        return false
    }

    @inline(__always) private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private func appendEscaped(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case UInt8(ascii: "\n"): append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): append(UInt8(ascii: "t"))
        default:
            append("u00")
            Self.hexDigits.withUTF8Buffer { hex in
                append(hex[Int(byte >> 4)])
                append(hex[Int(byte & 0xF)])
            }
        }
    }
}
