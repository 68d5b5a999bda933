import TrainTrackerCore

/// When a ride's answers became right for good, as its fixes go by: the line (railway and
/// direction) and the service (the line, and the train type whenever one is named).
struct LockWatch {
    /// The first fix of the last unbroken run naming the true railway and direction.
    private(set) var lineSince: Double?
    /// ... and the true train type whenever the answer names one, until the train arrives (a
    /// rider waiting on the platform after it may see another).
    private(set) var serviceSince: Double?

    /// Takes the answer `best` at a fix at `time` on a ride of `truth` on `railway` towards
    /// `direction`.
    mutating func observe(_ best: TrackingCandidate?, railway: String, direction: String, at time: Double, truth: CaseTruth) {
        let rightLine = best?.railwayID == railway && best?.directionName == direction
        if rightLine { lineSince = lineSince ?? time } else { lineSince = nil }
        // Express and local share a railway: the service is settled when its type, if named, is right.
        let rightType = best?.trainTypeID == nil || truth.trainTypeID == nil || best?.trainTypeID == truth.trainTypeID
        if rightLine && rightType {
            serviceSince = serviceSince ?? time
        } else if time <= truth.arrival {
            serviceSince = nil
        }
    }

    /// The locks into `score`: the line's from `lockFrom`, in seconds and in the `arrivals`
    /// before it, and how many stations after the ride's telling station the service settled.
    func record(
        into score: inout CaseScore, from lockFrom: Double, arrivals: [(station: String, time: Double)], truth: CaseTruth
    ) {
        if let lineSince {
            score.locked = true
            score.lockTime = max(0, lineSince - lockFrom)
            score.lockStations = arrivals.filter { $0.time > lockFrom && $0.time <= lineSince }.count
        }
        Evaluator.scoreTelling(truth, lockStart: serviceSince, into: &score)
    }
}

extension Evaluator {
    /// Whether `railway` runs a service the ride has not told apart from its train by `time`.
    static func stillAlike(_ railway: String, truth: CaseTruth, at time: Double) -> Bool {
        guard truth.transfer.map({ time >= $0.secondDeparture }) ?? true, let telling = truth.telling,
            let passages = truth.passages
        else { return false }
        return telling.railwaysStillAlike(at: time, passages: passages).contains(railway)
    }

    /// Whether the ride has a telling station, and how many stations after it the answer settled
    /// on the service (`lockStart`: the true railway and direction, and the true train type when
    /// it names one, from then to the end).
    static func scoreTelling(_ truth: CaseTruth, lockStart: Double?, into score: inout CaseScore) {
        guard let telling = truth.telling else { return }
        guard telling.untold.isEmpty else {
            score.untold = true
            return
        }
        guard let station = telling.station, let passages = truth.passages,
            let index = passages.firstIndex(where: { $0.station == station })
        else { return }
        score.told = true
        if let lockStart {
            score.stationsAfterTelling = passages[(index + 1)...].filter { $0.time <= lockStart }.count
        }
    }
}
