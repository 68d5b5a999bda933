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
}
