import Foundation
import Testing
import TrainTrackerStorage
import TrainTrackerTestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite(.tags(.sharedData)) struct PictureTests {
    /// Counts elements by name while checking that the document is well-formed XML.
    final class ElementCounter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        var texts: [String] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            counts[name, default: 0] += 1
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    @Test func replayDrawsEachSessionAsAWellFormedSVGMapAndTimeline() throws {
        let network = try RailwayDatabase.load(path: SharedPaths.tokyoRailways)
        let directory = try TemporaryDirectory()
        let sessions = directory.path("s.sqlite")
        let count = try writeToyokoSession(to: sessions, network: network)
        let pictures = directory.path("pictures")
        let outcome = try ToolRunner.run([
            "replay", "--railways", SharedPaths.tokyoRailways, "--sessions", sessions, "--svg", pictures,
        ])
        #expect(outcome.status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: pictures).appendingPathComponent("TOYOKO-1.svg"))
        let parser = XMLParser(data: data)
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "well-formed: \(String(describing: parser.parserError))")
        #expect(counter.counts["svg"] == 1)
        // One dot per fix on the map, plus station markers and the legend.
        #expect((counter.counts["circle"] ?? 0) >= count)
        #expect((counter.counts["path"] ?? 0) >= 1, "the Toyoko track is drawn")
        let text = counter.texts.joined()
        #expect(text.contains("Toyoko Line"))
        #expect(text.contains("Tsunashima"))
        #expect(text.contains("Answer over time"))
    }
}
