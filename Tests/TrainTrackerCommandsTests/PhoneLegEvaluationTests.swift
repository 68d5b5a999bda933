import Foundation
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCommands

/// `evaluate` on every metro and train leg of the Helsinki phones' manual log, on the 2016
/// rail lines (docs/helsinki/rail-lines-2016.json).
@Suite(.tags(.sharedData)) struct PhoneLegEvaluationTests {
    static var helsinki: URL { SharedPaths.data.appendingPathComponent("helsinki") }
    static var stationList: String { helsinki.appendingPathComponent("trainStations.json").path }
    static var manualLog: String { helsinki.appendingPathComponent("manual_log.csv").path }

    @Test func everyRailLegIsScoredAndTheMetroIsNamed() throws {
        let directory = try TemporaryDirectory()
        let (phones, _) = try ModesCommandTests.imported(into: directory)
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.helsinkiLines, "--stations", Self.stationList, "--sessions", phones, "--log",
            Self.manualLog, "--utc-offset", "+03:00", "--algorithm", "default", "--svg", directory.path("legs.svg"),
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("warning"), "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        // One row per logged SUBWAY and TRAIN leg: 58 and 9.
        #expect(lines.filter { $0.hasPrefix("default ") && $0.contains("SUBWAY") }.count == 58)
        #expect(lines.filter { $0.hasPrefix("default ") && $0.contains("TRAIN") }.count == 9)
        // Phone 2's ring-rail ride is scored on the half of the I/P ring it ran on.
        let ring = try #require(lines.first { $0.contains("TRAIN I") && $0.contains("Vantaankoski → Huopalahti") })
        #expect(ring.contains("I/P "))
        // Phone 3's fixes from a Wi-Fi access point placed 27 km away, again and again on its
        // ride from Kamppi to Kulosaari, are left out: the direction holds (it was 0 % right).
        let wild = try #require(lines.first { $0.contains("14:42:40") && $0.contains("Kamppi → Kulosaari") })
        let wildShares = wild.split(separator: "%").compactMap { Double($0.split(separator: " ").last ?? "") }
        #expect(wildShares.count >= 2 && wildShares[1] >= 90, "\(wild)")
        // Totals: measured line 86.8 % of 863 fixes (metro 100 %, train 39.7 %), direction
        // 84.0 %, next stop 93.8 %.
        func shares(_ label: String) throws -> [Double] {
            let row = try #require(lines.first { $0.hasPrefix(label) }, "\(label) in \(outcome.standardOutput)")
            return row.split(separator: "%").compactMap { Double($0.split(separator: " ").last ?? "") }
        }
        let all = try shares("default all ")
        let metro = try shares("default metro ")
        // (line, direction, next stop, stop shown right, undecided, alighting)
        #expect(all.count == 6 && metro.count == 6)
        #expect(metro[0] >= 95 && all[0] >= 80 && all[1] >= 78 && all[2] >= 88, "\(all) \(metro)")
        // A stop named is a subset of the next stops right; the two metro lines share their
        // track to Itäkeskus, and the answer says so there.
        #expect(all[3] <= all[2] && all[3] >= 85 && metro[4] > 20, "\(all) \(metro)")
        // The picture: a row per leg with fixes, a mark per fix, the answer in its title.
        let picture = try String(contentsOfFile: directory.path("legs.svg"), encoding: .utf8)
        #expect(picture.contains("phone 2 · TRAIN I · 15:39 Vantaankoski → Huopalahti</text>"))
        #expect(picture.components(separatedBy: "<circle").count > 800)
        #expect(
            picture.contains("#27AE60") && picture.contains("#C0392B")
                && picture.contains(": metro Ruoholahti–Vuosaari: metro to"))
    }

    @Test func onHSLsRealTrackTheTrainLegsAreNamedFarMoreOften() throws {
        let directory = try TemporaryDirectory()
        let (phones, _) = try ModesCommandTests.imported(into: directory)
        let shapes = Self.helsinki.appendingPathComponent("hsl-2022/rail-metro-shapes.geojson").path
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.helsinkiLines, "--stations", Self.stationList, "--track", shapes,
            "--sessions", phones, "--log", Self.manualLog, "--utc-offset", "+03:00", "--algorithm", "default", "--format",
            "json",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // Every line, the I/P ring's halves among them, fits a shape: none is drawn straight.
        #expect(!outcome.standardError.contains("warning"), "\(outcome.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(report["track"] as? String == "track cut from rail-metro-shapes.geojson")
        let legs = try #require(report["legs"] as? [[String: Any]])
        #expect(legs.count == 67)
        let totals = try #require(report["totals"] as? [[String: Any]])
        func share(_ kind: String, _ key: String) -> Double? {
            let total = totals.first { $0["kind"] as? String == kind }
            return (total?["shares"] as? [String: Any])?[key] as? Double
        }
        // Measured: train legs' line 69.3 % (39.7 % on straight track), next stop 90.9 %
        // (79.4 %); the alighting station named on every last stretch (78.4 %); the metro's
        // line on every fix.
        #expect((share("train", "line") ?? 0) >= 0.6, "\(totals)")
        #expect((share("train", "nextStop") ?? 0) >= 0.85, "\(totals)")
        #expect((share("all", "alighting") ?? 0) >= 0.95, "\(totals)")
        #expect((share("metro", "line") ?? 0) >= 0.95, "\(totals)")
        // The ring's airport legs, 0 % and 25 % on straight track, are named on the real one.
        let airport = try #require(legs.first { $0["from"] as? String == "Lentoasema" })
        #expect(((airport["shares"] as? [String: Any])?["line"] as? Double ?? 0) >= 0.9, "\(airport)")
    }

    @Test func theRailLinesImportAsAnEkiFileOtherCommandsRead() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("helsinki-rail.sqlite")
        let imported = try ToolRunner.run(["import", SharedPaths.helsinkiLines, "--stations", Self.stationList, "--out", out])
        #expect(imported.status == 0, "\(imported.standardError)")
        let network = try ToolRunner.run(["network", "--railways", out])
        #expect(network.status == 0, "\(network.standardError)")
        // Two metro branches, the I/P ring in two halves, and A, E, K, L, U.
        #expect(network.standardOutput.contains("railways         9"), "\(network.standardOutput)")
    }

    @Test func railLinesWithoutTheirStationListAreRefusedNamingTheFile() throws {
        let outcome = try ToolRunner.run(["network", "--railways", SharedPaths.helsinkiLines])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains(SharedPaths.helsinkiLines) && outcome.standardError.contains("--stations"))
    }

    @Test func aLogOnAnotherClockThanThePhonesIsPointedOut() throws {
        let directory = try TemporaryDirectory()
        let (phones, _) = try ModesCommandTests.imported(into: directory)
        // The log's local times read as UTC: every leg looks three hours off for its fixes.
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.helsinkiLines, "--stations", Self.stationList, "--sessions", phones, "--log",
            Self.manualLog, "--algorithm", "default",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("warning: \(Self.manualLog): only "), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("--utc-offset"))
    }

    @Test func aPhoneIsNamedByAWholeNumberInItsSessionsNotes() {
        #expect(DiaryCommand.device(in: "imported from device_data.csv (device_id 8)") == 8)
        #expect(DiaryCommand.device(in: "device_id 1.5") == nil)
        #expect(DiaryCommand.device(in: "device_id 99999999999999999999") == nil)
        #expect(DiaryCommand.device(in: "device_id -1") == nil)
        #expect(DiaryCommand.device(in: nil) == nil)
    }

    @Test func aLogThatIsNoLogIsNamedBeforeAnyOptionIsBlamed() throws {
        let directory = try TemporaryDirectory()
        let garbage = directory.path("garbage.csv")
        try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: URL(fileURLWithPath: garbage))
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.helsinkiLines, "--stations", Self.stationList, "--sessions",
            directory.path("none.sqlite"), "--log", garbage, "--svg", directory.path("legs.svg"),
        ])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains(garbage), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("Usage"), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("legs.svg")))
    }

    @Test func aManualLogNeedsRailLinesToBeScoredOn() throws {
        let directory = try TemporaryDirectory()
        let (phones, _) = try ModesCommandTests.imported(into: directory)
        let outcome = try ToolRunner.run([
            "evaluate", "--railways", SharedPaths.caltrain2024, "--sessions", phones, "--log", Self.manualLog, "--utc-offset",
            "+03:00",
        ])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("rail-lines"), "\(outcome.standardError)")
    }
}
