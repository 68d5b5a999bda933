import Foundation

/// Where the shared real data lives: `../shared/data` from the package root. Tests read it
/// in place; the package never bundles it.
public enum SharedPaths {
    /// `../shared/data`.
    public static let data = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data")

    /// The package's own Helsinki rail lines (metro stations and commuter-rail stop patterns of 2016).
    public static var helsinkiLines: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/helsinki/rail-lines-2016.json").path
    }

    /// The Greater Tokyo railway file.
    public static var tokyoRailways: String { data.appendingPathComponent("tokyo/railway.sqlite").path }
    /// The mini-tokyo-3d folder.
    public static var miniTokyo3D: String { data.appendingPathComponent("tokyo/mini-tokyo-3d").path }
    /// The Caltrain GTFS feed, as a folder.
    public static var caltrain: String { data.appendingPathComponent("gtfs/caltrain-2017-07-24").path }
    /// Caltrain's 2024 GTFS feed, that the recorded trains ran on.
    public static var caltrain2024: String { data.appendingPathComponent("caltrain-2024/gtfs").path }
    /// Caltrain's trains' own positions, 2024-11-29 to 12-02.
    public static var caltrainRecording: String {
        data.appendingPathComponent("caltrain-2024/vehicle-positions-2024-11-29.sqlite").path
    }
    /// The same recording's Tuesday and Wednesday, 2024-10-15 and 16.
    public static var caltrainRecordingOctober: String {
        data.appendingPathComponent("caltrain-2024/vehicle-positions-2024-10-15.sqlite").path
    }
    /// The NYC subway routes 1 and 2 GTFS feed, zipped.
    public static var nycSubway: String { data.appendingPathComponent("gtfs/nyc-subway-1-2.zip").path }
}

/// A fresh directory under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("traintracker-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
