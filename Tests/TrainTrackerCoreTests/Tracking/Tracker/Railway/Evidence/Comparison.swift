import Testing

/// How one score must stand against another in an evidence table.
enum Comparison: String, Sendable, CustomTestStringConvertible {
    case higher, lower, equal

    /// Whether `score` stands this way against `other` (equal within a nano-nat).
    func holds(_ score: Double, against other: Double) -> Bool {
        switch self {
        case .higher: score > other + 1e-9
        case .lower: score < other - 1e-9
        case .equal: abs(score - other) <= 1e-9
        }
    }

    var testDescription: String { rawValue }
}
