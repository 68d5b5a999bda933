extension DefaultTracker {
    /// A fix after this long re-anchors the train where it places it, whatever the prediction.
    static let reanchorAfter: Seconds = 10
    /// ... and so does one this far from the prediction.
    static let reanchorBeyond: Meters = 2_000
    /// How far a fix moves the prediction towards itself, while moving and while stopped.
    static let movingGain = 0.6
    static let stoppedGain = 0.2
    /// A train placed only after a silence came from somewhere at least this fast (it may be braking).
    static let slowestArrival: MetersPerSecond = 5

    /// Where the hypothesis places the train after a fix `measured` along its track: a
    /// predicted position moved towards the fix. A fix not `placing` the train
    /// (`Hypothesis.placesTheTrain`: far off or inaccurate) does not move it; a long gap
    /// re-anchors it (and may be a silence).
    func track(_ hypothesis: inout Hypothesis, measured: Meters, placing: Bool, fix: Fix) {
        let dt = fix.dt
        guard let along = hypothesis.along else {
            // A position is taken only from a fix good enough to place the train.
            if placing {
                hypothesis.along = measured
                hypothesis.previousAlong = measured
                // Placed on this line only after a silence: its train came from somewhere, at about
                // the speed it has now.
                if dt > fix.silentAfter {
                    let start = hypothesis.walk.advance(measured, by: -max(fix.speed, Self.slowestArrival) * dt)
                    parameters.silence.observe(&hypothesis, model: model, from: start, to: measured, duration: dt)
                }
            }
            return
        }
        let predicted = fix.stopped ? along : hypothesis.walk.advance(along, by: fix.speed * dt)
        let innovation = hypothesis.walk.distanceAhead(from: predicted, to: measured)
        let signedInnovation =
            hypothesis.walk.isLoop && innovation > hypothesis.walk.length / 2
            ? innovation - hypothesis.walk.length : innovation
        if dt > Self.reanchorAfter || abs(signedInnovation) > Self.reanchorBeyond {
            // No fix for a long while: likely in a tunnel. A line that ran above ground all the
            // way from where the train was to where it is now would have given fixes.
            if dt > fix.silentAfter, placing {
                parameters.silence.observe(&hypothesis, model: model, from: along, to: measured, duration: dt)
            }
            hypothesis.along = measured
        } else if placing {
            let gain = fix.stopped ? Self.stoppedGain : Self.movingGain
            hypothesis.along = hypothesis.walk.advance(predicted, by: gain * signedInnovation)
        } else {
            hypothesis.along = predicted
        }
    }
}
