import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerCommands

/// One colour language everywhere: the SVG pictures' phase and story colours are the Session
/// Viewer's (its style sheet and script) and the docs', and no phase colour is a speed colour.
@Suite struct ColourLanguageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theViewerAndTheDocsUseThePicturesColours() throws {
        let css = try Self.text("Sources/TrainTrackerServer/Viewer/viewer.css")
        let script = try Self.text("Sources/TrainTrackerServer/Viewer/dom.js")
        let docs = try Self.text("docs/colours.md")
        for (phase, colour) in ColourLanguage.phases {
            #expect(css.contains(".phase.\(phase.rawValue) { background: \(colour); }"), "viewer.css: \(phase)")
            #expect(script.contains("\(phase.rawValue): \"\(colour)\""), "dom.js: \(phase)")
            #expect(docs.contains("`\(colour)`"), "docs/colours.md: \(phase)")
        }
        for (name, colour) in ColourLanguage.story {
            #expect(script.contains("\(name): \"\(colour)\""), "dom.js: \(name)")
            #expect(docs.contains("`\(colour)`"), "docs/colours.md: \(name)")
        }
        for value in [ColourLanguage.speedRamp.stopped, ColourLanguage.speedRamp.fast] {
            #expect(css.contains(value), "viewer.css: the speed ramp")
            let numbers = value.dropFirst(4).dropLast()
            #expect(script.contains("[\(numbers)]"), "dom.js: the speed ramp \(numbers)")
        }
    }

    /// A railway's colour as drawn on white (the Session Viewer's browser test asks the
    /// viewer's `safeColour` the same).
    @Test(arguments: RailwayColourCases.drawn)
    func aPaleOrBrokenRailwayColourIsDrawnVisibly(colour: String, drawn: String) {
        #expect(ColourLanguage.drawable(colour) == drawn)
    }

    @Test func noPhaseColourIsAlsoASpeedOrAnotherPhase() {
        let phases = Array(ColourLanguage.phases.values)
        #expect(Set(phases).count == phases.count)
        // Speed is a ramp of one green: its hue is far from every phase's.
        func hue(_ hex: String) -> Double {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            let (r, g, b) = (Double(value >> 16) / 255, Double((value >> 8) & 0xFF) / 255, Double(value & 0xFF) / 255)
            let (high, low) = (max(r, g, b), min(r, g, b))
            guard high > low else { return 0 }
            let degrees: Double =
                high == r
                ? 60 * (g - b) / (high - low) : high == g ? 60 * (2 + (b - r) / (high - low)) : 60 * (4 + (r - g) / (high - low))
            return (degrees + 360).truncatingRemainder(dividingBy: 360)
        }
        let green = hue("#00441B")
        for colour in phases + [ColourLanguage.story["departure"] ?? ""] {
            let apart = abs(hue(colour) - green)
            #expect(min(apart, 360 - apart) > 60, "\(colour) is far from the speed green")
        }
    }
}
