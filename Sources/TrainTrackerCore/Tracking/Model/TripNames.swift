import Algorithms

/// Every scheduled trip's id and published number, packed, with an index from id to trip.
///
/// Tokyo's timetables hold 92,923 trips. As `[[TripLabel]]` and a `[String: (line, trip)]`
/// their names took 14.3 MB of heap (a string object of 74 bytes per id, a label of 32
/// bytes, a dictionary entry of 34); packed as UTF-8 bytes, one array per line, with two
/// offsets per trip and an open-addressed table of trip numbers, they take 5.3 MB. A name is made
/// a `String` only when asked for (the answer's train, a feed's trip).
///
/// Trips are numbered line by line (`LineDirection.index`), in the order each line's trips
/// were added; `append` adds to the line being built, `endLine` closes it.
struct TripNames: Sendable {
    /// One line's names: every id and number, one after another; trip `t`'s id is
    /// `bytes[bounds[2t]..<bounds[2t + 1]]`, its number `bytes[bounds[2t + 1]..<bounds[2t + 2]]`
    /// (empty: none).
    private struct Line: Sendable {
        var bytes: [UInt8] = []
        var bounds: [UInt32] = [0]

        var count: Int { bounds.count / 2 }

        func id(_ trip: Int) -> ArraySlice<UInt8> { bytes[Int(bounds[2 * trip])..<Int(bounds[2 * trip + 1])] }

        func number(_ trip: Int) -> ArraySlice<UInt8> { bytes[Int(bounds[2 * trip + 1])..<Int(bounds[2 * trip + 2])] }

        /// The same names in arrays of just their size (as appended, up to twice that).
        func compacted() -> Line {
            Line(bytes: TripNames.exactly(bytes), bounds: TripNames.exactly(bounds))
        }
    }

    /// The closed lines, by `LineDirection.index`.
    private var lines: [Line] = []
    /// The line being built.
    private var building = Line()
    /// Line `key`'s trips are numbers `lineStarts[key]..<lineStarts[key + 1]` among every line's.
    private var lineStarts: [Int32] = [0]
    /// Open addressing by the id's hash: 1 + a trip's number, or 0 where empty. The first
    /// trip with an id holds its place; its capacity is a power of two at least twice the
    /// trips, so that a probe meets an empty slot soon. The hash is Swift's, seeded anew in
    /// each process, so that no file can be made whose ids all collide.
    private var slots: [Int32] = []

    /// No trips, no lines.
    init() {}

    /// The trips of every closed line.
    var count: Int { Int(lineStarts[lineStarts.count - 1]) }

    /// The most trips in all (trips are numbered with `Int32`s).
    static let maximumTrips = Int(Int32.max) - 1

    /// Adds a trip to the line being built. A trip whose names would take the line's bytes
    /// past 4 GB is added without them (a compiled file is refused before: `fits`).
    mutating func append(_ label: TripLabel) {
        let (id, number) = (label.id.utf8, label.number?.utf8)
        let fitting = fits(bytes: id.count + (number?.count ?? 0))
        if fitting { building.bytes.append(contentsOf: id) }
        building.bounds.append(UInt32(building.bytes.count))
        if fitting, let number { building.bytes.append(contentsOf: number) }
        building.bounds.append(UInt32(building.bytes.count))
    }

    /// Whether `bytes` more bytes of names fit the line being built (4 GB on one line) and
    /// one more trip fits in all.
    func fits(bytes more: Int) -> Bool {
        more >= 0 && more <= Int(UInt32.max) - building.bytes.count && count + building.count < Self.maximumTrips
    }

    /// Forgets the trips appended since the last `endLine` (a part that turned out broken).
    mutating func discardLine() { building = Line() }

    /// Closes the line being built: the trips appended since the last `endLine`.
    mutating func endLine() {
        lines.append(building.compacted())
        lineStarts.append(Int32(clamping: count + building.count))
        building = Line()
    }

    /// The names with their index by id: to call once every line is closed (before, no id is
    /// found; a trip appended after is not found by its id).
    ///
    /// - Complexity: O(trips) on average.
    func indexed() -> TripNames {
        var indexed = self
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (key, line) in lines.enumerated() {
            for trip in 0..<line.count {
                let slot = line.id(trip).withUnsafeBufferPointer { probe(for: $0, in: slots) }
                if slots[slot] == 0 { slots[slot] = Int32(clamping: Int(lineStarts[key]) + trip + 1) }
            }
        }
        indexed.slots = slots
        return indexed
    }

    /// A copy of `array` in an allocation of its size.
    fileprivate static func exactly<Element>(_ array: [Element]) -> [Element] {
        [Element](unsafeUninitializedCapacity: array.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: array)
        }
    }

    /// The line and the index on it of trip number `number` among every line's.
    private func place(ofNumber number: Int) -> (line: Int, trip: Int) {
        let line = lineStarts.partitioningIndex { Int($0) > number } - 1
        return (line, number - Int(lineStarts[line]))
    }

    /// The slot of `slots` (a power of two of them, one empty at least) that holds the trip
    /// with id `id`, or the empty one where it would go.
    private func probe(for id: UnsafeBufferPointer<UInt8>, in slots: [Int32]) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(id))
        var slot = hasher.finalize() & (slots.count - 1)
        while slots[slot] != 0 {
            let place = place(ofNumber: Int(slots[slot]) - 1)
            if lines[place.line].id(place.trip).elementsEqual(id) { return slot }
            slot = (slot + 1) & (slots.count - 1)
        }
        return slot
    }

    /// Where trip `id` is: its line (`LineDirection.index`) and its index among the line's
    /// trips; the first such trip where ids repeat; nil for an id no trip has. Ids are
    /// compared as UTF-8 bytes, as GTFS-realtime sends them: "é" written as one character is
    /// another id than "e" and an accent.
    ///
    /// - Complexity: O(length of `id`) on average.
    subscript(id: String) -> (line: Int32, trip: Int32)? {
        guard !slots.isEmpty else { return nil }
        var id = id
        let slot = id.withUTF8 { probe(for: $0, in: slots) }
        guard slots[slot] != 0 else { return nil }
        let place = place(ofNumber: Int(slots[slot]) - 1)
        return (Int32(clamping: place.line), Int32(clamping: place.trip))
    }

    /// Line `line`'s names, when it has trip `trip`.
    private func line(_ line: LineDirection, having trip: Int) -> Line? {
        guard lines.indices.contains(line.index), trip >= 0, trip < lines[line.index].count else { return nil }
        return lines[line.index]
    }

    /// The trips of line `line`.
    func count(line: LineDirection) -> Int {
        lines.indices.contains(line.index) ? lines[line.index].count : 0
    }

    /// Trip `trip` of `line`'s id and number, when the line has it.
    subscript(line line: LineDirection, trip trip: Int) -> TripLabel? {
        guard let names = self.line(line, having: trip) else { return nil }
        let number = names.number(trip)
        return TripLabel(
            id: String(decoding: names.id(trip), as: UTF8.self),
            number: number.isEmpty ? nil : String(decoding: number, as: UTF8.self))
    }

    /// Trip `trip` of `line`'s id, when the line has it (without making its number).
    func id(line: LineDirection, trip: Int) -> String? {
        self.line(line, having: trip).map { String(decoding: $0.id(trip), as: UTF8.self) }
    }

    /// Whether trip `trip` of `line` has id `id` (without making its id a `String`).
    func trip(line: LineDirection, trip: Int, hasID id: String) -> Bool {
        self.line(line, having: trip)?.id(trip).elementsEqual(id.utf8) ?? false
    }
}
