import TrainTrackerCore

/// Finds the stations, railways and directions a rider's log names, as a person would write
/// them: by id, or by name whatever the case, spaces, dashes and macrons (`Musashi-Kosugi`,
/// `musashi kosugi`, `Okurayama` for `Ōkurayama`), with or without `Line` or `Station`.
public struct LoggedPlaceResolver: Sendable {
    /// The network names are looked up in.
    public let network: RailwayNetwork
    /// Station indices by each of their keys (names, id, id without the railway).
    private let stationsByKey: [String: [Int]]
    /// Station indices by each word of their names, for names given in part.
    private let stationsByWord: [String: [Int]]
    /// Per railway: its whole-name keys, and the words of its names and id.
    private let railwayNames: [(keys: Set<String>, words: Set<String>)]
    /// The keys of every railway's direction names.
    private let directionKeys: Set<String>

    /// Words that say "a railway" rather than which one.
    static let railwayFillers: Set<String> = ["line", "railway", "railroad", "rail", "train", "線"]
    /// Words that say "a station" rather than which one.
    static let stationFillers: Set<String> = ["station", "sta", "stn", "eki", "駅"]
    /// How many characters of notes are read.
    static let notesReadLength = 300
    /// Words before a direction's station: `for Yokohama`, `towards Yokohama`.
    static let directionLeads: Set<String> = ["for", "to", "towards", "toward", "bound"]
    /// Words after one: `Yokohama-bound`, `Yokohama direction`, `横浜方面`.
    static let directionTails: Set<String> = ["bound", "direction", "方面", "行き", "行"]

    /// A resolver over `network`.
    ///
    /// - Complexity: O(n) in the number of stations and railways.
    public init(network: RailwayNetwork) {
        self.network = network
        var byKey: [String: [Int]] = [:]
        var byWord: [String: [Int]] = [:]
        for (index, station) in network.stations.enumerated() {
            var keys: Set<String> = [Self.key(station.id), Self.key(station.name)]
            for name in station.names.values { keys.insert(Self.key(name)) }
            let prefix = station.railwayID + "."
            if station.id.hasPrefix(prefix) { keys.insert(Self.key(station.id.dropFirst(prefix.count))) }
            for key in keys where !key.isEmpty { byKey[key, default: []].append(index) }
            let words = Set(([station.name] + station.names.values).flatMap { Self.words($0) })
            for word in words.subtracting(Self.stationFillers) { byWord[word, default: []].append(index) }
        }
        stationsByKey = byKey
        stationsByWord = byWord
        railwayNames = network.railways.map { railway in
            let names = [railway.name] + railway.names.values
            var keys: Set<String> = [Self.key(railway.id)]
            if let last = railway.id.split(separator: ".").last { keys.insert(Self.key(last)) }
            for name in names {
                keys.insert(Self.key(name))
                keys.insert(Self.key(Self.words(name).filter { !Self.railwayFillers.contains($0) }.joined()))
            }
            keys.remove("")
            let words = Set(names.flatMap { Self.words($0) } + Self.words(railway.id, splittingCamelCase: true))
            return (keys, words.subtracting(Self.railwayFillers))
        }
        // Names such as `TokyoMetro.Asakusa` are stations: notes name them after `for`.
        directionKeys = Set(
            network.railways.flatMap { [$0.ascendingName, $0.descendingName] }.filter { !$0.contains(".") }.map { Self.key($0) }
        )
    }

    // MARK: Stations and railways

    /// The stations `text` names: the station with that id, else every station (one per
    /// railway) whose name, in any language, or id reads the same once case, spaces, dashes,
    /// accents and a `Station` word are set aside; else, when a part of a name is given
    /// (`San Francisco` for `San Francisco Caltrain`), the stations of the one name holding
    /// all its words. Empty when nothing or several names match.
    ///
    ///     resolver.stations(named: "musashi-kosugi")  // the Toyoko, Meguro, Nambu... stations
    ///
    /// - Complexity: O(m) in the number of stations matched.
    public func stations(named text: some StringProtocol) -> [Station] {
        if let station = network.station(id: String(text)) { return [station] }
        let words = Self.words(text).filter { !Self.stationFillers.contains($0) }
        if let exact = stationsByKey[Self.key(text)] ?? stationsByKey[words.joined()] {
            return exact.map { network.stations[$0] }
        }
        guard let first = words.first, var indices = stationsByWord[first].map(Set.init) else { return [] }
        for word in words.dropFirst() { indices.formIntersection(stationsByWord[word] ?? []) }
        let stations = indices.sorted().map { network.stations[$0] }
        // A part of one name only: "Musashi" names a dozen stations and none of them.
        return Set(stations.map { Self.key($0.name) }).count == 1 ? stations : []
    }

    /// The railways `text` names: the railway with that id, else those whose name (in any
    /// language, with or without `Line`) or id reads the same, else those whose names and id
    /// hold every word of `text` (`Tokyu Toyoko`, `JR Tokaido`).
    ///
    /// - Complexity: O(r) in the number of railways.
    public func railways(named text: some StringProtocol) -> [Railway] {
        if let railway = network.railway(id: String(text)) { return [railway] }
        let words = Self.words(text).filter { !Self.railwayFillers.contains($0) }
        guard !words.isEmpty else { return [] }
        let keys: Set<String> = [Self.key(text), words.joined()]
        let exact = railwayNames.indices.filter { !railwayNames[$0].keys.isDisjoint(with: keys) }
        if !exact.isEmpty { return exact.map { network.railways[$0] } }
        return railwayNames.indices.filter { railwayNames[$0].words.isSuperset(of: words) }.map { network.railways[$0] }
    }

    // MARK: Directions

    /// The direction `text` names on `railway` for a train at `stationID`: the railway's
    /// name for a direction (`Outbound`, or the last part of `TokyoMetro.Asakusa`), else a
    /// station of the railway that lies ahead that way (`Yokohama`, `for Yokohama`,
    /// `Yokohama-bound`). `nil` when it names neither.
    public func direction(_ text: some StringProtocol, on railway: Railway, from stationID: String?) -> TravelDirection? {
        let words = Self.words(text)
        let key = Self.key(text)
        for direction in TravelDirection.allCases {
            let name = railway.name(of: direction)
            if key == Self.key(name) || name.split(separator: ".").last.map({ Self.key($0) }) == key {
                return direction
            }
        }
        var core = words[...]
        while let first = core.first, Self.directionLeads.contains(first) { core = core.dropFirst() }
        while let last = core.last, Self.directionTails.contains(last) { core = core.dropLast() }
        guard let stationID, !core.isEmpty,
            let target = stations(named: core.joined(separator: " ")).first(where: { $0.railwayID == railway.id })
        else { return nil }
        return direction(on: railway, from: stationID, to: target.id)
    }

    /// The direction a train on `railway` takes from `origin` to `destination` (on a loop,
    /// the shorter way); `nil` when either is not on it or they are the same station.
    ///
    /// - Complexity: O(n) in the railway's stations.
    public func direction(on railway: Railway, from origin: String, to destination: String) -> TravelDirection? {
        guard let from = railway.stationIDs.firstIndex(of: origin), let to = railway.stationIDs.firstIndex(of: destination),
            from != to
        else { return nil }
        guard railway.isLoop else { return to > from ? .ascending : .descending }
        let count = railway.stationIDs.count
        let ahead = (to - from + count) % count
        return ahead <= count - ahead ? .ascending : .descending
    }

    // MARK: Notes

    /// The station, railway and direction free-text notes name, each as its words in the
    /// notes: `Kawasaki (Tokaido Line) for Yokohama` gives `Kawasaki`, `Tokaido Line` and
    /// `Yokohama`. The longest run of words naming a station or railway is taken first; a
    /// station after `for`, `to` or `towards` (or before `bound`) is the direction, as is a
    /// railway's direction name (`Outbound`).
    ///
    /// Only the first 300 characters are read.
    ///
    /// - Complexity: O(w · s · r) for w words, runs of up to s = 6 words and r railways.
    public func place(notes: some StringProtocol) -> (station: String?, railway: String?, direction: String?) {
        // Notes name a place in a few words: a novel pasted into them is not searched.
        let tokens = Array(Self.words(notes.prefix(Self.notesReadLength)))
        var station: String?
        var railway: String?
        var direction: String?
        var index = 0
        while index < tokens.count {
            let lead = index > 0 && Self.directionLeads.contains(tokens[index - 1]) && tokens[index - 1] != "bound"
            var matched = false
            for length in stride(from: min(6, tokens.count - index), through: 1, by: -1) {
                let run = tokens[index..<(index + length)].joined(separator: " ")
                let tail = index + length < tokens.count && Self.directionTails.contains(tokens[index + length])
                let namesStation = !stations(named: run).isEmpty
                let namesRailway = !railways(named: run).isEmpty && tokens[index + length - 1] != "station"
                if direction == nil, directionKeys.contains(Self.key(run)) || (namesStation && (lead || tail)) {
                    direction = run
                } else if namesStation, station == nil {
                    station = run
                } else if namesRailway, railway == nil {
                    railway = run
                } else {
                    continue
                }
                index += length
                matched = true
                break
            }
            if !matched { index += 1 }
        }
        return (station, railway, direction)
    }

    // MARK: Keys

    /// `text` as a comparable key: lower case, accents and macrons dropped, letters and digits only.
    static func key(_ text: some StringProtocol) -> String {
        words(text).joined()
    }

    /// The words of `text`, lower case without accents: `Keihin-Tohoku Line` → `keihin`,
    /// `tohoku`, `line`; with `splittingCamelCase`, `JR-East.KeihinTohoku` → `jr`, `east`,
    /// `keihin`, `tohoku`.
    static func words(_ text: some StringProtocol, splittingCamelCase: Bool = false) -> [String] {
        var words: [String] = []
        var word = ""
        var previousWasLower = false
        for character in text {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty { words.append(word) }
                word = ""
                previousWasLower = false
                continue
            }
            if splittingCamelCase, character.isUppercase, previousWasLower, !word.isEmpty {
                words.append(word)
                word = ""
            }
            previousWasLower = character.isLowercase
            for folded in character.lowercased() { word.append(Self.plainLetters[folded] ?? folded) }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// Latin letters with accents, as riders type them without.
    private static let plainLetters: [Character: Character] = {
        let groups: [(Character, String)] = [
            ("a", "āáàâäãå"), ("e", "ēéèêë"), ("i", "īíìîï"), ("o", "ōóòôöõø"), ("u", "ūúùûü"), ("n", "ñ"), ("c", "ç"),
        ]
        var table: [Character: Character] = [:]
        for (plain, accented) in groups { for letter in accented { table[letter] = plain } }
        return table
    }()
}
