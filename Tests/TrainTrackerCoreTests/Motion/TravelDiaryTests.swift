import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// The travel diary on a made-up morning, and its scoring against a log.
@Suite struct TravelDiaryTests {
    static let start = Timestamp(secondsSince1970: 1_472_194_800)
    static let origin = LocalProjection(origin: Coordinate(latitude: 60.17, longitude: 24.94))

    /// A morning, one fix every 10 s: 10 min at home, 5 min walking, 12 min by bus with a 60 s
    /// halt at a stop, 3 min walking, 10 min at work. Activity recognition agrees.
    static func morning(accuracyOnBus: Meters = 8) -> (fixes: [Location], activities: [ActivityReading]) {
        let spells: [(seconds: Int, speed: Double, kind: MotionKind)] = [
            (600, 0, .stationary), (300, 1.3, .walking), (360, 11, .automotive), (60, 0, .automotive), (300, 11, .automotive),
            (180, 1.3, .walking), (600, 0, .stationary),
        ]
        var fixes: [Location] = []
        var activities: [ActivityReading] = []
        var east = 0.0
        var second = 0
        for spell in spells {
            for _ in stride(from: 0, to: spell.seconds, by: 10) {
                east += spell.speed * 10
                let time = start.adding(Double(second))
                let onBus = spell.kind == .automotive
                fixes.append(
                    Location(
                        coordinate: origin.coordinate(at: PlanarVector(east: east, north: 0)), timestamp: time,
                        horizontalAccuracy: onBus ? accuracyOnBus : 8))
                activities.append(ActivityReading(timestamp: time, kind: spell.kind))
                second += 10
            }
        }
        return (fixes, activities)
    }

    @Test func aMorningIsHomeWalkBusWalkWork() {
        let (fixes, activities) = Self.morning()
        let legs = TravelDiary.legs(fixes: fixes, activities: activities)
        #expect(legs.map(\.mode) == [.stay, .walking, .vehicle, .walking, .stay])
        // The bus leg keeps its halt: about 12 minutes, about 7.3 km.
        let bus = legs[2]
        #expect(abs(bus.duration - 720) <= 30)
        #expect(abs(bus.distance - 7_260) <= 400)
    }

    @Test func aVehicleLegIsRailBetweenStationsOrWhenThePhoneSeesLittleSky() {
        let (fixes, activities) = Self.morning()
        let legs = TravelDiary.legs(fixes: fixes, activities: activities)
        let ends = [legs[2].path[0], legs[2].path[legs[2].path.count - 1]]
        #expect(TravelDiary.legs(fixes: fixes, activities: activities, railStations: ends)[2].mode == .rail)
        #expect(TravelDiary.legs(fixes: fixes, activities: activities, railStations: [ends[0]])[2].mode == .vehicle)
        let underground = Self.morning(accuracyOnBus: 60)
        #expect(TravelDiary.legs(fixes: underground.fixes, activities: underground.activities)[2].mode == .rail)
    }

    /// The morning with the bus ride hidden: the phone slept (or the metro ran under ground) from
    /// the last walking fix to the first at the far stop.
    @Test func aRideHiddenInAGapOfFixesIsAVehicleLegFromTheFixBeforeIt() throws {
        let (fixes, activities) = Self.morning()
        let rideStart = Self.start.adding(900)
        let rideEnd = Self.start.adding(1_620)
        let gapped = fixes.filter { $0.timestamp < rideStart || $0.timestamp >= rideEnd }
        let legs = TravelDiary.legs(fixes: gapped, activities: activities)
        // With no fixes on the way the phone saw little sky: it is taken for rail.
        #expect(legs.map(\.mode) == [.stay, .walking, .rail, .walking, .stay])
        let ride = try #require(legs.first { $0.mode == .rail })
        // It starts at the last fix before the gap and ends at the first after.
        #expect(ride.start == rideStart.adding(-10) && ride.end == rideEnd)
        // A gap a walker could have crossed (the walk to work, 3 min at 1.3 m/s) is not a ride.
        let walkStart = Self.start.adding(1_620)
        let walkGapped = fixes.filter { $0.timestamp <= walkStart || $0.timestamp >= walkStart.adding(150) }
        #expect(
            TravelDiary.legs(fixes: walkGapped, activities: activities).map(\.mode) == [
                .stay, .walking, .vehicle, .walking, .stay,
            ])
    }

    /// iOS reports -1 for an accuracy it does not know: no slack, not negative slack.
    @Test func aNegativeAccuracyMakesNoRideOfAShortGap() {
        let (fixes, activities) = Self.morning()
        let home = fixes.prefix(60).enumerated().map { index, fix in
            var fix = fix
            fix.horizontalAccuracy = -1
            // 20 m in a minute: standing, whatever the accuracy says.
            if index == 30 { fix.coordinate = Self.origin.coordinate(at: PlanarVector(east: 20, north: 0)) }
            return fix
        }
        let gapped = home.enumerated().filter { $0.offset <= 20 || $0.offset >= 30 }.map(\.element)
        #expect(TravelDiary.hiddenRides(gapped, settings: .standard).isEmpty)
        _ = activities
    }

    @Test func legsTileTheDay() {
        let (fixes, activities) = Self.morning()
        let legs = TravelDiary.legs(fixes: fixes, activities: activities)
        #expect(legs.first?.start == fixes.first?.timestamp && legs.last?.end == fixes.last?.timestamp)
        for (before, after) in zip(legs, legs.dropFirst()) {
            #expect(after.start == before.end && after.path.first == before.path.last)
        }
    }

    @Test func noFixesNoLegs() {
        #expect(TravelDiary.legs(fixes: [], activities: []).isEmpty)
        let one = TravelDiary.legs(fixes: [Self.morning().fixes[0]], activities: [])
        #expect(one.map(\.mode) == [.stay])
    }

    @Test func aLoggedLegIsFoundWhenHalfOfItIsCovered() {
        let leg = { (device: Int, from: Double, to: Double, kind: VehicleKind) in
            LoggedLeg(device: device, start: Self.start.adding(from), end: Self.start.adding(to), kind: kind, label: "")
        }
        let log = [leg(1, 0, 600, .rail), leg(1, 1_000, 1_600, .road), leg(2, 0, 600, .road)]
        let detected = [leg(1, 300, 900, .rail), leg(1, 1_400, 1_700, .road), leg(2, 100, 500, .rail)]
        let score = DiaryScore(detected: detected, log: log)
        // The first is half covered and rail; the second only a third; the third covered, wrong kind.
        #expect(score.logged == 3 && score.found == 2 && score.rightKind == 1)
        // Every detected leg lies at least half within a logged one: none is spurious. A ride
        // nobody logged (a walk taken for one) is.
        #expect(score.spurious == 0)
        #expect(DiaryScore(detected: detected + [leg(1, 2_000, 2_300, .road)], log: log).spurious == 1)
        #expect(DiaryScore(detected: [leg(3, 0, 600, .road)], log: log).spurious == 0, "a device without a log is not scored")
        // Another numbering of the same phones is matched by overlap.
        let renumbered = detected.map {
            var copy = $0
            copy.device += 100
            return copy
        }
        #expect(DiaryScore.matchDevices(renumbered, to: log) == [101: 1, 102: 2])
    }
}
