import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerImport

/// mini-tokyo-3d files made to crash the importer or fill the memory: a railway without
/// sublines, an offset of 1e300, an interpolation of two billion points, a train twice.
extension MiniTokyo3DErrorTests {
    /// Changes the `coordinates.json` entry of railway `id`.
    func editTrack(_ directory: TemporaryDirectory, _ id: String, _ change: (inout [String: Any]) -> Void) throws {
        try Fixture.editTrack(id, in: directory.path("coordinates.json"), change)
    }

    /// Changes subline `number` (from 0) of railway `id`.
    func editSubline(
        _ directory: TemporaryDirectory, _ id: String, _ number: Int, _ change: @escaping (inout [String: Any]) -> Void
    )
        throws
    {
        try editTrack(directory, id) { track in
            var sublines = track["sublines"] as? [[String: Any]] ?? []
            change(&sublines[number])
            track["sublines"] = sublines
        }
    }

    @Test func aRailwayWithoutSublinesIsNamedNotATrap() throws {
        let directory = try copyOfDataset()
        try editTrack(directory, "JR-East.Yamanote") { $0["sublines"] = [[String: Any]]() }
        #expect(
            throws: ImportError(
                file: directory.path("coordinates.json"), location: "railway 'JR-East.Yamanote'", field: "sublines",
                problem: "no sublines; a track needs at least one")
        ) {
            _ = try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    @Test(arguments: [1e300, -1e300, 161])
    func anOffsetBeyondAKilometreIsNamed(offset: Double) throws {
        let directory = try copyOfDataset()
        try editSubline(directory, "Tokyu.Kodomonokuni", 0) { $0["start"] = ["railway": "Tokyu.DenEnToshi", "offset": offset] }
        #expect(
            throws: ImportError(
                file: directory.path("coordinates.json"), location: "railway 'Tokyu.Kodomonokuni', subline 1",
                field: "start.offset", problem: "\(offset) is not an offset of -160 to 160 units")
        ) {
            _ = try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    /// Two billion points asked for 32 GB and aborted.
    @Test func anInterpolationOfBillionsOfPointsIsRefused() throws {
        let directory = try copyOfDataset()
        let path = directory.path("coordinates.json")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let tracks = try #require(root["railways"] as? [[String: Any]])
        // The first subline that moves from one base to another.
        var found: (id: String, number: Int)?
        for track in tracks where found == nil {
            for (number, subline) in (track["sublines"] as? [[String: Any]] ?? []).enumerated() where found == nil {
                let start = (subline["start"] as? [String: Any])?["railway"] as? String
                let end = (subline["end"] as? [String: Any])?["railway"] as? String
                if subline["type"] as? String == "sub", end != nil, end != start {
                    found = (track["id"] as? String ?? "", number)
                }
            }
        }
        let (id, number) = try #require(found)
        try editSubline(directory, id, number) { $0["interpolate"] = 2_000_000_000 }
        #expect(
            throws: ImportError(
                file: path, location: "railway '\(id)', subline \(number + 1)", field: "interpolate",
                problem: "2000000000 points; at most 10000")
        ) {
            _ = try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }

    /// A train id twice was refused only by the writer, against the output file.
    @Test func aTrainInTwoTimetableFilesIsNamedInTheSecond() throws {
        let directory = try copyOfDataset()
        let folder = directory.path("train-timetables")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: SharedPaths.miniTokyo3D).appendingPathComponent(
            "train-timetables/tokyu-kodomonokuni.json")
        for name in ["a.json", "b.json"] { try FileManager.default.copyItem(atPath: source.path, toPath: folder + "/" + name) }
        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [[String: Any]])
        let first = try #require(records.first?["id"] as? String)
        #expect(
            throws: ImportError(
                file: folder + "/b.json", location: "train '\(first)'", field: "id", problem: "also in \(folder)/a.json")
        ) {
            _ = try MiniTokyo3DImporter.load(path: directory.url.path)
        }
    }

    @Test func aDataFileThatIsAFolderIsNamedAsOne() throws {
        let directory = try copyOfDataset()
        try FileManager.default.removeItem(atPath: directory.path("stations.json"))
        try FileManager.default.createDirectory(atPath: directory.path("stations.json"), withIntermediateDirectories: false)
        #expect(throws: ImportError(file: directory.path("stations.json"), problem: "is a directory")) {
            _ = try MiniTokyo3DImporter.load(path: directory.url.path, timetables: false)
        }
    }
}
