extension TrackingResult {
    /// The answer at `fix` as one line of the JSONL contract shared by `traintracker replay`
    /// and the live server: exactly the keys `sessionID`, `locationID`, `timestamp`,
    /// `railway`, `direction`, `station`, `phase`, `trainType`, `nextStop`, `eta`,
    /// `confidence` (`null` without an answer or when the algorithm does not tell, `eta` also
    /// when it falls outside `DomainRange.secondsSince1970`),
    /// `estimated` and `candidates` (each with `railway`, `direction`, `station`, `phase`,
    /// `score`), in that order.
    ///
    /// - Complexity: O(c) for the c candidates.
    public func jsonLine(sessionID: String, fix: RecordedFix) -> String {
        var object = JSONObjectWriter()
        object.string("sessionID", sessionID)
        object.string("locationID", fix.id)
        object.string("timestamp", fix.location.timestamp.iso8601)
        object.string("railway", best?.railwayID)
        object.string("direction", best?.directionName)
        object.string("station", best?.focusStationID)
        object.string("phase", best?.phase.rawValue)
        object.string("trainType", best?.trainTypeID)
        object.string("nextStop", best?.nextStopID)
        // Only a time the contract can carry: never one beyond the years 1900 to 2199.
        object.string("eta", best?.eta.flatMap { $0.isInDomainRange ? $0.iso8601 : nil })
        object.number("confidence", best?.confidence)
        object.raw("estimated", estimated ? "true" : "false")
        let elements = candidates.map { candidate in
            var element = JSONObjectWriter()
            element.string("railway", candidate.railwayID)
            element.string("direction", candidate.directionName)
            element.string("station", candidate.focusStationID)
            element.string("phase", candidate.phase.rawValue)
            element.number("score", candidate.score)
            return element.finish()
        }
        object.raw("candidates", JSONObjectWriter.array(elements))
        return object.finish()
    }
}

extension EvidenceExplanation {
    /// `[{"railway":…,"direction":…,"score":…,"terms":{"position":-0.4,…}},…]`: the `evidence`
    /// key that `replay --explain` and the Session Viewer's results add to a JSONL line.
    ///
    /// - Complexity: O(h) for the h hypotheses explained.
    public static func json(_ explanation: [EvidenceExplanation]) -> String {
        JSONObjectWriter.array(
            explanation.map { item in
                var object = JSONObjectWriter()
                object.string("railway", item.railwayID)
                object.string("direction", item.directionName)
                object.number("score", item.score)
                var terms = JSONObjectWriter()
                for (term, nats) in item.terms { terms.number(term.rawValue, nats) }
                object.raw("terms", terms.finish())
                return object.finish()
            })
    }
}

extension TrackingResult {
    /// `jsonLine(sessionID:fix:)` with the key `evidence` last: why each hypothesis stands where it does.
    public func jsonLine(sessionID: String, fix: RecordedFix, evidence: [EvidenceExplanation]) -> String {
        let line = jsonLine(sessionID: sessionID, fix: fix)
        return String(line.dropLast()) + ",\"evidence\":" + EvidenceExplanation.json(evidence) + "}"
    }
}
