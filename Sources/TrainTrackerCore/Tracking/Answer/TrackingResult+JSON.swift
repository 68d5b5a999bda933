extension TrackingResult {
    /// The answer at `fix` as one line of the JSONL contract shared by `traintracker replay`
    /// and the live server: exactly the keys `sessionID`, `locationID`, `timestamp`,
    /// `railway`, `direction`, `station`, `phase`, `trainType`, `nextStop`, `eta`,
    /// `confidence`, `train`, `delaySeconds` (`null` without an answer or when the algorithm
    /// does not tell, `eta` also when it falls outside `DomainRange.secondsSince1970`),
    /// `arrivals` (the best candidate's predicted arrivals at the stops ahead, each with
    /// `station`, `time`, `earliest`, `latest` and `scheduled`; empty when none), `undecided`
    /// (the services still possible while they are not told apart, each with `railway`,
    /// `direction`, `trainType`, `nextStop` and `share`; empty once decided; `nextStop` is then
    /// one they all make next, or `null` where they part), `estimated` and `candidates` (each with `railway`, `direction`, `station`, `phase`,
    /// `score`), in that order; with `evidence`, the key `evidence` last (why each hypothesis
    /// stands where it does).
    ///
    /// - Complexity: O(c) for the c candidates.
    public func jsonLine(sessionID: String, fix: RecordedFix, evidence: [EvidenceExplanation]? = nil) -> String {
        let json = JSONBuffer(capacity: 512)
        writeJSONLine(sessionID: sessionID, fix: fix, evidence: evidence, into: json)
        return json.text
    }

    /// Writes `jsonLine`'s object (without a newline) into `json`: the way to write many, one
    /// buffer for all.
    package func writeJSONLine(
        sessionID: String, fix: RecordedFix, evidence: [EvidenceExplanation]? = nil, into json: JSONBuffer
    ) {
        // (Through the buffer: a copy of a candidate would retain and release every string of it.)
        candidates.withUnsafeBufferPointer { candidates in
            json.beginObject()
            json.key("sessionID")
            json.string(sessionID)
            json.key("locationID")
            json.string(fix.id)
            json.key("timestamp")
            json.timestamp(fix.location.timestamp)
            if candidates.isEmpty {
                for key: StaticString in [
                    "railway", "direction", "station", "phase", "trainType", "nextStop", "eta", "confidence", "train",
                    "delaySeconds",
                ] {
                    json.key(key)
                    json.string(nil)
                }
            } else {
                writeBest(candidates[0], into: json)
            }
            json.key("arrivals")
            json.beginArray()
            if !candidates.isEmpty { Self.write(candidates[0].arrivals, into: json) }
            json.endArray()
            json.key("undecided")
            Self.write(undecided, into: json)
            json.key("estimated")
            json.bool(estimated)
            json.key("candidates")
            json.beginArray()
            for index in candidates.indices {
                json.beginObject()
                json.key("railway")
                json.string(candidates[index].railwayID)
                json.key("direction")
                json.string(candidates[index].directionName)
                json.key("station")
                json.string(candidates[index].focusStationID)
                json.key("phase")
                json.string(candidates[index].phase.rawValue)
                json.key("score")
                json.number(candidates[index].score)
                json.endObject()
            }
            json.endArray()
        }
        if let evidence {
            json.key("evidence")
            EvidenceExplanation.write(evidence, into: json)
        }
        json.endObject()
    }
}

extension TrackingResult {
    /// The keys of the best candidate, `railway` to `delaySeconds`.
    private func writeBest(_ best: borrowing TrackingCandidate, into json: JSONBuffer) {
        json.key("railway")
        json.string(best.railwayID)
        json.key("direction")
        json.string(best.directionName)
        json.key("station")
        json.string(best.focusStationID)
        json.key("phase")
        json.string(best.phase.rawValue)
        json.key("trainType")
        json.string(best.trainTypeID)
        json.key("nextStop")
        json.string(best.nextStopID)
        // Only a time the contract can carry: never one beyond the years 1900 to 2199.
        json.key("eta")
        json.timestamp(best.eta.flatMap { $0.isInDomainRange ? $0 : nil })
        json.key("confidence")
        json.number(best.confidence)
        json.key("train")
        json.string(best.train)
        json.key("delaySeconds")
        json.number(best.delaySeconds)
    }
}

extension TrackingResult {
    /// The objects of `arrivals`, comma-separated: `{"station":…,"time":…,"earliest":…,
    /// "latest":…,"scheduled":…}` (a time outside `DomainRange.secondsSince1970`: `null`).
    private static func write(_ arrivals: [PredictedArrival], into json: JSONBuffer) {
        for arrival in arrivals {
            json.beginObject()
            json.key("station")
            json.string(arrival.stationID)
            json.key("time")
            json.timestamp(arrival.time.isInDomainRange ? arrival.time : nil)
            json.key("earliest")
            json.timestamp(arrival.earliest.isInDomainRange ? arrival.earliest : nil)
            json.key("latest")
            json.timestamp(arrival.latest.isInDomainRange ? arrival.latest : nil)
            json.key("scheduled")
            json.timestamp(arrival.scheduled.flatMap { $0.isInDomainRange ? $0 : nil })
            json.endObject()
        }
    }
}

extension TrackingResult {
    /// `[{"railway":…,"direction":…,"trainType":…,"nextStop":…,"share":…},…]`.
    private static func write(_ services: [PossibleService], into json: JSONBuffer) {
        json.beginArray()
        for service in services {
            json.beginObject()
            json.key("railway")
            json.string(service.railwayID)
            json.key("direction")
            json.string(service.directionName)
            json.key("trainType")
            json.string(service.trainTypeID)
            json.key("nextStop")
            json.string(service.nextStopID)
            json.key("share")
            json.number(service.share)
            json.endObject()
        }
        json.endArray()
    }
}

extension EvidenceExplanation {
    /// `[{"railway":…,"direction":…,"score":…,"terms":{"position":-0.4,…}},…]`: the `evidence`
    /// key that `replay --explain` and the Session Viewer's results add to a JSONL line.
    ///
    /// - Complexity: O(h) for the h hypotheses explained.
    public static func json(_ explanation: [EvidenceExplanation]) -> String {
        let json = JSONBuffer(capacity: 256)
        write(explanation, into: json)
        return json.text
    }

    /// Writes `json(_:)`'s array into `json`.
    package static func write(_ explanation: [EvidenceExplanation], into json: JSONBuffer) {
        json.beginArray()
        for item in explanation {
            json.beginObject()
            json.key("railway")
            json.string(item.railwayID)
            json.key("direction")
            json.string(item.directionName)
            json.key("score")
            json.number(item.score)
            json.key("terms")
            json.beginObject()
            for (term, nats) in item.terms {
                json.key(named: term.rawValue)
                json.number(nats)
            }
            json.endObject()
            json.endObject()
        }
        json.endArray()
    }
}
