import TrainTrackerCore
import TrainTrackerLab

/// A named set of rides that stresses one thing that makes tracking hard.
public struct Scenario: Sendable {
    /// The name used on the command line and in reports.
    public var name: String
    /// What it tests.
    public var summary: String
    /// Which rides it draws.
    public var filter: RideFilter

    /// Every named scenario. Tokyo ones need the Tokyo network and timetables; `caltrain`
    /// needs the Caltrain feed.
    public static let all: [Scenario] = {
        func ids(_ railways: [String], _ stations: [String]) -> Set<String> {
            Set(railways.flatMap { railway in stations.map { "\(railway).\($0)" } })
        }
        return [
            Scenario(
                name: "toyoko-meguro", summary: "Tokyu Toyoko and Meguro lines side by side from Den-en-chofu to Hiyoshi",
                filter: RideFilter(
                    railways: ["Tokyu.Toyoko", "Tokyu.Meguro"],
                    throughStations: ids(
                        ["Tokyu.Toyoko", "Tokyu.Meguro"], ["Tamagawa", "ShinMaruko", "MusashiKosugi", "Motosumiyoshi"]))),
            Scenario(
                name: "keihintohoku-tokaido",
                summary: "Keihin-Tohoku and Tokaido lines on parallel tracks from Tokyo to Yokohama",
                filter: RideFilter(
                    railways: ["JR-East.KeihinTohokuNegishi", "JR-East.Tokaido"],
                    throughStations: ids(
                        ["JR-East.KeihinTohokuNegishi", "JR-East.Tokaido"], ["Shinagawa", "Kawasaki", "Yokohama", "Shimbashi"]))),
            Scenario(
                name: "chuo-rapid-local", summary: "Chuo Rapid and Chuo-Sobu Local lines from Ochanomizu to Mitaka",
                filter: RideFilter(
                    railways: ["JR-East.ChuoRapid", "JR-East.ChuoSobuLocal"],
                    throughStations: ids(
                        ["JR-East.ChuoRapid", "JR-East.ChuoSobuLocal"], ["Yotsuya", "Shinjuku", "Nakano", "Ogikubo", "Kichijoji"])
                )),
            Scenario(
                name: "sobu-rapid-local", summary: "Sobu Rapid and Chuo-Sobu Local lines from Kinshicho to Chiba",
                filter: RideFilter(
                    railways: ["JR-East.SobuRapid", "JR-East.ChuoSobuLocal"],
                    throughStations: ids(
                        ["JR-East.SobuRapid", "JR-East.ChuoSobuLocal"],
                        ["Kinshicho", "Ichikawa", "Funabashi", "Tsudanuma", "Inage"]))),
            Scenario(
                name: "joban", summary: "Joban Rapid, Joban Local and Joban lines sharing the corridor north of Kita-Senju",
                filter: RideFilter(
                    railways: ["JR-East.JobanRapid", "JR-East.JobanLocal", "JR-East.Joban"],
                    throughStations: ids(
                        ["JR-East.JobanRapid", "JR-East.JobanLocal", "JR-East.Joban"],
                        ["Matsudo", "Kashiwa", "Abiko", "KitaSenju"]))),
            Scenario(
                name: "saikyo-shonan-yamanote", summary: "Saikyo, Shonan-Shinjuku and Yamanote lines from Osaki to Ikebukuro",
                filter: RideFilter(
                    railways: ["JR-East.SaikyoKawagoe", "JR-East.ShonanShinjuku", "JR-East.Yamanote"],
                    throughStations: ids(
                        ["JR-East.SaikyoKawagoe", "JR-East.ShonanShinjuku", "JR-East.Yamanote"],
                        ["Osaki", "Ebisu", "Shibuya", "Shinjuku", "Ikebukuro"]))),
            Scenario(
                name: "yamanote-loop", summary: "the Yamanote loop, rides of 4 to 12 stops in both directions",
                filter: RideFilter(railways: ["JR-East.Yamanote"], stops: 4...12)),
            Scenario(
                name: "express-local", summary: "express and local trains of one railway (Toyoko, Odakyu, Keikyu, Keio)",
                filter: RideFilter(railways: ["Tokyu.Toyoko", "Odakyu.Odawara", "Keikyu.Main", "Keio.Keio"], stops: 3...8)),
            Scenario(
                name: "underground",
                summary: "lines with underground sections, where GPS is lost (Tozai, Den-en-toshi, Tsukuba Express, Chiyoda)",
                filter: RideFilter(
                    railways: ["TokyoMetro.Tozai", "Tokyu.DenEnToshi", "MIR.TsukubaExpress", "TokyoMetro.Chiyoda"], stops: 4...10)
            ),
            Scenario(
                name: "transfer", summary: "a rider changes trains: a first ride, a walk to another line, a second ride",
                filter: RideFilter(
                    railways: [
                        "Tokyu.Toyoko", "JR-East.Yamanote", "JR-East.ChuoRapid", "TokyoMetro.Ginza", "Odakyu.Odawara",
                        "Keio.Keio",
                    ],
                    stops: 2...4, transfer: true)),
            Scenario(
                name: "caltrain", summary: "Caltrain Local, Limited and Baby Bullet on one track (Caltrain GTFS)",
                filter: RideFilter(railways: ["Lo-129", "Li-129", "Bu-129"], stops: 3...10)),
        ].map { scenario in
            var scenario = scenario
            scenario.filter.name = scenario.name
            return scenario
        }
    }()

    /// Whether `network` has every railway the scenario rides.
    public func applies(to network: RailwayNetwork) -> Bool {
        filter.railways.allSatisfy { network.railway(id: $0) != nil }
    }
}
