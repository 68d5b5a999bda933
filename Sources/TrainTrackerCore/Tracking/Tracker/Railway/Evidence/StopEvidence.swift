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
    /// The chance a train stands at a station its service pattern passes (for a signal, a
    /// crossing, a changed timetable): a stop there is evidence against the pattern in
    /// proportion to how often such stops happen, not a verdict. (Until 2026-12-07 it was
    /// `patternMismatch`, the chance of any event a pattern does not explain.)
    /// Set by hand on 2026-12-07 (issue 59) at the old `patternMismatch`, not fitted: no
    /// recording with known services shows enough such stops to fit it (Helsinki's phones: 2 of
    /// the 6 stations passed on the one leg that passes any; Caltrain's positions, a minute
    /// apart and republished stale, cannot tell a stand). On simulated seed 6363 without
    /// timetables, 0.1 named the railway 2.0–3.4 points better on rides with signal stops but
    /// up to 3.1 worse on the rest, and 0.3 worse on a hard condition
    /// (docs/experiments/2026-12-07-shared-track.md).
    public var unscheduledStopProbability = 0.03
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
    /// A stop also belongs to a station whose platform was learnt (`LearntPlatform`) within
    /// this distance of where trains stood there (a phone anywhere in a train, a train a car
    /// short of where others stood), as well as within `stationReach` of its point: a learnt
    /// platform widens a station's reach, never narrows it. (Tuned by hand with
    /// `evaluate --tune` on simulated seed 6464, platforms map of seed 4242: 50, 100 and 150 m
    /// score the same.)
    public var learntReach: Meters = 100
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
        if stopped { return stops ? 1 - patternMismatch : unscheduledStopProbability }
        return stops ? (hasTimetable ? patternMismatch : untimedPassProbability) : 1 - unscheduledStopProbability
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

    /// Whether a train can have stood `minimumStop` at a station `before` metres past a fix
    /// that measured `speedBefore` and `after` metres short of the next, `gap` seconds later,
    /// that measured `speedAfter`: nil unless both measured a moving train and both lie
    /// `placementMargin` or more from the station (then the other rules judge). The quickest such stop runs from the first fix at its speed up to a peak,
    /// brakes to the station at `RailwayTracker.hardestBraking`, stands, and reaches the next
    /// fix's speed by the next fix at `MotionState.hardestMovingOff`, no faster than `fastRun`;
    /// a train too fast to brake in the distance, or a gap too short for that run, ran through.
    public func couldHaveStopped(
        gap: Seconds, before: Meters, after: Meters, speedBefore: MetersPerSecond?, speedAfter: MetersPerSecond?
    ) -> Bool? {
        guard let speedBefore, let speedAfter, speedBefore >= Self.movingOffSpeed, speedAfter >= Self.movingOffSpeed,
            gap.isFinite, before >= Self.placementMargin, after >= Self.placementMargin, before.isFinite, after.isFinite
        else { return nil }
        guard
            let braking = Self.quickestRun(
                from: speedBefore, over: before, rising: Self.hardestMovingOff,
                falling: Self.hardestBraking, top: fastRun),
            let starting = Self.quickestRun(
                from: speedAfter, over: after, rising: Self.hardestBraking,
                falling: Self.hardestMovingOff, top: fastRun)
        else { return false }
        return gap >= braking + minimumStop + starting
    }

    /// Fixes nearer the station than this may be placed on the wrong side of it (a map drawn
    /// off the track, a fix's error): the speeds do not judge the station then. (Set by hand on
    /// seed 7373's sparse phones on a shifted map, where a fix placed 30 m short of Kanda just
    /// after the train left it read as a pass of its stop.)
    static let placementMargin: Meters = 100
    /// The hardest a train brakes into a stop, m/s² (service braking is 0.7–1.2 m/s²; set by
    /// hand above it, so that only a train that surely could not stop is read as running through).
    static let hardestBraking = 1.5
    /// The hardest a train accelerates from a stand, m/s² (`MotionState.hardestMovingOff`).
    static let hardestMovingOff = MotionState.hardestMovingOff

    /// The least time a train at `speed` takes to come to a stand `distance` metres on,
    /// speeding up at `rising` to a peak no faster than `top`, then braking at `falling`; nil
    /// when it cannot stop in the distance. (Run backwards, a start from a stand that reaches
    /// `speed` in the distance.)
    static func quickestRun(
        from speed: MetersPerSecond, over distance: Meters, rising: Double, falling: Double, top: MetersPerSecond
    ) -> Seconds? {
        guard distance >= speed * speed / (2 * falling) else { return nil }
        // The peak u: (u² − v²) / 2r + u² / 2f = d.
        var peak = ((distance + speed * speed / (2 * rising)) / (1 / (2 * rising) + 1 / (2 * falling))).squareRoot()
        var cruise: Seconds = 0
        if peak > top {
            peak = max(top, speed)
            let covered = (peak * peak - speed * speed) / (2 * rising) + peak * peak / (2 * falling)
            cruise = max(0, distance - covered) / peak
        }
        return (peak - speed) / rising + cruise + peak / falling
    }
}
