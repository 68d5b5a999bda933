/// How a followed train's delay evolves from where it is now to each stop ahead, fitted from
/// recorded rides (`traintracker fit`; `ArrivalModelFit` in the lab): the arrival the rider is
/// told at a stop is the stop's published time plus the delay the train will have there.
///
/// Three things move a delay between now and a stop, each with a constant:
/// - **where the delay is measured**: the trip model reads a delay off where the train is,
///   the arrival is when it comes within a platform's reach of the stop (`offset`);
/// - **early trains wait**: a train ahead of its timetable stands at its next stop until its
///   time (`departureFloor`: a delay below it is raised to it at each departure on the way);
/// - **time lost on the way**: dwells longer than the timetable's (`lossPerStop`, at each
///   call on the way) and runs slower than it (`lossPerMinute`, per minute ahead).
///
/// The spread of the true arrival about the prediction grows with the time ahead: the belief's
/// own 10th–90th percentiles, widened in quadrature by `earlySpread` (below) and `lateSpread`
/// (above) × (minutes ahead + 1)^`spreadExponent`, each fitted so that a tenth of the fitted
/// arrivals fall beyond it, the exponent so that the interval holds as often near as far.
///
///     let model = ArrivalModel(offset: 20, departureFloor: 110, lossPerStop: 12, lossPerMinute: -2,
///                              earlySpread: 25, lateSpread: 35)
///     model.delay(at: 2, from: 60, minutesAhead: 6)    // 20 + max(60, 110) + 2 × 12 − 2 × 6 = 142
///
/// On Caltrain's six shared days, held out (docs/accuracy.md, "Arrival times"), the fit
/// takes the median error at every minute ahead from +20 … +53 s to within a few seconds.
public struct ArrivalModel: Hashable, Sendable, Codable {
    /// How much later than its delay now says a train comes within reach of a stop (seconds).
    public var offset: Seconds
    /// The delay an early train waits for at each stop it leaves on the way (seconds; nil: none).
    public var departureFloor: Seconds?
    /// The delay gained at each call on the way to a stop (seconds; negative: recovered).
    public var lossPerStop: Seconds
    /// The delay gained per minute ahead (seconds a minute; negative: recovered).
    public var lossPerMinute: Seconds
    /// How far below the prediction the interval reaches, per (minutes ahead + 1)^`spreadExponent`,
    /// beyond the belief's own spread (seconds).
    public var earlySpread: Seconds
    /// ... and above it.
    public var lateSpread: Seconds
    /// How fast the spread grows with the time ahead: × (minutes ahead + 1) to this power
    /// (nil: ½, a random walk's).
    public var spreadExponent: Double?

    /// A model with these constants.
    public init(
        offset: Seconds, departureFloor: Seconds?, lossPerStop: Seconds, lossPerMinute: Seconds, earlySpread: Seconds,
        lateSpread: Seconds, spreadExponent: Double? = nil
    ) {
        self.offset = offset
        self.departureFloor = departureFloor
        self.lossPerStop = lossPerStop
        self.lossPerMinute = lossPerMinute
        self.earlySpread = earlySpread
        self.lateSpread = lateSpread
        self.spreadExponent = spreadExponent
    }

    /// How many minutes ahead a stop published at `published` is for a train `delay` late at
    /// `now` (all in seconds): the time ahead the model's losses and spreads grow with, the same
    /// where it is fitted and where it predicts.
    public static func minutesAhead(published: Seconds, delay: Seconds, now: Seconds) -> Double {
        (published + delay - now) / 60
    }

    /// The delay at the stop `stopsBefore` calls on (0: the next), `minutesAhead` minutes
    /// away, of a train `delay` late now.
    ///
    /// - Complexity: O(1).
    public func delay(at stopsBefore: Int, from delay: Seconds, minutesAhead: Double) -> Seconds {
        let waited = stopsBefore > 0 ? max(delay, departureFloor ?? -.infinity) : delay
        return offset + waited + lossPerStop * Double(stopsBefore) + lossPerMinute * max(minutesAhead, 0)
    }

    /// The prediction at a stop `stopsBefore` calls on and `minutesAhead` minutes away, as
    /// delays there: the median's, and the interval about it for a belief whose delay lies
    /// between `low` and `high` (its 10th and 90th percentiles) about `median` now.
    ///
    /// - Complexity: O(1).
    public func predict(
        at stopsBefore: Int, minutesAhead: Double, low: Seconds, median: Seconds, high: Seconds
    ) -> (low: Seconds, centre: Seconds, high: Seconds) {
        let centre = delay(at: stopsBefore, from: median, minutesAhead: minutesAhead)
        let ahead = max(minutesAhead, 0) + 1
        let growth = spreadExponent.map { Double.pow(ahead, $0) } ?? ahead.squareRoot()
        let below = Double.hypot(centre - delay(at: stopsBefore, from: low, minutesAhead: minutesAhead), earlySpread * growth)
        let above = Double.hypot(delay(at: stopsBefore, from: high, minutesAhead: minutesAhead) - centre, lateSpread * growth)
        return (centre - below, centre, centre + above)
    }

    /// The model kept within the range where it makes sense, or nil when a constant is not a
    /// number: a file's or a fit's value out of range would put arrivals days away.
    public var sanitised: Self? {
        let values =
            [offset, lossPerStop, lossPerMinute, earlySpread, lateSpread] + (departureFloor.map { [$0] } ?? [])
            + (spreadExponent.map { [$0] } ?? [])
        guard values.allSatisfy(\.isFinite) else { return nil }
        return Self(
            offset: min(max(offset, -Self.widest), Self.widest),
            departureFloor: departureFloor.map { min(max($0, -Self.widest), Self.widest) },
            lossPerStop: min(max(lossPerStop, -Self.steepest), Self.steepest),
            lossPerMinute: min(max(lossPerMinute, -Self.steepest), Self.steepest),
            earlySpread: min(max(earlySpread, 0), Self.widest), lateSpread: min(max(lateSpread, 0), Self.widest),
            spreadExponent: spreadExponent.map { min(max($0, 0), Self.steepestGrowth) })
    }

    /// The largest offset, floor or spread a model may hold (seconds): an hour.
    public static let widest: Seconds = 3_600
    /// The largest delay a model may add a stop or a minute (seconds).
    public static let steepest: Seconds = 120
    /// The largest `spreadExponent`: a spread in proportion to the square of the time ahead.
    public static let steepestGrowth = 2.0
}
