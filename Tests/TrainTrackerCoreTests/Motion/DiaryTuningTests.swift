import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Choosing the diary's thresholds on some phones and scoring them on others.
@Suite struct DiaryTuningTests {
    /// Device `device`'s morning, its bus fixes `accuracyOnBus` metres off, with the bus logged.
    static func day(_ device: Int, accuracyOnBus: Meters) -> (DiaryDay, LoggedLeg) {
        let (fixes, activities) = TravelDiaryTests.morning(accuracyOnBus: accuracyOnBus)
        let bus = LoggedLeg(
            device: device, start: TravelDiaryTests.start.adding(900), end: TravelDiaryTests.start.adding(1_620), kind: .road,
            label: "BUS")
        return (DiaryDay(device: device, fixes: fixes, activities: activities), bus)
    }

    @Test func theHalvesHaveAboutAsManyLoggedLegs() {
        let start = TravelDiaryTests.start
        let log = [(1, 5), (2, 3), (3, 3), (4, 1)].flatMap { device, count in
            (0..<count).map { _ in LoggedLeg(device: device, start: start, end: start.adding(60), kind: .road, label: "") }
        }
        let (first, second) = DiaryTuning.halves(of: [4, 3, 2, 1], log: log)
        #expect(first == [1, 4] && second == [2, 3])
    }

    /// A bus whose fixes are 30 m off looks like a train to the untuned diary (rail below 25 m);
    /// the search finds a rail accuracy that keeps it a bus.
    @Test func theSearchMendsWhatTheStartGetsWrong() {
        let (day, bus) = Self.day(1, accuracyOnBus: 30)
        let before = DiaryTuning.score(.untuned, days: [day], log: [bus], railStations: [])
        #expect(before.found == 1 && before.rightKind == 0)
        let tuned = DiaryTuning.tuned(on: [day], log: [bus], railStations: [])
        let after = DiaryTuning.score(tuned, days: [day], log: [bus], railStations: [])
        #expect(after.found == 1 && after.rightKind == 1 && tuned.railAccuracy > 30)
    }

    /// What a half's thresholds are cannot depend on the phones they are scored on.
    @Test func aFoldsThresholdsIgnoreItsHeldOutPhones() {
        let (first, firstBus) = Self.day(1, accuracyOnBus: 30)
        let (second, secondBus) = Self.day(2, accuracyOnBus: 8)
        let (other, otherBus) = Self.day(2, accuracyOnBus: 60)
        let folds = DiaryTuning.crossValidated(
            days: [first, second], log: [firstBus, secondBus], railStations: [], halves: ([1], [2]))
        let changed = DiaryTuning.crossValidated(
            days: [first, other], log: [firstBus, otherBus], railStations: [], halves: ([1], [2]))
        #expect(folds.map(\.chosenOn) == [[1], [2]] && folds.map(\.scoredOn) == [[2], [1]])
        #expect(folds[0].settings == changed[0].settings)
        #expect(folds[0].settings == DiaryTuning.tuned(on: [first], log: [firstBus], railStations: []))
        // Phone 2's own choice does change with its data, and is scored on phone 1.
        #expect(folds[1].heldOutScore.logged == 1 && folds[1].chosenScore.logged == 1)
    }
}
