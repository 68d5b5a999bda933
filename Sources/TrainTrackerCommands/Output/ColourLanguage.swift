import TrainTrackerCore

/// TrainTracker's one colour language, shared by the SVG pictures, the Session Viewer
/// (`viewer.css`, `dom.js`) and the docs (`docs/colours.md`): the focus station's phases,
/// the phases of a station's story, and speed in shades of one green, so no colour means two
/// things. A test checks that the viewer uses the same values.
enum ColourLanguage {
    /// The focus station's phase: Next blue, Soon orange, Now red.
    static let phases: [FocusPhase: String] = [.next: "#2166AC", .soon: "#E08214", .now: "#B2182B"]
    /// A station's story: approaching (as Soon), visiting (as Now), departure purple, passed
    /// grey, not reached light grey.
    static let story: [String: String] = [
        "approaching": "#E08214", "visiting": "#B2182B", "departure": "#5E3C99", "passed": "#8C8C8C", "unreached": "#D9D9D9",
    ]
    /// Speed, from standing (pale green) to 25 m/s and faster (dark green).
    static let speedRamp = (stopped: "rgb(199, 233, 192)", fast: "rgb(0, 68, 27)")

    /// A colour from the data (a railway's), as drawn on white: a plain hex colour (`#RGB`,
    /// `#RRGGBB`, with or without alpha) kept, but one paler than `palest` darkened to
    /// `darkenedTo` (Caltrain's `#DCDDDE` would vanish); anything else grey. The viewer's
    /// `safeColour` (dom.js) does the same, as a test checks.
    static func drawable(_ colour: String?) -> String {
        guard let colour, colour.hasPrefix("#"), [4, 5, 7, 9].contains(colour.count),
            colour.dropFirst().allSatisfy(\.isHexDigit)
        else { return fallback }
        let digits = Array(colour.dropFirst())
        let short = digits.count <= 4
        let channels = (0..<3).map { index -> Double in
            let text = short ? String([digits[index], digits[index]]) : String(digits[2 * index..<2 * index + 2])
            return Double(Int(text, radix: 16) ?? 0)
        }
        let lightness = (0.299 * channels[0] + 0.587 * channels[1] + 0.114 * channels[2]) / 255
        let scale = lightness > palest ? darkenedTo / lightness : 1
        return "#"
            + channels.map { channel in
                String(Int(displaying: (channel * scale).rounded()), radix: 16).leftPadded(2)
            }.joined()
    }

    /// A colour lighter than this (0 black, 1 white, by the eye's weights) is too pale on white ...
    static let palest = 0.75
    /// ... and is darkened to this lightness.
    static let darkenedTo = 0.6
    /// The colour of a railway whose data gives none that can be drawn.
    static let fallback = "#666666"
}
