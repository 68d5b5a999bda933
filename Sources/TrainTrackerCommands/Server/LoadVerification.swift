import Foundation
import TrainTrackerCore

/// `load --verify`: after the run, every session is read back from a server still up
/// (`GET /v1/sessions/{id}/results`, which replays the stored fixes from the start). Every
/// fix a server acknowledged must be stored, and every answer a phone was given must be the
/// replay's answer at the same fix, whichever instance gave it and however often the session
/// moved between instances.
struct LoadVerification: Sendable {
    /// Sessions read back at once.
    static let concurrentReads = 16

    /// Sessions read back.
    var sessions = 0
    /// Sessions no server could give back.
    var unreadableSessions = 0
    /// Acknowledged fixes the store does not have.
    var missingFixes = 0
    /// Answers compared with the replay's, and how many differed.
    var answersCompared = 0
    var answersDiffering = 0
    /// The same, for answers given after the session had moved to another instance.
    var movedAnswersCompared = 0
    var movedAnswersDiffering = 0
    /// The first difference found, for a person to look at.
    var firstDifference: String?

    /// Whether nothing acknowledged was lost and every answer was the replay's.
    var passed: Bool { unreadableSessions == 0 && missingFixes == 0 && (answersMayDiffer || answersDiffering == 0) }
    /// The server told its trackers other riders' trains or an operator's feed: a replay,
    /// told neither, may answer otherwise (`load --shared`), and only lost fixes fail.
    var answersMayDiffer = false

    static func check(
        _ uploads: [String: [AcknowledgedUpload]], phoneOf: @escaping @Sendable (String) -> Int, targets: LoadTargets,
        adminToken: String
    ) async -> LoadVerification {
        var verification = LoadVerification()
        let sessions = uploads.keys.sorted()
        for start in stride(from: 0, to: sessions.count, by: concurrentReads) {
            let chunk = sessions[start..<min(sessions.count, start + concurrentReads)]
            let read = await withTaskGroup(of: (String, LoadTargets.Delivery).self) { group in
                for session in chunk {
                    group.addTask {
                        (
                            session,
                            await targets.deliver(
                                .GET, "/v1/sessions/\(session)/results", body: nil, token: adminToken, phone: phoneOf(session))
                        )
                    }
                }
                return await group.reduce(into: [(String, LoadTargets.Delivery)]()) { $0.append($1) }
            }
            for (session, delivery) in read {
                verification.compare(uploads[session] ?? [], session: session, replay: delivery)
            }
        }
        return verification
    }

    mutating func compare(_ uploads: [AcknowledgedUpload], session: String, replay: LoadTargets.Delivery) {
        sessions += 1
        guard replay.status == .ok, let object = Self.object(replay.body),
            let fixes = object["fixes"] as? [[String: Any]], let results = object["results"] as? [[String: Any]]
        else {
            unreadableSessions += 1
            return
        }
        let stored = Set(fixes.compactMap { $0["id"] as? String })
        var replayed: [String: [String: Any]] = [:]
        for result in results {
            guard let id = result["locationID"] as? String else { continue }
            var answer = result
            answer["evidence"] = nil
            answer["delaySource"] = nil
            replayed[id] = answer
        }
        for upload in uploads {
            missingFixes += upload.fixIDs.filter { !stored.contains($0) }.count
            guard var answer = Self.object(upload.body)?["result"] as? [String: Any], let id = answer["locationID"] as? String
            else { continue }
            // (Said live only: a replay knows no feed.)
            answer["delaySource"] = nil
            let expected = replayed[id] ?? [:]
            let differing = Set(answer.keys).union(expected.keys).sorted().filter { !Self.same(answer[$0], expected[$0]) }
            let same = differing.isEmpty
            answersCompared += 1
            if upload.moved { movedAnswersCompared += 1 }
            guard !same else { continue }
            answersDiffering += 1
            if upload.moved { movedAnswersDiffering += 1 }
            if firstDifference == nil {
                firstDifference =
                    "session \(session) at fix \(id): "
                    + (replayed[id] == nil
                        ? "no such fix replayed"
                        : differing.map { "\($0) \(answer[$0] ?? "none") (replay: \(expected[$0] ?? "none"))" }.joined(
                            separator: ", "))
            }
        }
    }

    /// Whether two JSON values are equal: written out again with sorted keys, the same text
    /// (Foundation on Linux cannot compare a parsed `false` by `isEqual`).
    private static func same(_ one: Any?, _ other: Any?) -> Bool {
        func text(_ value: Any?) -> Data? {
            try? JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: [.sortedKeys, .fragmentsAllowed])
        }
        return text(one) == text(other)
    }

    private static func object(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    /// The verification as a JSON object.
    var json: String {
        var json = JSONObjectWriter()
        json.raw("passed", passed ? "true" : "false")
        json.integer("sessions", sessions)
        json.integer("unreadableSessions", unreadableSessions)
        json.integer("acknowledgedFixesMissing", missingFixes)
        json.integer("answersCompared", answersCompared)
        json.integer("answersDiffering", answersDiffering)
        json.raw("answersMayDiffer", answersMayDiffer ? "true" : "false")
        json.integer("answersAfterAMoveCompared", movedAnswersCompared)
        json.integer("answersAfterAMoveDiffering", movedAnswersDiffering)
        json.string("firstDifference", firstDifference)
        return json.finish()
    }
}
