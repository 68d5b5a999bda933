import Testing

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Naming a rail leg's line and stations, and telling rail from road between stations.
@Suite struct RailLinesTests {
    static let start = Timestamp(secondsSince1970: 1_472_194_800)
    static let origin = LocalProjection(origin: Coordinate(latitude: 60.2, longitude: 25.0))

    /// Stations A, B, C, D every 2 km eastwards.
    static let stations = ["A", "B", "C", "D"].enumerated().map { index, code in
        RailStation(
            code: code, name: "Station " + code,
            coordinate: origin.coordinate(at: PlanarVector(east: Double(index) * 2_000, north: 0)))
    }
    static let local = RailLine(name: "L", kind: "train", stations: stations, bothWays: true)
    static let express = RailLine(name: "X", kind: "train", stations: [stations[0], stations[3]], bothWays: true)

    /// A ride from A to D at 10 m/s, a fix every 10 s, halting `halt` seconds at B and C
    /// (and, if `roadside`, 40 s halfway between stations, as a bus at its stop).
    static func ride(halt: Int, roadside: Bool = false, north: Meters = 0) -> [Location] {
        var fixes: [Location] = []
        var east = 0.0
        var second = 0
        func fix() {
            fixes.append(
                Location(
                    coordinate: origin.coordinate(at: PlanarVector(east: east, north: north)),
                    timestamp: start.adding(Double(second)),
                    horizontalAccuracy: 8))
        }
        while east < 6_000 {
            fix()
            let atStation = [2_000.0, 4_000].contains { abs($0 - east) < 1 }
            let atRoadside = roadside && [1_000.0, 3_000, 5_000].contains { abs($0 - east) < 1 }
            let wait = atStation ? halt : atRoadside ? 40 : 0
            for _ in stride(from: 10, through: wait, by: 10) {
                second += 10
                fix()
            }
            east += 100
            second += 10
        }
        fix()
        return fixes
    }

    @Test func aLegThatStopsEverywhereIsTheLocalAndOneThatRunsThroughIsTheExpress() throws {
        let stopping = try #require(RailLineNaming.name(Self.ride(halt: 30), lines: [Self.local, Self.express], reach: 200))
        #expect(stopping.lines == ["L"] && stopping.from.code == "A" && stopping.to.code == "D")
        #expect(stopping.description == "L Station A → Station D")
        let through = try #require(RailLineNaming.name(Self.ride(halt: 0), lines: [Self.local, Self.express], reach: 200))
        #expect(through.lines == ["X"])
        // Fixes too sparse to see stops: both lines fit, and both are named.
        let sparse = Self.ride(halt: 0).enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        let last = try #require(Self.ride(halt: 0).last)
        let either = try #require(RailLineNaming.name(sparse + [last], lines: [Self.local, Self.express], reach: 200))
        #expect(either.lines == ["L", "X"])
    }

    @Test func aOneWayLineIsNamedOnlyInItsDirectionAndAFarLegNotAtAll() throws {
        let eastwards = RailLine(name: "E", kind: "train", stations: Self.stations, bothWays: false)
        let westwards = RailLine(name: "W", kind: "train", stations: Self.stations.reversed(), bothWays: false)
        let named = try #require(RailLineNaming.name(Self.ride(halt: 30), lines: [eastwards, westwards], reach: 200))
        #expect(named.lines == ["E"])
        let back = try #require(RailLineNaming.name(Self.ride(halt: 30).reversed(), lines: [eastwards, westwards], reach: 200))
        #expect(back.lines == ["W"] && back.from.code == "D")
        #expect(RailLineNaming.name(Self.ride(halt: 30, north: 1_500), lines: [Self.local], reach: 200) == nil)
    }

    /// Between two stations, a bus halting at its roadside stops is road; a train is rail.
    @Test func withLinesABusBetweenStationsIsRoadAndATrainRail() {
        let stations = Self.stations.map(\.coordinate)
        let train = Self.ride(halt: 30)
        let bus = Self.ride(halt: 30, roadside: true)
        #expect(TravelDiary.halts(train[...], awayFrom: stations) == 0)
        #expect(TravelDiary.halts(bus[...], awayFrom: stations) == 3)
        let settings = DiarySettings.standard
        #expect(TravelDiary.isRail(train[...], railStations: stations, railLines: [Self.local], settings: settings))
        #expect(!TravelDiary.isRail(bus[...], railStations: stations, railLines: [Self.local], settings: settings))
        // Without lines, a vehicle leg from station to station is rail, as before.
        #expect(TravelDiary.isRail(bus[...], railStations: stations, railLines: [], settings: settings))
    }

    @Test func aLogsWordsForAStopNameTheStation() {
        let helsinki = RailStation(
            code: "HKI", name: "Helsinki", aliases: ["Rautatieasema", "Railway station"], coordinate: Self.origin.origin)
        let sornainen = RailStation(code: "M:SN", name: "Sörnäinen", coordinate: Self.origin.origin)
        #expect(RailNamingScore.names("Sörnäinen(M)", sornainen) && RailNamingScore.names("Sörnäinen (M)", sornainen))
        #expect(RailNamingScore.names("Railway st. track 1", helsinki) && RailNamingScore.names("Rautatieasema", helsinki))
        #expect(!RailNamingScore.names("track 1", helsinki) && !RailNamingScore.names("Sörnäinen", helsinki))
        #expect(!RailNamingScore.names("", helsinki))
    }
}
