/// A raster tile server for the Session Viewer's base map: an XYZ URL template and the
/// attribution its licence asks for. The viewer loads tiles from its origin alone (the
/// Content Security Policy names it), and shows the attribution as text.
public struct TileSource: Hashable, Sendable {
    /// The template, with `{z}`, `{x}` and `{y}` (and optionally `{s}` for subdomains `a`-`c`).
    public let template: String
    /// Who the map is by, shown in the map's corner.
    public let attribution: String
    /// `scheme://host[:port]`, what the policy allows images from; with `{s}` in the host, the
    /// hosts of `a`, `b` and `c`.
    public let origins: [String]

    /// The longest template and attribution, in bytes.
    static let maximumBytes = 512

    /// Checks `template`: http or https, a host of letters, digits, dots, hyphens and `{s}`, an
    /// optional port, a path with `{z}`, `{x}` and `{y}` and none of the characters that could
    /// end a policy or a string (space, quote, semicolon, comma, backslash, angle brackets).
    ///
    /// - Throws: `ServerError.badTiles` saying what is wrong.
    public init(template: String, attribution: String) throws(ServerError) {
        func bad(_ problem: String) -> ServerError { .badTiles(template: template, problem: problem) }
        guard template.utf8.count <= Self.maximumBytes, attribution.utf8.count <= Self.maximumBytes else {
            throw bad("the template and the attribution must be at most \(Self.maximumBytes) bytes")
        }
        guard template.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && !"\"';,\\<>`".unicodeScalars.contains($0) })
        else { throw bad("it holds a space, a quote, a semicolon, a comma, a backslash or an angle bracket") }
        guard let schemeEnd = template.range(of: "://"), ["http", "https"].contains(template[..<schemeEnd.lowerBound])
        else { throw bad("it must start with http:// or https://") }
        let rest = template[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let hostPart = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = hostPart[0]
        let hostAllowed = host.replacingOccurrences(of: "{s}", with: "a").allSatisfy {
            $0.isLetter || $0.isNumber || $0 == "." || $0 == "-"
        }
        guard !host.isEmpty, hostAllowed, !authority.contains("@") else { throw bad("its host must be a plain name") }
        var port = ""
        if hostPart.count == 2 {
            guard hostPart[1].allSatisfy(\.isASCII), hostPart[1].allSatisfy(\.isNumber), let number = Int(hostPart[1]),
                (1...65_535).contains(number)
            else { throw bad("its port must be 1 to 65535") }
            port = ":\(number)"
        }
        for placeholder in ["{z}", "{x}", "{y}"] where !rest.contains(placeholder) {
            throw bad("it must contain {z}, {x} and {y}")
        }
        // Leaflet knows {z}, {x}, {y}, {s} and {r}; another would fail on every tile.
        let known = ["{z}", "{x}", "{y}", "{s}", "{r}"].reduce(String(rest)) { $0.replacingOccurrences(of: $1, with: "0") }
        guard !known.contains("{"), !known.contains("}") else {
            throw bad("its only placeholders may be {z}, {x}, {y}, {s} and {r}")
        }
        let scheme = String(template[..<schemeEnd.lowerBound])
        let hosts =
            host.contains("{s}") ? ["a", "b", "c"].map { host.replacingOccurrences(of: "{s}", with: $0) } : [String(host)]
        self.template = template
        self.attribution = attribution.isEmpty ? "Map tiles: \(hosts[0])" : attribution
        origins = hosts.map { "\(scheme)://\($0)\(port)" }
    }
}
