/// Writes numbers and strings as little-endian bytes, for compiled files.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    /// A count or index, which must fit in 32 bits (every count the tracker stores does).
    mutating func count(_ value: Int) { uint32(UInt32(clamping: value)) }

    mutating func float(_ value: Float) { uint32(value.bitPattern) }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        count(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    mutating func bools(_ values: [Bool]) {
        for value in values { bytes.append(value ? 1 : 0) }
    }
}

/// Why compiled bytes cannot be read: where, and what is wrong.
public struct ByteReadError: Error, Equatable, CustomStringConvertible {
    /// The problem, e.g. `a count of 4294967295 where at most 12 fit`.
    public var problem: String

    /// The problem, as a message shows it.
    public var description: String { problem }
}

/// Reads what `ByteWriter` wrote, checking every count and value against the bytes left
/// and the range the caller allows: bytes from a file are untrusted.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws(ByteReadError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else {
            throw ByteReadError(problem: "ends early, at byte \(bytes.count) of at least \(offset + max(count, 0))")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A fixed-width integer, read in place.
    private mutating func load<Value: FixedWidthInteger>(_: Value.Type) throws(ByteReadError) -> Value {
        let size = MemoryLayout<Value>.size
        guard size <= bytes.count - offset else {
            throw ByteReadError(problem: "ends early, at byte \(bytes.count) of at least \(offset + size)")
        }
        let value = bytes.withUnsafeBytes { [offset] in $0.loadUnaligned(fromByteOffset: offset, as: Value.self) }
        offset += size
        return Value(littleEndian: value)
    }

    mutating func uint8() throws(ByteReadError) -> UInt8 { try load(UInt8.self) }

    mutating func uint32() throws(ByteReadError) -> UInt32 { try load(UInt32.self) }

    /// A byte that must be 0 (false) or 1 (true).
    mutating func flag(what: String) throws(ByteReadError) -> Bool {
        let byte = try uint8()
        guard byte <= 1 else { throw ByteReadError(problem: "\(what) holds \(byte), not 0 or 1") }
        return byte == 1
    }

    mutating func int32() throws(ByteReadError) -> Int32 { Int32(bitPattern: try uint32()) }

    /// A count or index in `range`; each item of a count takes at least `itemBytes` bytes,
    /// so no count can ask for more items than the bytes left could hold.
    mutating func count(in range: ClosedRange<Int>, itemBytes: Int = 0, what: String) throws(ByteReadError) -> Int {
        let value = Int(try uint32())
        guard range.contains(value) else {
            throw ByteReadError(problem: "\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        guard value * itemBytes <= bytes.count - offset else {
            throw ByteReadError(problem: "\(what) \(value) needs more bytes than are left")
        }
        return value
    }

    mutating func float() throws(ByteReadError) -> Float { Float(bitPattern: try uint32()) }

    mutating func double() throws(ByteReadError) -> Double { Double(bitPattern: try load(UInt64.self)) }

    /// A finite number in `range`.
    mutating func double(in range: ClosedRange<Double>, what: String) throws(ByteReadError) -> Double {
        let value = try double()
        guard value.isFinite, range.contains(value) else {
            throw ByteReadError(problem: "\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    mutating func string(maximumBytes: Int, what: String) throws(ByteReadError) -> String {
        let length = try count(in: 0...maximumBytes, itemBytes: 1, what: "\(what)'s length")
        let utf8 = try take(length)
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw ByteReadError(problem: "\(what) is not UTF-8")
        }
        return text
    }

    mutating func bools(_ count: Int, what: String) throws(ByteReadError) -> [Bool] {
        var values: [Bool] = []
        values.reserveCapacity(count)
        for byte in try take(count) {
            guard byte <= 1 else { throw ByteReadError(problem: "\(what) holds \(byte), not 0 or 1") }
            values.append(byte == 1)
        }
        return values
    }
}
