extension RailwayTracker {
    /// A fix after this long re-anchors the train where it places it, whatever the prediction.
    /// (Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.)
    static let reanchorAfter: Seconds = 10
    /// ... and so does one this far from the prediction.
    /// Set by hand on 2026-11-22 with the first default tracker, developed on simulated seed 2026;
    /// the reason is not recorded.
    static let reanchorBeyond: Meters = 2_000
    /// How far a fix moves the prediction towards itself, while moving and while stopped.
    /// Both set by hand on 2026-11-22 with the first default tracker, developed on simulated seed
    /// 2026; the reason is not recorded.
    static let movingGain = 0.6
    static let stoppedGain = 0.2
    /// A train placed only after a silence came from somewhere at least this fast (it may be braking).
    /// Set by hand on 2026-11-22 for two rides of seeds 2026 and 53 that never locked; the reason
    /// for 5 m/s is not recorded.
    static let slowestArrival: MetersPerSecond = 5

    /// The evidence step's first part: where the fix places the hypothesis's train on its line,
    /// for every kind of evidence to see (nil when the line is out of reach, and the train is
    /// carried on by dead reckoning). Learns the line's map offset, and moves the train.
    func place(_ hypothesis: inout Hypothesis, fix: Fix) -> Placement? {
        let railway = hypothesis.line.railway
        guard nearSlot[railway] >= 0 else {
            hypothesis.missed += 1
            if let along = hypothesis.along, !fix.stopped {
                hypothesis.along = hypothesis.walk.advance(along, by: fix.speed * fix.dt)
            }
            return nil
        }
        let reach = near[Int(nearSlot[railway])]
        hypothesis.missed = 0
        // Against where this line's trains run, as its fixes have shown: the drawn track plus a
        // slowly changing offset to one side.
        let position = parameters.position
        hypothesis.offset.relax(keeping: fix.offsetKept, spread: position.mapOffsetSpread)
        let (residual, spread) = hypothesis.offset.residual(reach.lateral, sigma: fix.accuracy)
        if abs(residual) / spread <= PositionEvidence.offsetGate {
            hypothesis.offset.update(reach.lateral, sigma: fix.accuracy, weight: position.offsetLearning(span: fix.span))
        }
        // Whether this fix is good enough to place the train on this line, asked once.
        let placing = Placement.placesTheTrain(distance: abs(residual), sigma: spread)
        let silence = track(&hypothesis, measured: reach.along, placing: placing, fix: fix)
        return Placement(
            reach: reach, edge: Int(nearestEdges[railway]), residual: residual, spread: spread, placing: placing,
            silence: silence)
    }

    /// Where the hypothesis places the train after a fix `measured` along its track: a
    /// predicted position moved towards the fix. A fix not `placing` the train (far off or
    /// inaccurate) does not move it; a long gap re-anchors it. Returns the silence the gap was,
    /// if it was one: where the train went meanwhile, and how long it took (`SilenceEvidence`).
    private func track(_ hypothesis: inout Hypothesis, measured: Meters, placing: Bool, fix: Fix) -> (
        from: Meters, to: Meters, duration: Seconds
    )? {
        let dt = fix.dt
        guard let along = hypothesis.along else {
            // A position is taken only from a fix good enough to place the train.
            guard placing else { return nil }
            hypothesis.along = measured
            // Placed on this line only after a silence: its train came from somewhere, at about
            // the speed it has now.
            guard dt > fix.silentAfter else { return nil }
            let start = hypothesis.walk.advance(measured, by: -max(fix.speed, Self.slowestArrival) * dt)
            return (start, measured, dt)
        }
        let predicted = fix.stopped ? along : hypothesis.walk.advance(along, by: fix.speed * dt)
        let innovation = hypothesis.walk.distanceAhead(from: predicted, to: measured)
        let signedInnovation =
            hypothesis.walk.isLoop && innovation > hypothesis.walk.length / 2
            ? innovation - hypothesis.walk.length : innovation
        var silence: (from: Meters, to: Meters, duration: Seconds)?
        if dt > Self.reanchorAfter || abs(signedInnovation) > Self.reanchorBeyond {
            // No fix for a long while: likely in a tunnel. A line that ran above ground all the
            // way from where the train was to where it is now would have given fixes.
            if dt > fix.silentAfter, placing { silence = (along, measured, dt) }
            hypothesis.along = measured
        } else if placing {
            let gain = fix.stopped ? Self.stoppedGain : Self.movingGain
            hypothesis.along = hypothesis.walk.advance(predicted, by: gain * signedInnovation)
        } else {
            hypothesis.along = predicted
        }
        return silence
    }
}
