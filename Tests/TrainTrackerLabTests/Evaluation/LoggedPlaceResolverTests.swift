import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// Names as riders write them, found in the real Tokyo network.
@Suite(.tags(.sharedData)) struct LoggedPlaceResolverTests {
    static func resolver() throws -> LoggedPlaceResolver { LoggedPlaceResolver(network: try SharedData.tokyoNetwork()) }

    @Test(arguments: ["Kawasaki", "kawasaki", "KAWASAKI station", "川崎", "JR-East.Tokaido.Kawasaki"])
    func aStationIsFoundByNameOrID(text: String) throws {
        let ids = Set(try Self.resolver().stations(named: text).map(\.id))
        #expect(ids.contains("JR-East.Tokaido.Kawasaki"))
        #expect(!ids.contains("Keikyu.Main.KeikyuKawasaki"), "another station's name holds the word")
        if text.hasPrefix("JR") { #expect(ids.count == 1) } else { #expect(ids.contains("JR-East.Nambu.Kawasaki")) }
    }

    @Test(arguments: ["Musashi-Kosugi", "musashi kosugi", "MusashiKosugi", "Musashi-kosugi Sta."])
    func punctuationAndCaseDoNotMatter(text: String) throws {
        let ids = Set(try Self.resolver().stations(named: text).map(\.id))
        #expect(ids.isSuperset(of: ["Tokyu.Toyoko.MusashiKosugi", "JR-East.Nambu.MusashiKosugi"]))
    }

    @Test func accentsAreOptionalAndPartsOfManyNamesNameNothing() throws {
        let resolver = try Self.resolver()
        #expect(Set(resolver.stations(named: "Keikyu Kawasaki").map(\.id)).contains("Keikyu.Main.KeikyuKawasaki"))
        #expect(resolver.stations(named: "Musashi").isEmpty, "a dozen stations start so")
        #expect(resolver.stations(named: "Atlantis").isEmpty)
    }

    @Test func railwaysAreFoundByNameWithOrWithoutLineOrByTheirWords() throws {
        let resolver = try Self.resolver()
        #expect(resolver.railways(named: "Toyoko Line").map(\.id) == ["Tokyu.Toyoko"])
        #expect(resolver.railways(named: "tokyu toyoko").map(\.id) == ["Tokyu.Toyoko"])
        #expect(resolver.railways(named: "東横線").map(\.id) == ["Tokyu.Toyoko"])
        #expect(Set(resolver.railways(named: "Tokaido").map(\.id)) == ["JR-East.Tokaido", "JR-Central.Tokaido"])
        #expect(resolver.railways(named: "Keihin-Tohoku").map(\.id) == ["JR-East.KeihinTohokuNegishi"])
        #expect(resolver.railways(named: "Line").isEmpty)
        #expect(resolver.railways(named: "Hogwarts Express").isEmpty)
    }

    @Test func aDirectionIsItsNameOrAStationAhead() throws {
        let resolver = try Self.resolver()
        let toyoko = try #require(resolver.network.railway(id: "Tokyu.Toyoko"))
        let shibuya = "Tokyu.Toyoko.Shibuya"
        let towardsYokohama = try #require(resolver.direction(on: toyoko, from: shibuya, to: "Tokyu.Toyoko.Yokohama"))
        #expect(resolver.direction("Outbound", on: toyoko, from: nil) == .ascending)
        #expect(resolver.direction("inbound", on: toyoko, from: nil) == .descending)
        for text in ["Yokohama", "for Yokohama", "towards yokohama", "Yokohama-bound"] {
            #expect(resolver.direction(text, on: toyoko, from: shibuya) == towardsYokohama, "\(text)")
            #expect(resolver.direction(text, on: toyoko, from: "Tokyu.Toyoko.Kikuna") == towardsYokohama, "\(text)")
        }
        #expect(resolver.direction("for Shibuya", on: toyoko, from: "Tokyu.Toyoko.Kikuna") == towardsYokohama.reversed)
        #expect(resolver.direction("for Osaka", on: toyoko, from: shibuya) == nil)
        #expect(resolver.direction("for Shibuya", on: toyoko, from: shibuya) == nil, "already there")
    }

    @Test func aLoopLineGoesTheShorterWay() throws {
        let resolver = try Self.resolver()
        let yamanote = try #require(resolver.network.railway(id: "JR-East.Yamanote"))
        let stations = yamanote.stationIDs
        #expect(resolver.direction(on: yamanote, from: stations[0], to: stations[2]) == .ascending)
        #expect(resolver.direction(on: yamanote, from: stations[0], to: stations[stations.count - 2]) == .descending)
    }

    @Test func notesNameTheStationTheLineAndTheDirection() throws {
        let resolver = try Self.resolver()
        let full = resolver.place(notes: "Kawasaki (Tokaido Line) for Yokohama")
        #expect(full.station == "kawasaki" && full.railway == "tokaido line" && full.direction == "yokohama")
        let idOnly = resolver.place(notes: "Tokyu.Toyoko.Kikuna")
        #expect(idOnly.station == "tokyu toyoko kikuna" && idOnly.railway == nil)
        let lineFirst = resolver.place(notes: "Toyoko Line, Musashi-Kosugi, Outbound")
        #expect(lineFirst.station == "musashi kosugi" && lineFirst.railway == "toyoko line" && lineFirst.direction == "outbound")
        let nothing = resolver.place(notes: "coffee")
        #expect(nothing.station == nil && nothing.railway == nil && nothing.direction == nil)
    }
}
