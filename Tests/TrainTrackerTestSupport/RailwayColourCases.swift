/// Railway colours from the data and how they are drawn on white: the pictures'
/// `ColourLanguage.drawable` and the viewer's `safeColour` are both held to this table.
public enum RailwayColourCases {
    /// (the data's colour, the colour drawn).
    public static let drawn: [(String, String)] = [
        ("#DCDDDE", "#98999a"),
        ("#e31837", "#e31837"),
        ("#FFF", "#999999"),
        ("#fff8", "#999999"),
        ("#00000080", "#000000"),
        ("red", "#666666"),
        ("#12345", "#666666"),
        ("\"/><script>", "#666666"),
        ("", "#666666"),
    ]
}
