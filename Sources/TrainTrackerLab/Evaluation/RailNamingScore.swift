import TrainTrackerCore

/// How well a diary named the logged metro and train legs it found as rail: the line (any
/// metro line counts, as logs name metro directions, not lines) and the stations at both ends.
public struct RailNamingScore: Hashable, Sendable {
    /// Logged rail legs.
    public var logged = 0
    /// ... found as a rail leg the diary named.
    public var named = 0
    /// ... whose named lines include the logged line.
    public var lineRight = 0
    /// ... named with the logged line alone.
    public var lineAlone = 0
    /// ... with both stations right.
    public var stationsRight = 0

    /// Scores the named rail legs `detected` against `log`.
    public init(detected: [(leg: LoggedLeg, name: RailLegName)], log: [LoggedLeg]) {
        for truth in log where truth.kind == .rail {
            logged += 1
            let length = truth.end.seconds(since: truth.start)
            let best = detected.filter { $0.leg.device == truth.device }.map { candidate in
                (candidate.name, min(candidate.leg.end, truth.end).seconds(since: max(candidate.leg.start, truth.start)))
            }.max { $0.1 < $1.1 }
            guard length > 0, let (name, overlap) = best, overlap >= length / 2 else { continue }
            named += 1
            let isMetro = truth.label.uppercased().hasPrefix("SUBWAY") || truth.label.uppercased().hasPrefix("METRO")
            if isMetro ? name.kind == "metro" : truth.line.map({ name.lines.contains($0) }) ?? false { lineRight += 1 }
            if isMetro ? name.kind == "metro" : truth.line.map({ name.lines == [$0] }) ?? false { lineAlone += 1 }
            if let from = truth.from, let to = truth.to, Self.names(from, name.from), Self.names(to, name.to) {
                stationsRight += 1
            }
        }
    }

    /// Whether a log's words for a stop ("Sörnäinen(M)", "Tikkurila st. Track 3") name `station`.
    public static func names(_ words: String, _ station: RailStation) -> Bool {
        let text = normalised(words)
        guard text.count >= 4 else { return false }
        return ([station.name] + station.aliases).map(normalised).contains { name in
            !name.isEmpty && (text.hasPrefix(name) || name.hasPrefix(text))
        }
    }

    /// Lower case, "(M)" and digits dropped, "st." read as "station", spaces single.
    static func normalised(_ text: String) -> String {
        var text = text.lowercased().replacingAll("(m)", with: " ").replacingAll("st.", with: "station ")
        text = String(text.map { $0.isNumber || $0 == "." || $0 == "," ? " " : $0 })
        return text.split(separator: " ").joined(separator: " ")
    }
}

extension String {
    /// `self` with every `target` replaced (no Foundation in this module).
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        let characters = Array(self)
        let pattern = Array(target)
        guard !pattern.isEmpty else { return self }
        var result = ""
        var index = 0
        while index < characters.count {
            if index + pattern.count <= characters.count, Array(characters[index..<index + pattern.count]) == pattern {
                result += replacement
                index += pattern.count
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result
    }
}
