import Testing

@testable import TrainTrackerCommands

/// `load --verify` reading a session back: a fix the store lost, an answer the replay does not
/// give, and a session no server gives back are each counted, and named.
@Suite struct LoadVerificationTests {
    static func answer(_ fix: String, station: String, estimated: Bool = false) -> String {
        "{\"sessionID\":\"S\",\"locationID\":\"\(fix)\",\"railway\":\"R\",\"station\":\"\(station)\",\"estimated\":\(estimated),"
            + "\"confidence\":0.75,\"candidates\":[{\"railway\":\"R\",\"score\":1.5}]}"
    }

    /// The server's `/results` for fixes `f1`…`f4`, answered at Shibuya, with evidence.
    static let replay = LoadTargets.Delivery(
        status: .ok,
        body: "{\"fixes\":[" + (1...4).map { "{\"id\":\"f\($0)\"}" }.joined(separator: ",") + "],\"results\":["
            + (1...4).map { String(answer("f\($0)", station: "Shibuya").dropLast()) + ",\"evidence\":[]}" }.joined(separator: ",")
            + "]}",
        server: 1, failedAttempts: 0)

    static func upload(_ fixes: [String], station: String = "Shibuya", moved: Bool = false) -> AcknowledgedUpload {
        AcknowledgedUpload(
            fixIDs: fixes, body: "{\"accepted\":2,\"result\":\(answer(fixes.last ?? "", station: station))}", server: 0,
            moved: moved)
    }

    @Test func answersEqualToTheReplayPass() {
        var verification = LoadVerification()
        verification.compare(
            [Self.upload(["f1", "f2"]), Self.upload(["f3", "f4"], moved: true)], session: "S", replay: Self.replay)
        #expect(verification.passed)
        #expect(verification.answersCompared == 2 && verification.movedAnswersCompared == 1)
    }

    @Test func anAnswerTheReplayDoesNotGiveIsNamed() {
        var verification = LoadVerification()
        verification.compare(
            [Self.upload(["f1", "f2"]), Self.upload(["f3", "f4"], station: "Ebisu", moved: true)], session: "S",
            replay: Self.replay)
        #expect(!verification.passed)
        #expect(verification.answersDiffering == 1 && verification.movedAnswersDiffering == 1)
        #expect(verification.firstDifference?.contains("session S at fix f4: station Ebisu (replay: Shibuya)") == true)
    }

    @Test func aLostFixAndAnUnreadableSessionAreCounted() {
        var verification = LoadVerification()
        verification.compare([Self.upload(["f4", "f5"])], session: "S", replay: Self.replay)
        verification.compare(
            [Self.upload(["g1"])], session: "T",
            replay: LoadTargets.Delivery(status: nil, body: "", server: nil, failedAttempts: 2))
        #expect(verification.missingFixes == 1)
        #expect(verification.unreadableSessions == 1)
        #expect(!verification.passed)
    }
}
