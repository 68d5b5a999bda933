import RealModule

/// Departure times: the time a train leaves a station, against the day's scheduled trains.
///
/// At the first departure every train of the day leaving there from 30 minutes ago to 2
/// minutes ahead is a candidate, weighted by how likely its delay is (on time most of the time,
/// sometimes late, rarely early); at each later departure a candidate is weighted by how much
/// its delay changed (trains keep their delay from station to station), and one that does not
/// leave from there fades. A pattern's likelihood is its candidates' (each of its trains equally
/// likely a priori, so a match with the one limited express of the hour says more than one with
/// a busy local line), mixed with a small chance that the train is off its timetable. The
/// hypothesis gains the patterns' mixture against a departure at a random time of the window,
/// capped.
public struct DepartureEvidence: Hashable, Sendable {
    /// A departure is on time this many seconds either side of its published time.
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    public var onTime: ClosedRange<Seconds> = -20...70
    /// The share of departures on time. Real trains are late more often than not: Caltrain's
    /// recorded trains (2024-11-29 to 12-02) were within the on-time window at 12–16 % of their
    /// positions (a third within a passage's wider one), late by a median 2.5 min. 0.5 was
    /// chosen between the recording and simulated sparse and background phones (seed 1409):
    /// 0.3 named the recorded train as often but lost Tokyo's on-time simulated rides, 0.8 lost
    /// a point on the recording.
    /// Tuned by hand with `evaluate --tune`; not fitted.
    public var onTimeShare = 0.5
    /// How late a late train is on average. The recording's exponential fit is 115 s, but its
    /// tail is long (99th percentile 26–29 min) and a late mean of 120 s lost 2 points of
    /// railway on simulated disrupted days (seed 1307); 240 s costs 0.3 points on the recording.
    /// Tuned by hand with `evaluate --tune`; not fitted.
    public var meanLateDelay: Seconds = 240
    /// How much a train's delay typically changes from one station to the next.
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    public var delayChangeScale: Seconds = 20
    /// How far a trip's delay may be from the delay a feed reports for it, typically: a feed's
    /// delay is measured at its last position or stop, and changes by the next.
    /// Set by hand on 2026-11-25 with the first GTFS-realtime rules; the reason for 60 s is not
    /// recorded.
    public var reportedDelayScale: Seconds = 60
    /// How likely a feed that reports a line's trains leaves out one that is running there,
    /// against reporting it: an unreported candidate of a reported line weighs this much
    /// (1: an omission says nothing; `PassageEvidence.unreportedShare` sets it for passages).
    /// (Set by hand on 2026-11-26 to 1, off for departures: the share tuned is
    /// `PassageEvidence.unreportedShare`.)
    public var unreportedShare = 1.0
    /// ... once the train, as late as it is seen, left its first station this long ago.
    /// Set by hand on 2026-11-26 as the passages' grace; not tuned for departures, where the rule
    /// is off.
    public var unreportedGrace: Seconds = 300
    /// The chance a train is off its timetable altogether (or runs a trip the file lacks).
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    public var offTimetableShare = 0.05
    /// How likely a followed train leaves a station it does not call at, against a random time.
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    public var missedCallDensity = 0.02
    /// The most one departure time can say, either way.
    /// Tuned by hand on 2026-11-22, on simulated seed 11 (railway 99.3 → 99.5 %, the other seeds
    /// unchanged).
    public var cap: Nats = 4.5
    /// Candidates for the first departure: trains due from 30 minutes ago ...
    /// (Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.)
    static let latestDelay: Seconds = 1_800
    /// ... to 2 minutes ahead.
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    static let earliestDelay: Seconds = -120
    /// The candidates' window.
    public static let window = latestDelay - earliestDelay
    /// A train off its timetable changes its delay by anything within this window.
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    static let offTimetableChangeWindow: Seconds = 1_200
    /// The most trains one hypothesis follows.
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    static let maximumTrips = 64
    /// A followed train this far below the best is forgotten.
    /// Set by hand on 2026-11-22 when the tracker began to follow scheduled trains; the reason is
    /// not recorded.
    static let forgetBelow: Nats = 12

    /// The defaults.
    public init() {}

    /// How likely (per second) a train leaves `delay` seconds after its published time.
    public func delayDensity(_ delay: Seconds) -> Double {
        var density = offTimetableShare / Self.window
        if onTime.contains(delay) {
            density += onTimeShare / (onTime.upperBound - onTime.lowerBound)
        }
        if delay > 0 {
            let late = 1 - onTimeShare - offTimetableShare
            density += late / meanLateDelay * Double.exp(-delay / meanLateDelay)
        }
        return density
    }

    /// How likely (per second) a train's delay changes by `change` seconds from one
    /// observation to the next, `scale` the typical change (`delayChangeScale` between
    /// departures).
    public func delayChangeDensity(_ change: Seconds, scale: Seconds? = nil) -> Double {
        // (At least a second: a scale of zero, from a tuning run, would make every density NaN.)
        let scale = max(scale ?? delayChangeScale, 1)
        let steady = 1 - offTimetableShare
        return steady / (2 * scale) * Double.exp(-abs(change) / scale) + offTimetableShare / Self.offTimetableChangeWindow
    }

    /// How likely (per second) a train a feed reports `difference` seconds less late than it
    /// is observed leaves or passes (`reportedDelayScale` the typical difference).
    public func reportedDelayDensity(_ difference: Seconds) -> Double {
        delayChangeDensity(difference, scale: reportedDelayScale)
    }

    /// How likely (per second) a followed train is observed `delay` seconds late when its last
    /// observation put it `previous` seconds late (`scale` the typical change since) and a feed
    /// reports it `reported` seconds late: the two say where it is together, more sharply than
    /// either alone (their precisions add, as two measurements' do), so a train whose report
    /// agrees with its own course is more likely than one no feed speaks of. (Its own course
    /// is the last look's however long ago that was: after a silence in which the train's
    /// delay changed as the report says, the train is judged as harshly as an unreported
    /// train whose delay changed that much.)
    public func reportedDelayDensity(
        _ delay: Seconds, following previous: Seconds, scale: Seconds, reported: Seconds
    ) -> Double {
        let own = 1 / (max(scale, 1) * max(scale, 1))
        let report = 1 / (max(reportedDelayScale, 1) * max(reportedDelayScale, 1))
        let centre = (previous * own + reported * report) / (own + report)
        return delayChangeDensity(delay - centre, scale: (1 / (own + report)).squareRoot())
    }

    /// A pattern's likelihood density of the observation, `likelihood` from its followed
    /// trains, mixed with the chance the train is off its timetable (any time of `window`).
    func mixed(_ likelihood: Double, window: Seconds = Self.window) -> Double {
        (1 - offTimetableShare) * likelihood + offTimetableShare / window
    }

    /// Nats for an observation whose patterns' mixture has log density `logDensity`, against
    /// one at a random time of `window` seconds (the candidates' window unless said).
    public func nats(logDensity: Double, window: Seconds = Self.window) -> Nats {
        min(cap, max(-cap, logDensity + Double.log(window)))
    }
}
