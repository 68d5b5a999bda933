import Testing

@testable import TrainTrackerImport

/// The pure-Swift XML reader behind GPX: what it reads, and what it refuses with a line.
@Suite struct XMLScannerTests {
    func events(_ text: String) throws(XMLScanner.Failure) -> [XMLScanner.Event] {
        var scanner = XMLScanner(Array(text.utf8))
        var events: [XMLScanner.Event] = []
        while let event = try scanner.next() { events.append(event) }
        return events
    }

    @Test func elementsAttributesTextAndReferences() throws {
        let events = try events(
            #"<?xml version="1.0"?><!-- c --><!DOCTYPE gpx [<!ENTITY x "y">]><a k='1 &amp; 2' j="&#x41;&#66;"><b/>t&lt;u<![CDATA[<raw>]]></a>"#
        )
        #expect(
            events == [
                .start(name: "a", attributes: ["k": "1 & 2", "j": "AB"]), .start(name: "b", attributes: [:]), .end(name: "b"),
                .text("t<u"), .text("<raw>"), .end(name: "a"),
            ])
    }

    @Test func nothingGivesNoEvents() throws {
        #expect(try events("").isEmpty)
        #expect(try events("  \n").map { $0 } == [.text("  \n")])
    }

    /// Inputs that crashed Foundation's XMLParser under libFuzzer, and other malformed ones.
    @Test(arguments: [
        ("<?xml1.Dou0?>\"<gpr sleo", 1, "the file ends inside <gpr>"),
        ("<a></b>", 1, "</b> closes <a>"),
        ("</a>", 1, "</a> closes nothing"),
        ("<a k=1>", 1, "attribute 'k' of <a> has no quoted value"),
        ("<a>\n&bogus;</a>", 2, "unknown reference '&bogus;'"),
        ("<a>&#xFFFFFFFF;</a>", 1, "unknown reference '&#xFFFFFFFF;'"),
        ("<a><!-- open", 1, "the file ends inside a comment"),
        ("<>", 1, "a tag without a name"),
    ])
    func malformedDocumentsAreRefusedWithALine(text: String, line: Int, problem: String) {
        #expect(throws: XMLScanner.Failure(line: line, problem: problem)) { try events(text) }
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "<a>", count: XMLScanner.maximumDepth + 1)
        #expect(throws: XMLScanner.Failure(line: 1, problem: "elements nested deeper than 256")) { try events(deep) }
    }
}
