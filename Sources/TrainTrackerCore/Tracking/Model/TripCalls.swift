/// A call of a trip: the station (by position in the railway's list) and the time (seconds
/// after its service day's midnight).
typealias TripCall = (slot: Int32, time: Float)

/// A trip's departures: a window on the calls of all its line's trips, kept in one array
/// (one allocation per line, not per trip: 5 MB less for Tokyo's 92,923 trains). Indexed
/// from 0 like an array.
struct TripCalls: RandomAccessCollection, Sendable {
    private let storage: CallStorage
    private let start: Int32
    private let length: Int32

    /// Calls `start ..< start + count` of `storage`.
    init(_ storage: CallStorage, start: Int, count: Int) {
        self.storage = storage
        self.start = Int32(start)
        length = Int32(count)
    }

    var count: Int { Int(length) }

    /// Whether its line's calls are packed in four bytes each (`CallStorage.packed`).
    var isPacked: Bool {
        if case .packed = storage { return true }
        return false
    }

    /// Calls of their own (tests, small tables).
    init(_ calls: [TripCall]) {
        self.init(CallStorage(calls), start: 0, count: calls.count)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    subscript(index: Int) -> TripCall { storage[Int(start) + index] }
}

/// A line's calls, each in four bytes where it fits (the station's slot in the top
/// `slotBits` bits, the time in whole seconds below: every call of Tokyo's and Caltrain's
/// timetables), else as they are (eight bytes). Tokyo's 1.2 million calls: 4.8 MB, not 9.7.
enum CallStorage: Sendable {
    case packed(ContiguousArray<UInt32>)
    case wide(ContiguousArray<TripCall>)

    /// Bits of a packed call for the slot (16,384 stations a railway) ...
    static let slotBits: UInt32 = 14
    /// ... and for the time: up to 262,143 s, three days.
    static let timeBits: UInt32 = 32 - slotBits

    /// `calls` packed if every one fits exactly, else kept as they are.
    init<Calls: Collection<TripCall>>(_ calls: Calls) {
        var packed = ContiguousArray<UInt32>()
        packed.reserveCapacity(calls.count)
        for call in calls {
            guard let word = Self.pack(call) else {
                self = .wide(ContiguousArray(calls))
                return
            }
            packed.append(word)
        }
        self = .packed(packed)
    }

    /// The call in four bytes, if its slot and time fit exactly.
    static func pack(_ call: TripCall) -> UInt32? {
        let time = call.time
        guard call.slot >= 0, call.slot < 1 << slotBits, time >= 0, time < Float(1 << timeBits),
            time.rounded(.towardZero) == time
        else { return nil }
        return UInt32(call.slot) << timeBits | UInt32(time)
    }

    subscript(index: Int) -> TripCall {
        switch self {
        case .packed(let words):
            let word = words[index]
            return (Int32(word >> Self.timeBits), Float(word & (1 << Self.timeBits - 1)))
        case .wide(let calls): return calls[index]
        }
    }
}
