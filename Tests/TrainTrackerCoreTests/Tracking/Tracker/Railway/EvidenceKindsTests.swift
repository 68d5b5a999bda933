import Testing

@testable import TrainTrackerCore

/// The tracker's model has one list of evidence kinds (`Parameters.visitKinds`): a kind whose
/// constants are in the parameters but not in the list would never be weighed, and a term no
/// kind charges would never be explained. These tests fail with what to add.
@Suite struct EvidenceKindsTests {
    /// The labels of the parameters' properties that are kinds of evidence.
    static var kindProperties: [String] {
        Mirror(reflecting: RailwayTracker.Parameters()).children.compactMap { child in
            child.value is any EvidenceKind ? child.label : nil
        }
    }

    @Test func everyKindInTheParametersIsInTheList() {
        let listed = RailwayTracker.Parameters.kindTerms
        #expect(
            Self.kindProperties.count == listed.count,
            "a kind of evidence in RailwayTracker.Parameters is missing from visitKinds (or listed twice)")
        #expect(Self.kindProperties.count >= 10)
    }

    @Test func everyTermIsChargedByAKindOrByTheTransition() {
        let charged = Set(RailwayTracker.Parameters.kindTerms).union([.switching, .leaving])
        #expect(
            charged == Set(EvidenceTerm.allCases), "terms no kind charges: \(Set(EvidenceTerm.allCases).subtracting(charged))")
    }

    @Test func termIndicesFollowTheirOrder() {
        #expect(EvidenceTerm.allCases.map(\.index) == Array(EvidenceTerm.allCases.indices))
    }

    /// The order each fix meets the kinds in: stops before departures (a departure needs the
    /// stop that ended), departures before the stations left behind are judged (a departure
    /// is weighed by the patterns as the stop left them).
    @Test func stopsComeBeforeDeparturesAndDeparturesBeforeCrossings() throws {
        let terms = RailwayTracker.Parameters.kindTerms
        let stops = try #require(terms.firstIndex(of: .stops))
        let departures = try #require(terms.firstIndex(of: .departures))
        #expect(stops < departures)
        #expect(terms.last == .stops, "CrossingEvidence (charging stops) comes last")
    }
}
