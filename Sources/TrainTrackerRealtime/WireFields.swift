/// Protocol-buffer wire data read without decoding it: where a message's fields lie. The feed
/// reader counts a feed's entities and each trip update's stop-time updates this way before it
/// decodes anything, then decodes the entities one at a time, so a hostile feed of millions of
/// tiny messages is refused at the cost of one pass over its bytes.
///
///     try WireFields.visit(bytes, in: bytes.indices) { field in
///         if field.number == 2 { entities += 1 }
///     }
enum WireFields {
    /// One field on the wire: its number, its wire type, and where its value lies (for a
    /// length-delimited field, its content without the length).
    struct Field: Sendable {
        /// The field number.
        let number: UInt64
        /// The wire type: 0 varint, 1 eight bytes, 2 length-delimited, 5 four bytes.
        let wireType: UInt8
        /// Where the value lies in the bytes.
        let value: Range<Int>

        /// The wire type of a nested message, a string or bytes.
        static let lengthDelimited: UInt8 = 2
    }

    /// Why the bytes are not a message.
    enum Problem: Error, CustomStringConvertible {
        /// A field runs past the end of its message.
        case truncated
        /// A group or a wire type protocol buffers do not define: GTFS-realtime has neither,
        /// and a decoder that skips them would let a feed hide what follows from the count.
        case foreignWireType
        /// Field number 0, or one beyond the largest protocol buffers allow.
        case badFieldNumber

        var description: String {
            switch self {
            case .truncated: "truncated"
            case .foreignWireType: "a group or an unknown wire type"
            case .badFieldNumber: "a field number protocol buffers do not allow"
            }
        }
    }

    /// The field numbers protocol buffers allow.
    static let fieldNumbers: ClosedRange<UInt64> = 1...536_870_911

    /// Calls `body` with each field of the message in `bytes[range]`, in order.
    ///
    /// - Throws: `Problem` where the bytes stop being fields.
    /// - Complexity: O(n) for the n bytes of the range; allocates nothing.
    static func visit(_ bytes: [UInt8], in range: Range<Int>, _ body: (Field) -> Void) throws(Problem) {
        var index = range.lowerBound
        let end = range.upperBound
        func varint() throws(Problem) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < end, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            throw .truncated
        }
        func skip(_ count: UInt64) throws(Problem) -> Range<Int> {
            guard count <= UInt64(end - index) else { throw .truncated }
            let start = index
            index += Int(count)
            return start..<index
        }
        while index < end {
            let key = try varint()
            guard Self.fieldNumbers.contains(key >> 3) else { throw .badFieldNumber }
            let wireType = UInt8(key & 7)
            let value: Range<Int>
            switch wireType {
            case 0:
                let start = index
                _ = try varint()
                value = start..<index
            case 1: value = try skip(8)
            case 2: value = try skip(try varint())
            case 5: value = try skip(4)
            default: throw .foreignWireType
            }
            body(Field(number: key >> 3, wireType: wireType, value: value))
        }
    }

    /// How many length-delimited fields numbered `number` the message in `bytes[range]` holds.
    ///
    /// - Throws: `Problem` where the bytes stop being fields.
    /// - Complexity: O(n) for the n bytes of the range.
    static func count(_ number: UInt64, in bytes: [UInt8], _ range: Range<Int>) throws(Problem) -> Int {
        var count = 0
        try visit(bytes, in: range) { field in
            if field.number == number, field.wireType == Field.lengthDelimited { count += 1 }
        }
        return count
    }
}
