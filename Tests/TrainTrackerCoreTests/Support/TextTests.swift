import Testing

@testable import TrainTrackerCore

/// Text from outside in pictures and tables: escaped for XML, control characters made harmless.
@Suite struct TextTests {
    @Test(arguments: [
        ("Kamppi", "Kamppi"), ("<script>&\"", "&lt;script&gt;&amp;&quot;"), ("a\tb\nc\rd", "a\tb\nc\rd"),
        ("V\u{07}\u{1B}[31mRED\u{00}", "V\u{FFFD}\u{FFFD}[31mRED\u{FFFD}"), ("Sörnäinen ✓", "Sörnäinen ✓"),
    ])
    func xmlEscapingLeavesNothingXMLForbids(_ text: String, _ escaped: String) {
        #expect(text.xmlEscaped == escaped)
        // Nothing below U+0020 survives but tab, line feed and carriage return.
        #expect(text.xmlEscaped.unicodeScalars.allSatisfy { $0.value >= 0x20 || [0x09, 0x0A, 0x0D].contains($0.value) })
    }

    @Test func printableTextCannotMoveTheTerminal() {
        #expect("Pasila\u{07}\u{1B}[2J".printable == "Pasila\u{FFFD}\u{FFFD}[2J")
        #expect("Itäkeskus → Kamppi".printable == "Itäkeskus → Kamppi")
    }
}
