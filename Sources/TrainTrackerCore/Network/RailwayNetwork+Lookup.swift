/// Finding a railway or a station the way a person names it: by its id or by its name, and
/// when neither matches, the closest names to suggest.
extension RailwayNetwork {
    /// The railway whose id is `query`, or else the one railway whose name is `query`
    /// (letter case aside).
    ///
    ///     network.railway(matching: "local weekday")  // the railway "Local Weekday"
    ///
    /// - Complexity: O(1) for an id, O(R) for a name, R railways.
    public func railway(matching query: String) -> Railway? {
        if let railway = railway(id: query) { return railway }
        let key = query.lowercased()
        let named = railways.filter { $0.name.lowercased() == key }
        return named.count == 1 ? named[0] : nil
    }

    /// The station of `railway` whose id is `query`, or else the one whose name is `query`,
    /// or else the one whose name starts with it (letter case aside): "San Francisco" finds
    /// "San Francisco Caltrain Station" when no other station's name starts so.
    ///
    /// - Complexity: O(S) for the railway's S stations.
    public func station(matching query: String, on railway: Railway) -> Station? {
        let stations = stations(of: railway)
        if let station = stations.first(where: { $0.id == query }) { return station }
        let key = query.lowercased()
        let named = stations.filter { $0.name.lowercased() == key }
        if named.count == 1 { return named[0] }
        let starting = stations.filter { $0.name.lowercased().hasPrefix(key) }
        return !key.isEmpty && starting.count == 1 ? starting[0] : nil
    }

    /// Up to `limit` railway ids and names closest to `query`, closest first, for an
    /// "unknown railway" message.
    public func railwaySuggestions(for query: String, limit: Int = 3) -> [String] {
        closestNames(to: query, among: railways.flatMap { [$0.id, $0.name] }, limit: limit)
    }

    /// Up to `limit` station names (and ids) of `railway` closest to `query`.
    public func stationSuggestions(for query: String, on railway: Railway, limit: Int = 3) -> [String] {
        closestNames(to: query, among: stations(of: railway).flatMap { [$0.name, $0.id] }, limit: limit)
    }
}

/// Up to `limit` of `candidates` closest to `query`, closest first, each once: those that
/// contain it (or that it contains, three letters or more) before the rest, then by edit distance to the candidate
/// or to its start (a station's name is often longer than what a person types), letter case
/// aside. A candidate more than half the query's length away is no suggestion.
///
///     closestNames(to: "Local Wekday", among: ["Local Weekday", "Limited"])  // ["Local Weekday"]
///
/// - Complexity: O(N · Q · C) for N candidates of length C and a query of length Q.
public func closestNames(to query: String, among candidates: [String], limit: Int = 3) -> [String] {
    let lowered = query.lowercased()
    let key = Array(lowered)
    var seen = Set<String>()
    var ranked: [(contains: Bool, distance: Int, name: String)] = []
    for candidate in candidates where seen.insert(candidate).inserted {
        let loweredName = candidate.lowercased()
        let name = Array(loweredName)
        // (A name of one or two letters, an id like "L", is in too many queries to say anything.)
        let contains =
            !key.isEmpty && (loweredName.contains(lowered) || (name.count >= 3 && lowered.contains(loweredName)))
        let distance = min(editDistance(key, name), editDistance(key, Array(name.prefix(key.count))) + 1)
        guard contains || distance <= max(key.count, 4) / 2 else { continue }
        ranked.append((contains, distance, candidate))
    }
    ranked.sort { ($0.contains ? 0 : 1, $0.distance, $0.name) < ($1.contains ? 0 : 1, $1.distance, $1.name) }
    return ranked.prefix(max(0, limit)).map(\.name)
}

/// The Levenshtein distance between two strings of characters.
///
/// - Complexity: O(A · B) time, O(B) memory.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
