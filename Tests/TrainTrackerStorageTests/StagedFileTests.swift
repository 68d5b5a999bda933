import Foundation
import Testing
import TrainTrackerCore
import TrainTrackerTestSupport

@testable import TrainTrackerStorage

/// Files written all or nothing: beside the destination, moved into place when complete.
@Suite struct StagedFileTests {
    /// A process id no process has (Linux allows at most 2^22).
    static let deadProcess = "2147483646"

    func contents(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test func aCompleteFileAppearsAndNothingElse() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.txt")
        try StagedFile.write(Data("whole".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "whole")
        #expect(try contents(directory) == ["out.txt"])
    }

    @Test func aFailedWriteLeavesNothingAndKeepsTheOldFile() throws {
        struct Interrupted: Error {}
        let directory = try TemporaryDirectory()
        let path = directory.path("out.txt")
        try StagedFile.write(Data("old".utf8), to: path)
        #expect(throws: StorageError.self) {
            try StagedFile.write(to: path) { temporary in
                try Data("half".utf8).write(to: URL(fileURLWithPath: temporary))
                throw Interrupted()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try contents(directory) == ["out.txt"])
    }

    @Test func aPipeOrDeviceAtTheDestinationIsNeverReplaced() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("picture.svg")
        #expect(mkfifo(path, 0o600) == 0)
        #expect {
            try StagedFile.write(Data("<svg/>".utf8), to: path)
        } throws: { error in
            (error as? StorageError)?.description == "\(path): cannot be written (not a regular file; not replacing it)"
        }
        let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
        #expect(type != nil && type != .typeRegular, "still the pipe: \(String(describing: type))")
        #expect(try contents(directory) == ["picture.svg"])
    }

    @Test func anExistingFileIsReplacedOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.txt")
        try StagedFile.write(Data("first".utf8), to: path, replacing: false)
        #expect(throws: StorageError.fileExists(path: path)) {
            try StagedFile.write(Data("second".utf8), to: path, replacing: false)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        try StagedFile.write(Data("second".utf8), to: path, replacing: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try contents(directory) == ["out.txt"])
    }

    @Test func aFileThatAppearsWhileOneIsWrittenIsNotReplaced() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.txt")
        let staged = try StagedFile(destination: path, replacing: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: staged.temporaryPath))
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StorageError.fileExists(path: path)) { try staged.commit() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs")
        #expect(try contents(directory) == ["out.txt"])
    }

    @Test func theTemporaryFileLiesBesideTheDestinationNamedForThisProcess() throws {
        let directory = try TemporaryDirectory()
        let staged = try StagedFile(destination: directory.path("out.sqlite"), replacing: false)
        #expect(staged.temporaryPath == directory.path(".out.sqlite.tmp-\(ProcessInfo.processInfo.processIdentifier)"))
    }

    @Test func whatACrashedWriteLeftIsRemovedByTheNextOne() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.sqlite")
        let leftovers = [".out.sqlite.tmp-\(Self.deadProcess)", ".out.sqlite.tmp-\(Self.deadProcess)-journal"]
        for name in leftovers { try Data("torn".utf8).write(to: directory.url.appendingPathComponent(name)) }
        // A write in progress in another (living) process is left alone: process 1 always runs.
        let running = ".out.sqlite.tmp-1"
        try Data("busy".utf8).write(to: directory.url.appendingPathComponent(running))
        try StagedFile.write(Data("whole".utf8), to: path, replacing: false)
        #expect(try contents(directory) == [running, "out.sqlite"])
    }

    @Test func aFolderOrAMissingFolderIsNamed() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: StorageError.isDirectory(path: directory.url.path)) {
            try StagedFile.write(Data("x".utf8), to: directory.url.path)
        }
        let nowhere = directory.path("no/such/folder/out.txt")
        #expect(throws: StorageError.cannotWrite(path: nowhere, problem: "no such folder \(directory.path("no/such/folder"))")) {
            try StagedFile.write(Data("x".utf8), to: nowhere)
        }
    }

    @Test func aSessionFileThatCannotBeCompletedIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("sessions.sqlite")
        let start = Timestamp(secondsSince1970: 1_758_355_200)
        let fix = RecordedFix(
            id: "F", location: Location(coordinate: Coordinate(latitude: 35.6, longitude: 139.7), timestamp: start))
        // The same fix id twice: the insert fails half way.
        #expect(throws: StorageError.self) {
            try SessionDatabase.create(path: path, sessions: [(Session(id: "S", startDate: start), [fix, fix])])
        }
        #expect(try contents(directory).isEmpty)
        try SessionDatabase.create(path: path, sessions: [(Session(id: "S", startDate: start), [fix])])
        #expect(try SessionDatabase.open(path: path).sessions().map(\.locationCount) == [1])
        #expect(try contents(directory) == ["sessions.sqlite"])
    }
}
