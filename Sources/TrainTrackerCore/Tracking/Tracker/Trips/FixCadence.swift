/// How far apart a ride's fixes come: each gap between successive fixes, smoothed
/// exponentially, so that one gap (a tunnel, a phone's silence) moves it for ten or so fixes
/// and a phone that turns to saving its battery is seen within a few of its sparser fixes.
///
///     var cadence = FixCadence()
///     cadence.take(fix.timestamp)
///     cadence.interval          // 1.0 for a phone at 1 Hz, 60 for positions a minute apart
struct FixCadence: Sendable, Hashable {
    /// The smoothed gap between fixes (seconds); 0 before the second fix.
    private(set) var interval: Seconds = 0
    private var last: Timestamp?
    private var gaps = 0

    /// Each new gap moves `interval` this share of the way to it.
    /// Set by hand: about the last five gaps tell the cadence.
    static let smoothing = 0.2
    /// A gap counts at most this long (seconds): a phone silent for an hour says nothing of how
    /// often it reports once it is back.
    /// Set by hand: ten minutes.
    static let longestGap: Seconds = 600

    /// Takes the fix at `time`. A fix dated before the last, or a gap that is not a number,
    /// counts as no gap; the next gap is measured from this fix (one fix dated far ahead moves
    /// the cadence once, by at most `longestGap`, not for the rest of the ride).
    mutating func take(_ time: Timestamp) {
        defer { last = time }
        guard let last else { return }
        let measured = time.seconds(since: last)
        guard measured.isFinite, measured >= 0 else { return }
        let gap = min(measured, Self.longestGap)
        gaps += 1
        interval = gaps == 1 ? gap : interval + Self.smoothing * (gap - interval)
    }
}
