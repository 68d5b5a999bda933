import Foundation
import Testing
import TrainTrackerTestSupport

@testable import TrainTrackerCore
@testable import TrainTrackerLab

/// A snapshot saved by one build is restored by the next only if its form is the same: a
/// change to what a tracker or a hypothesis stores must bump `Snapshot.currentVersion`, so an
/// old snapshot is refused with the reason instead of failing in the decoder. The form of
/// each version is kept in `Snapshots/tracker-snapshot-vN.txt` (every stored property, nested,
/// with its type); `UPDATE_SNAPSHOTS=1` records the form of a new version.
@Suite struct SnapshotShapeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// `path: Type` for every stored property reachable from `value` (an array's elements
    /// under `path[]`, an optional's wrapped value under the same path).
    static func shape(of value: Any, at path: String, into lines: inout Set<String>) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first?.value { shape(of: wrapped, at: path, into: &lines) }
        case .collection:
            for element in mirror.children { shape(of: element.value, at: path + "[]", into: &lines) }
        case .struct, .class:
            for child in mirror.children {
                guard let label = child.label else { continue }
                let name = path.isEmpty ? label : path + "." + label
                lines.insert("\(name): \(type(of: child.value))")
                shape(of: child.value, at: name, into: &lines)
            }
        default: break
        }
    }

    @Test func aChangeOfTheSnapshotsFormBumpsItsVersion() throws {
        // A timetabled ride, snapshots taken all along it: trips followed, stops, passages.
        let dataset = DemoRides.dataset
        let ride = try #require(CaseGenerator(dataset: dataset).cases(count: 1, seed: 12).first)
        var tracker = RailwayTracker(model: TrackerModel(dataset: dataset))
        var lines = Set<String>()
        for fix in ride.fixes.map(\.location) {
            _ = tracker.process(fix)
            Self.shape(of: tracker.snapshot(), at: "", into: &lines)
        }
        // The same ride from a phone without speeds, whose stops keep where they stand.
        var speedless = RailwayTracker(model: TrackerModel(dataset: dataset))
        for var fix in ride.fixes.map(\.location) {
            fix.speed = nil
            fix.course = nil
            _ = speedless.process(fix)
            Self.shape(of: speedless.snapshot(), at: "", into: &lines)
        }
        let form = lines.sorted().joined(separator: "\n") + "\n"
        let version = RailwayTracker.Snapshot.currentVersion
        let file = Self.folder.appendingPathComponent("tracker-snapshot-v\(version).txt")
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] != nil, !FileManager.default.fileExists(atPath: file.path) {
            try form.write(to: file, atomically: true, encoding: .utf8)
        }
        let recorded = try? String(contentsOf: file, encoding: .utf8)
        #expect(
            recorded == form,
            """
            the snapshot's form is not version \(version)'s: bump RailwayTracker.Snapshot.currentVersion and record \
            the new form with UPDATE_SNAPSHOTS=1 (a recorded version's form is never rewritten)
            """)
    }
}
