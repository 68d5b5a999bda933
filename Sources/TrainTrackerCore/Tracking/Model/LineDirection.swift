/// A railway taken in one direction of travel: what a tracker keeps a hypothesis for, and what
/// the tracker's model keeps service patterns, trips and departures for.
///
///     let line = LineDirection(railway: 12, direction: .descending)
///     line.reversed.direction   // .ascending
///     patterns[line: line]      // an array with one element per line of the network
public struct LineDirection: Hashable, Comparable, Sendable, Codable {
    /// The line's place among all lines of its network (`railway * 2 + direction`): arrays with
    /// one element per line are indexed by it.
    public let index: Int

    /// Railway `railway` (its index in the network) in `direction`.
    public init(railway: Int, direction: TravelDirection) { index = railway * 2 + direction.rawValue }

    init(index: Int) { self.index = index }

    /// The railway's index in the network.
    public var railway: Int { index / 2 }
    /// The direction of travel.
    public var direction: TravelDirection { index % 2 == 0 ? .ascending : .descending }
    /// The same railway the other way.
    public var reversed: LineDirection { LineDirection(index: index ^ 1) }

    /// Every line of a network of `railwayCount` railways, in index order.
    public static func all(railwayCount: Int) -> [LineDirection] {
        (0..<(max(railwayCount, 0) * 2)).map { LineDirection(index: $0) }
    }

    /// Lines in index order (railway order, ascending first).
    public static func < (lhs: LineDirection, rhs: LineDirection) -> Bool { lhs.index < rhs.index }
}

extension Array {
    /// The element for `line`, in an array with one element per line of a network.
    subscript(line line: LineDirection) -> Element {
        get { self[line.index] }
        set { self[line.index] = newValue }
    }
}
