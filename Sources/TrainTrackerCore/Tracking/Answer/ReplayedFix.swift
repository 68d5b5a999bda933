/// A replayed fix: the fix and the tracker's answer after it.
public struct ReplayedFix: Sendable {
    /// The fix as recorded.
    public var fix: RecordedFix
    /// The tracker's answer.
    public var result: TrackingResult

    /// Creates a replayed fix.
    public init(fix: RecordedFix, result: TrackingResult) {
        self.fix = fix
        self.result = result
    }
}
