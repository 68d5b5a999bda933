/// The constants of the trip model (`TripFollower`): how trains keep to their timetable, how
/// far positions lie from where a train is, how riders board. Every one is a number with a
/// unit and a tuning name (`tunables`), so `traintracker fit` can estimate them from recorded
/// rides (maximum likelihood of each ride under its true trip) and write them to a parameter
/// file that `evaluate` reads back (`--parameters FILE`).
///
/// The defaults (`init()`) are the fit on Caltrain's six shared recorded days
/// (`fittedOnSharedDays`); `handSet` is the hand-set point every fit starts from, so a fit that
/// holds a day out never starts from that day's own data.
public struct TripModelParameters: Hashable, Sendable, Codable {
    /// The delay grid's step: a trip's delay is one of these steps (seconds).
    /// Set by hand, not fitted: finer costs time per fix, coarser blurs a minute's timing.
    public var gridStep: Seconds = 15
    /// The earliest a train is believed to run (a negative delay: early).
    /// Set by hand, not fitted: the delays believed at all. Trains may not leave a station
    /// early; three minutes allow for a clock's error and a train early into its terminal. (At
    /// −600 s, a wrong train running 4-6 minutes early explained a ride's fixes and took it.)
    public var earliest: Seconds = -180
    /// The latest a train is believed to run.
    /// Set by hand, not fitted: the delays believed at all.
    public var latest: Seconds = 5_400

    /// How far positions lie along the track from where the train is, on a standing train
    /// (a Laplace scale: GPS error and the map's error along the track).
    /// Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 93.09 m; 25 m is the hand-set
    /// start of every fit, whose reason is not recorded.
    public var positionScale: Meters = 25
    /// How far a moving train's timing lies from the timetable's even run at its delay (a
    /// Laplace scale in seconds, turned into metres at the run's mean speed).
    /// Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 25.83 s; 20 s is the hand-set
    /// start of every fit, whose reason is not recorded.
    public var timingScale: Seconds = 20
    /// The share of positions that lie loosely about the train's place (a train off its
    /// timetable's even run, a map's error), by a Laplace ...
    /// (Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 0.1058; 0.05 is the hand-set start of every fit.)
    public var outlierShare = 0.05
    /// ... of this scale along the track. (Before, such positions lay anywhere within
    /// `outlierSpan`: one fix could then say at most about 4 nats for a trip at the right place
    /// against one a kilometre off.)
    /// Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 500 m; 400 m, about a minute's run, is the hand-set start.
    public var outlierScale: Meters = 400
    /// The share of positions that lie anywhere (a reflection, a phone's cell position, a
    /// feed's stale position) ...
    /// Set by hand, not fitted: Caltrain's recorded positions lie a few kilometres off about
    /// once in a few hundred (docs/data.md); the loose Laplace takes the rest.
    public var strayShare = 0.005
    /// ... within this stretch of the line.
    /// Set by hand, not fitted: where a stray position may lie.
    public var outlierSpan: Meters = 4_000
    /// How far positions lie across the track from the drawn line (a Gaussian, added to the
    /// fix's reported accuracy).
    /// Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 6.25 m; 20 m is the hand-set start of every fit, whose reason is
    /// not recorded.
    public var lateralScale: Meters = 20

    /// A train arrives at a call this long before its published time ...
    /// (Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days, which kept
    /// this hand-set 30 s (whose reason is not recorded) as the default; `--parameters` overrides
    /// it.)
    public var dwellBefore: Seconds = 30
    /// ... and leaves this long after it.
    /// Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days, which kept
    /// this hand-set 20 s (whose reason is not recorded) as the default; `--parameters` overrides
    /// it.
    public var dwellAfter: Seconds = 20
    /// A train waits at its first station at most this long before it leaves.
    /// Set by hand, not fitted: how long trains stand at their ends.
    public var originWait: Seconds = 3_600
    /// A train standing at its first or last station may stand this far short of its mark or
    /// beyond it (sidings, long platforms, a terminal's tail tracks).
    /// Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days, which kept
    /// this hand-set 400 m (whose reason is not recorded) as the default; `--parameters` overrides
    /// it.
    public var endReach: Meters = 400
    /// A train stands at its last station at most this long after it arrives.
    /// Set by hand, not fitted: how long trains stand at their ends.
    public var terminalStay: Seconds = 900
    /// How fast a train gathers speed leaving a stop and brakes into the next (m/s²; 0: an
    /// even pace between calls).
    /// Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days, which kept
    /// this hand-set 0.4 m/s² (whose reason is not recorded) as the default; `--parameters`
    /// overrides it.
    public var acceleration = 0.4

    /// How much a train's delay wanders per minute (a Laplace scale, growing with the square
    /// root of the time between fixes).
    /// Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 18.31 s; 15 s is the hand-set
    /// start of every fit, whose reason is not recorded.
    public var delayWalkScale: Seconds = 15
    /// How much a train's delay grows per minute on average.
    /// Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 0 s a minute; 0 is the hand-set
    /// start of every fit, whose reason is not recorded.
    public var delayDrift: Seconds = 0
    /// How often a train is held (a signal, a crowded platform), per hour of running: its
    /// delay then jumps ...
    /// (Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 6.2 × 10⁻⁹ an hour: no holds; 2 is the hand-set start of every fit,
    /// whose reason is not recorded.)
    public var holdRate = 2.0
    /// ... by an exponential amount of this mean.
    /// Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 1,570 s; 120 s is the hand-set start of every fit, whose reason is
    /// not recorded.
    public var holdMean: Seconds = 120
    /// How often a train comes to stand on its way (signals, a train ahead, an incident), per
    /// hour of running: it then stands where it is, its delay growing a second a second ...
    /// (Fitted by `fit` by maximum likelihood from a hand-set start of 0.05 an hour. Set by hand
    /// as the default, not fitted: on Caltrain's recordings a standing train's repeated
    /// positions are dropped, so the likelihood hardly sees a stand (a fit on the six shared
    /// days gave 0.25 an hour of 61 s), and at that rate other trips standing where the ride's
    /// train passed explained its fixes: the six days held out named the train on 97.0 % of
    /// fixes. At 0.05 an hour of 20 minutes, with the six days' fitted constants, 98.2 % on late
    /// November's days and 97.9 % on October's, against 98.6 and 98.1 % with no stands; with no
    /// stands a train held 9 minutes loses its trip (`TripModelRealRideTests`).)
    public var standRate = 0.05
    /// ... for an exponential time of this mean.
    /// Fitted by `fit` by maximum likelihood from a hand-set start of 20 minutes; set by hand as
    /// the default, as `standRate`: a hold of 5 to 50 minutes is what the rate must carry.
    public var standMean: Seconds = 1_200
    /// How often a train is stopped for long (a fault, a trespasser, a train ahead stopped),
    /// per hour of running: its delay then jumps ...
    /// (Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 0.0048 an hour; 0.05 is the hand-set start of every fit, whose
    /// reason is not recorded.)
    public var disruptionRate = 0.05
    /// ... by an exponential amount of this mean (a second, longer tail beside the holds: a
    /// train that stood 40 minutes is still the train it was, not the next one on time).
    /// Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 1,920 s; 1,200 s is the hand-set start of every fit, whose reason is
    /// not recorded.
    public var disruptionMean: Seconds = 1_200

    /// A train on time runs this late on average ...
    /// (Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 164 s; 30 s is the hand-set
    /// start of every fit, whose reason is not recorded.)
    public var onTimeCentre: Seconds = 30
    /// ... within this Laplace scale on the late side ...
    /// (Fitted by `fit` by maximum likelihood on Caltrain's six shared recorded days: the default,
    /// `fittedOnSharedDays`, is 28.85 s; 60 s is the hand-set start of every fit, whose reason is not
    /// recorded.)
    public var onTimeScale: Seconds = 60
    /// ... and this one on the early side (fitted apart: how early a train may seem is not
    /// how late it may be).
    /// Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 1 s; 60 s is the hand-set
    /// start of every fit, whose reason is not recorded.
    public var earlyScale: Seconds = 60
    /// The share of trains whose delay none of the prior's fitted parts describes ...
    /// Set by hand, not fitted: it stands for the networks and days the fit never saw, and is
    /// off (0) by default. Fitted on Caltrain's recorded positions, the prior puts the on-time
    /// train 164 s late with no early side; on Tokyo's simulated trains that made a train a
    /// minute late a billion times unlikelier than one eight minutes late, and the train
    /// before the rider's was followed. At 0.05, Tokyo's fresh seed 9494 rose from 94.0 to
    /// 96.5 % railway, but Caltrain's six days held out lost 1.5 points of train (97.7 →
    /// 96.2 %); docs/experiments/2026-12-02-one-belief.md. The fitted prior now holds only on
    /// the lines it was fitted on (`delayPriorLines`), which serves Tokyo better.
    public var vagueShare = 0.0
    /// ... by a Laplace of this scale about the timetable.
    /// Set by hand, not fitted, as `vagueShare`: five minutes either way.
    public var vagueScale: Seconds = 300
    /// The share of trains that run late beyond that ...
    /// (Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 0.059; 0.3 is the hand-set
    /// start of every fit, whose reason is not recorded.)
    public var lateShare = 0.3
    /// ... by an exponential of this mean.
    /// Fitted by `fit` by maximum likelihood, then to tell the trips apart, on Caltrain's six
    /// shared recorded days: the default, `fittedOnSharedDays`, is 150 s; 400 s is the hand-set
    /// start of every fit, whose reason is not recorded.
    public var lateMean: Seconds = 400

    /// The share of a phone's readings that say its train stands while it runs (a slow crawl
    /// into a station, a phone's stop detector) ...
    /// Set by hand, not fitted yet: Caltrain's recorded positions (a minute apart, no speed)
    /// seldom show a stand; 0.1 lets one reading say at most 2.2 nats.
    public var stillWhileRunning = 0.1
    /// ... and that say it runs while it stands.
    /// Set by hand, not fitted yet, as `stillWhileRunning`.
    public var runningWhileStill = 0.1

    /// How often a rider boards or changes to another trip, per hour of riding (the chance at
    /// a fix grows with the time since the last).
    /// Set by hand, not fitted: the likelihood of a ride under its true trip cannot tell how often
    /// riders board or change.
    public var boardingRate = 0.5
    /// How much likelier boarding is at a trip's origin before it leaves than elsewhere.
    /// Set by hand, not fitted: as `boardingRate`, the true trip's likelihood cannot tell it.
    public var originBoarding = 20.0
    /// The share of trains not in the timetable (or whose riders the timetable cannot tell).
    /// Set by hand, not fitted: the true trip's likelihood cannot tell it.
    public var offTimetableShare = 1e-6
    /// How much of what the railway tracker's evidence of stops and passes against each line's
    /// service patterns says (`LineEvidence.stops`) each trip's belief takes, by its line: 1
    /// takes it whole, 0 ignores it; read off sparse fixes, less (`lineStopsHalfInterval`). A
    /// stop where a line's pattern passes tells its trips from a parallel line's without a
    /// timetable's timing.
    /// Set by hand, not fitted (`fit` follows each ride's true trip alone, which no line's
    /// evidence tells apart), on Caltrain's 15-16 October and Tokyo's simulated seed 7171: at 1
    /// counted whatever the fixes' cadence, Caltrain's railway fell from 98.6 to 96.4 % (stops
    /// read off positions a minute apart mislead); counted by cadence, Caltrain the same and
    /// Tokyo's all-scenario set 96.4 → 97.6 %, its parallel corridors 97.6 → 98.4 % (with the
    /// other changes of that day, 97.6 → 98.4 % against stops at 0; on the fresh seed 9494,
    /// 97.8 → 97.6 %); docs/experiments/2026-12-02-cadence-and-priors.md.
    public var lineStopsWeight = 1.0
    /// Stops read off fixes this far apart count half (`lineStopsWeight` times
    /// `stopsTrust(interval:)`); denser fixes count more, sparser less. A stop is read where
    /// the fixes stand still near a station: with fixes a second or a few apart the phone is
    /// seen to stand and move off; with fixes a minute apart a train passing slowly, or
    /// standing at a signal short of the platform, reads as a stop where its pattern passes.
    /// Set by hand, not fitted, on the same sets: 10 s, where Caltrain's positions (45 to 60 s
    /// apart) count a twentieth to a fortieth and their figures stay the same; at 15 s Caltrain
    /// lost 0.1 point, at 1,000 s (every stop whole) 2.2; Tokyo's 1 Hz sets the same from 5 s
    /// to 1,000 s.
    public var lineStopsHalfInterval: Seconds = 10
    /// ... of what its course evidence says (`LineEvidence.course`). Set by hand, not fitted,
    /// as `lineStopsWeight`: at 1, Caltrain the same, Tokyo's parallel corridors 98.0 → 98.4 %.
    public var lineCourseWeight = 1.0
    /// ... of what its evidence of place says (`LineEvidence.place`: the fix's distance from
    /// where the line's trains run, its map offset learnt; tunnels; silences). Set by hand, not
    /// fitted, as `lineStopsWeight`: at 1, Caltrain the same, Tokyo's parallel corridors 98.0 →
    /// 98.5 %.
    public var linePlaceWeight = 1.0
    /// The lines whose trains the delay prior (`onTimeCentre` ... `lateMean`) describes; on
    /// others the hand-set prior holds (`delayPrior(on:)`). Nil: every line, as in a fit a user
    /// made for their own network: set it to nil for prior constants you set to hold
    /// everywhere. `fittedOnSharedDays` holds on Caltrain's lines: with its prior on every
    /// line, Tokyo's simulated fresh seed 9494 had the railway named on 92.2 % of fixes; with
    /// the hand-set one on Tokyo's lines, 97.6 %, and Caltrain's figures are its fit's.
    public var delayPriorLines: FittedLines?
    /// How a followed train's delay evolves to each stop ahead, for its predicted arrivals
    /// (`ArrivalModel`), on the lines the delay prior describes (`arrivalModel(on:)`). Nil: the
    /// arrivals are the timeline's, at the delay's median now, widened by the delay's walk.
    /// Fitted by `fit` (`ArrivalModelFit`) after the other constants; none in `handSet`.
    public var arrivalModel: ArrivalModel?

    /// The defaults: the fit on Caltrain's six shared recorded days (`fittedOnSharedDays`).
    public init() { self = Self.fittedOnSharedDays }

    /// The hand-set values written beside each constant above.
    private init(handSet: Void) {}
}

extension TripModelParameters {
    /// The hand-set starting point of every fit (the values written beside each constant).
    public static let handSet = Self(handSet: ())

    /// The constants `traintracker fit` found on Caltrain's six shared recorded days (15–16
    /// October and 29 November – 2 December 2024, 469 rides, 3 rounds from `handSet` by the
    /// likelihood, then 2 rounds telling the trips apart, `TripModelFit.run`); the
    /// constants it does not fit (the delay grid and its bounds, where outliers lie, how riders
    /// board, the off-timetable share, the origin's wait and the terminal's stay) are
    /// `handSet`'s. They are the defaults; a figure for one of those days with them is not held
    /// out (`evaluate --hold-out day` fits again without the day, from `handSet`).
    public static let fittedOnSharedDays: Self = {
        var fitted = handSet
        fitted.positionScale = 93.09
        fitted.timingScale = 25.83
        fitted.outlierShare = 0.1058
        fitted.outlierScale = 500
        fitted.lateralScale = 6.25
        fitted.dwellBefore = 30
        fitted.dwellAfter = 20
        fitted.acceleration = 0.4
        fitted.endReach = 400
        fitted.delayWalkScale = 18.31
        fitted.delayDrift = 0
        fitted.holdRate = 6.19e-9
        fitted.holdMean = 1_570
        fitted.disruptionRate = 0.004_77
        fitted.disruptionMean = 1_920
        fitted.onTimeCentre = 164
        fitted.onTimeScale = 28.85
        fitted.earlyScale = 1
        fitted.lateShare = 0.0590
        fitted.lateMean = 150.26
        fitted.delayPriorLines = .caltrain
        // (`fit --arrivals-only` with these constants on the same six days, 2026-12-07.)
        fitted.arrivalModel = ArrivalModel(
            offset: -11.10, departureFloor: 120, lossPerStop: 10.08, lossPerMinute: -1.679, earlySpread: 19.47,
            lateSpread: 26.88, spreadExponent: 0.6)
        // (Stands are the hand-set ones: see `standRate`.)
        return fitted
    }()
}

extension TripModelParameters {
    /// Each constant by its tuning name (`fit` and `--tune` take these).
    public static var tunables: [String: WritableKeyPath<Self, Double>] {
        [
            "tripGridStep": \.gridStep, "tripEarliest": \.earliest, "tripLatest": \.latest,
            "tripPositionScale": \.positionScale, "tripTimingScale": \.timingScale, "tripOutlierShare": \.outlierShare,
            "tripOutlierSpan": \.outlierSpan, "tripOutlierScale": \.outlierScale, "tripStrayShare": \.strayShare,
            "tripStandRate": \.standRate, "tripStandMean": \.standMean,
            "tripStillWhileRunning": \.stillWhileRunning, "tripRunningWhileStill": \.runningWhileStill,
            "tripLateralScale": \.lateralScale, "tripDwellBefore": \.dwellBefore,
            "tripDwellAfter": \.dwellAfter, "tripOriginWait": \.originWait, "tripEndReach": \.endReach,
            "tripTerminalStay": \.terminalStay,
            "tripAcceleration": \.acceleration, "tripDelayWalkScale": \.delayWalkScale,
            "tripDelayDrift": \.delayDrift, "tripHoldRate": \.holdRate, "tripHoldMean": \.holdMean,
            "tripDisruptionRate": \.disruptionRate, "tripDisruptionMean": \.disruptionMean,
            "tripOnTimeCentre": \.onTimeCentre, "tripOnTimeScale": \.onTimeScale, "tripEarlyScale": \.earlyScale,
            "tripLateShare": \.lateShare, "tripLateMean": \.lateMean, "tripBoardingRate": \.boardingRate,
            "tripOriginBoarding": \.originBoarding, "tripOffTimetableShare": \.offTimetableShare,
            "tripLineStopsWeight": \.lineStopsWeight, "tripLineCourseWeight": \.lineCourseWeight,
            "tripLinePlaceWeight": \.linePlaceWeight,
            "tripLineStopsHalfInterval": \.lineStopsHalfInterval, "tripVagueShare": \.vagueShare, "tripVagueScale": \.vagueScale,
        ]
    }

    /// The constants kept within the ranges where the model makes sense: a fitted or tuned
    /// value out of range (a step of 0, a negative scale) would divide by zero or never end.
    public var sanitised: Self {
        var copy = self
        copy.gridStep = Self.clamp(gridStep, 1...120, fallback: 15)
        copy.earliest = Self.clamp(earliest, -7_200...0, fallback: -180)
        copy.latest = Self.clamp(latest, 0...21_600, fallback: 5_400)
        copy.positionScale = Self.clamp(positionScale, 1...2_000, fallback: 25)
        copy.timingScale = Self.clamp(timingScale, 0...600, fallback: 20)
        copy.outlierShare = Self.clamp(outlierShare, 1e-6...0.5, fallback: 0.05)
        copy.outlierScale = Self.clamp(outlierScale, 1...20_000, fallback: 400)
        copy.strayShare = Self.clamp(strayShare, 1e-6...0.4, fallback: 0.005)
        copy.standRate = Self.clamp(standRate, 0...600, fallback: 0.05)
        copy.standMean = Self.clamp(standMean, 1...7_200, fallback: 1_200)
        copy.stillWhileRunning = Self.clamp(stillWhileRunning, 1e-4...0.5, fallback: 0.1)
        copy.runningWhileStill = Self.clamp(runningWhileStill, 1e-4...0.5, fallback: 0.1)
        copy.outlierSpan = Self.clamp(outlierSpan, 100...100_000, fallback: 4_000)
        copy.lateralScale = Self.clamp(lateralScale, 1...2_000, fallback: 20)
        copy.dwellBefore = Self.clamp(dwellBefore, 0...600, fallback: 30)
        copy.dwellAfter = Self.clamp(dwellAfter, 0...600, fallback: 20)
        copy.originWait = Self.clamp(originWait, 0...14_400, fallback: 3_600)
        copy.endReach = Self.clamp(endReach, 0...5_000, fallback: 400)
        copy.terminalStay = Self.clamp(terminalStay, 0...14_400, fallback: 900)
        copy.acceleration = Self.clamp(acceleration, 0...5, fallback: 0.4)
        copy.delayWalkScale = Self.clamp(delayWalkScale, 0.5...600, fallback: 15)
        copy.delayDrift = Self.clamp(delayDrift, -60...60, fallback: 0)
        copy.holdRate = Self.clamp(holdRate, 0...600, fallback: 2)
        copy.holdMean = Self.clamp(holdMean, 1...3_600, fallback: 120)
        copy.disruptionRate = Self.clamp(disruptionRate, 0...60, fallback: 0.05)
        copy.disruptionMean = Self.clamp(disruptionMean, 1...7_200, fallback: 1_200)
        copy.onTimeCentre = Self.clamp(onTimeCentre, -600...600, fallback: 30)
        copy.onTimeScale = Self.clamp(onTimeScale, 1...3_600, fallback: 60)
        copy.earlyScale = Self.clamp(earlyScale, 1...3_600, fallback: 60)
        copy.lateShare = Self.clamp(lateShare, 1e-6...0.999, fallback: 0.3)
        copy.lateMean = Self.clamp(lateMean, 1...14_400, fallback: 400)
        copy.boardingRate = Self.clamp(boardingRate, 1e-6...600, fallback: 0.5)
        copy.originBoarding = Self.clamp(originBoarding, 1...1e6, fallback: 20)
        copy.offTimetableShare = Self.clamp(offTimetableShare, 1e-12...0.5, fallback: 1e-6)
        copy.vagueShare = Self.clamp(vagueShare, 0...0.5, fallback: 0)
        copy.vagueScale = Self.clamp(vagueScale, 1...7_200, fallback: 300)
        copy.lineStopsWeight = Self.clamp(lineStopsWeight, 0...4, fallback: 1)
        copy.lineCourseWeight = Self.clamp(lineCourseWeight, 0...4, fallback: 1)
        copy.lineStopsHalfInterval = Self.clamp(lineStopsHalfInterval, 1...3_600, fallback: 10)
        copy.linePlaceWeight = Self.clamp(linePlaceWeight, 0...4, fallback: 1)
        copy.arrivalModel = arrivalModel?.sanitised
        return copy
    }

    /// The share of `lineStopsWeight` that stops read off fixes `interval` seconds apart take:
    /// 1 / (1 + (interval / `lineStopsHalfInterval`)²): about 1 at a second, a half at the half
    /// interval, 0.03 at a minute.
    /// An interval that is not a number is trusted not at all.
    public func stopsTrust(interval: Seconds) -> Double {
        let half = lineStopsHalfInterval.isFinite ? max(lineStopsHalfInterval, 1) : 10
        let ratio = interval.isNaN ? Double.infinity : max(0, interval) / half
        return 1 / (1 + ratio * ratio)
    }

    private static func clamp(_ value: Double, _ range: ClosedRange<Double>, fallback: Double) -> Double {
        value.isFinite ? min(max(value, range.lowerBound), range.upperBound) : fallback
    }
}
