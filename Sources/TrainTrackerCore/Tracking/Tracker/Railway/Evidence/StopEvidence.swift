/// Stops and passes: each station the train stops at or runs through is an event its line's
/// service patterns explain well or badly, and a stop away from any station of the line costs.
///
/// A hypothesis gains the mixture of its patterns' likelihoods of the event (each pattern
/// re-weighted by it), so stopping where only the local stops, or running through where only
/// the express does, tells express from local on shared track. Between sparse fixes a station
/// crossed unseen is judged only when the train ran too fast to have stopped, and both fixes
/// are clear of it.
public struct StopEvidence: Hashable, Sendable {
    /// What a stop costs where the line has no station.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var strayStopCost: Nats = 4
    /// A pattern's probability of an event it does not explain.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var patternMismatch = 0.03
    /// Without a timetable, the chance a train passes a station of its line.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var untimedPassProbability = 0.25
    /// A stop counts when it lasts this long.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var minimumStop: Seconds = 8
    /// A stop belongs to a station within this distance.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    public var stationReach: Meters = 250
    /// Fixes farther apart than this leave a gap: a stop ending after it left at an unknown
    /// time, and stations crossed in it were seen only as the fixes either side show.
    /// Set by hand on 2026-11-22 when a stop ended by a gap was first judged apart; the reason for
    /// 10 s is not recorded.
    public var gap: Seconds = 10
    /// A station crossed in a gap may have been stopped at unseen, unless the train covered
    /// the distance too fast for a stop: a stop costs at least this long over running through
    /// at `fastRun`. (40 m/s was chosen on Caltrain's recorded trains, a position a minute:
    /// at 30 m/s a local running 1.5 km between fixes a minute apart was judged to have run
    /// through its stop. 25 s, on simulated battery-saving phones of seed 1409 with trains as
    /// late as the recording's, scoring the recording as well as 10 s did.)
    /// (Tuned by hand with `evaluate --tune`; not fitted.)
    public var unseenStopTime: Seconds = 25
    /// ... the fastest a train runs between stations.
    /// (Tuned by hand with `unseenStopTime` on Caltrain's recorded days of 29 November – 2 December
    /// 2024; not fitted.)
    public var fastRun: MetersPerSecond = 40
    /// ... and a pass shows only with the fixes either side this far from the station: a fix
    /// at the platform may be in the middle of a stop the next fix does not show.
    /// Set by hand on 2026-11-23, on simulated seed 307's sparse and background phones; the reason
    /// for 200 m is not recorded.
    public var passClearance: Meters = 200
    /// A silence the train crossed slower than this on average was a stop, judged as a stop
    /// seen to its end is (at a station of the line within `stationReach` of where the train
    /// is after it, else a stray stop): a phone that logs only on movement (a distance filter)
    /// says nothing while the train stands, and its fixes either side lie short of and past
    /// the platform. A train running through covers a 30 s gap at 10 m/s and more; one that
    /// stood half of it, at 3 m/s and less (the speed below which `PassageEvidence` takes a
    /// train as not between stations). Set by hand and checked on simulated movement loggers
    /// of seeds 4242 and 6007: 1.5 m/s lost up to 1.2 points of railway, 5 m/s scored as 3.
    /// 0 turns it off.
    public var silentStopSpeed: MetersPerSecond = 3
    /// The least measured speed that dates a departure (`timeSinceMovingOff`): below it the
    /// train may still be creeping off. (The tracker's own moving speed, `RailwayTracker.movingSpeed`.)
    static let movingOffSpeed = RailwayTracker.movingSpeed
    /// The least acceleration, in m/s², a departure dated by its speed implies: a train moves
    /// off at 0.5–1 m/s², and one that seems slower has run at speed since (2 km on at
    /// 25 m/s after a four-minute tunnel would date it 160 s back, 50 s before it left at
    /// 0.5 m/s²). Set by hand.
    static let slowestMovingOff = 0.3
    /// The stops a hypothesis remembers.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let rememberedStops = 6
    /// The most a train can have travelled since the last fix, as a share of its speed times
    /// the time since ...
    /// (Set by hand on 2026-11-22, when stations were crossed only by the train's own progress; the
    /// reason is not recorded.)
    static let travelShare = 1.5
    /// ... plus this: a longer step is a correction of its position, which crosses nothing.
    /// Set by hand on 2026-11-22 with `travelShare`; the reason for 40 m is not recorded.
    static let travelMargin: Meters = 40

    /// The defaults.
    public init() {}

    /// A pattern's probability of the event: its trains `stops` at the station or not, `runs`
    /// there at all or not; the train `stopped` or passed.
    public func probability(stopped: Bool, patternStops stops: Bool, patternRuns runs: Bool, hasTimetable: Bool) -> Double {
        // Its trains do not run here at all.
        guard runs else { return patternMismatch }
        if stopped { return stops ? 1 - patternMismatch : patternMismatch }
        return stops ? (hasTimetable ? patternMismatch : untimedPassProbability) : 1 - patternMismatch
    }

    /// Whether the train may have stopped unseen at a station it crossed in a gap of `gap`
    /// seconds over `distance` metres (never outside a gap).
    public func mayHaveStoppedUnseen(gap: Seconds, distance: Meters) -> Bool {
        gap > self.gap && gap - distance / fastRun >= unseenStopTime
    }

    /// Whether a gap of `gap` seconds in which the train moved `distance` metres was a stop
    /// unseen.
    public func isSilentStop(gap: Seconds, distance: Meters) -> Bool {
        gap > self.gap && gap >= minimumStop && distance < silentStopSpeed * gap
    }

    /// How long before a fix that finds the train `distance` metres on from where it stood,
    /// running at `speed` (measured), it moved off: 2 · distance / speed, as for an even
    /// acceleration from rest. Nil without a measured speed of at least `movingOffSpeed`, when
    /// that acceleration (speed² / 2 · distance) is below `slowestMovingOff` (the train has run
    /// at speed since: when it left is unknown), or when it is longer than `gap` (the seconds
    /// since a fix saw the train stand or creep).
    public func timeSinceMovingOff(distance: Meters, speed: MetersPerSecond?, gap: Seconds) -> Seconds? {
        guard let speed, speed.isFinite, speed >= Self.movingOffSpeed, distance.isFinite, distance >= 0,
            speed * speed >= 2 * distance * Self.slowestMovingOff
        else { return nil }
        let ago = 2 * distance / speed
        return ago <= gap ? ago : nil
    }

    /// Whether a station crossed between two fixes `before` and `after` metres from it counts
    /// as passed: always between close fixes, between fixes `gap` seconds apart only when both
    /// are clear of it.
    public func showsCrossing(gap: Seconds, before: Meters, after: Meters) -> Bool {
        gap <= self.gap || (before >= passClearance && after >= passClearance)
    }
}
