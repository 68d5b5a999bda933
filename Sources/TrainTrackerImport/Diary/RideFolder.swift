import Foundation
import TrainTrackerCore

/// A folder of rides recorded with an ordinary GPX logger, each with a note of its trains:
/// every `NAME.gpx` is a ride (one per `<trk>`), its notes in `NAME.csv` beside it (a rider's
/// log, `RiderLogFile`) or else in the GPX's own timed waypoints, a logger's annotations, each
/// naming the event first: "departure Shinagawa, Tokaido Line for Yokohama", "arrival Kawasaki".
///
///     let folder = try RideFolder.read(path: "rides", utcOffset: 9 * 3_600)
public struct RideFolder: Sendable {
    /// One track of a GPX file.
    public struct Ride: Sendable {
        /// The file's name without `.gpx`, and `#2`, `#3` for a file's later tracks.
        public var name: String
        /// The fixes, in time order.
        public var locations: [Location]
    }

    /// Every ride of the folder, by file name.
    public var rides: [Ride] = []
    /// Every ride's logged events, in time order; `source` names the file ("a.csv line 3",
    /// "a.gpx waypoint 2").
    public var events: [RiderLogEvent] = []
    /// GPX files that come with no note: neither a CSV beside them nor a waypoint naming an event.
    public var unnoted: [String] = []
    /// Waypoints whose text does not start with an event (points of interest), passed over.
    public var passedOver = 0

    /// The rides and notes of the folder at `path`. Times without a zone are `utcOffset`
    /// seconds ahead of UTC.
    ///
    /// - Throws: `ImportError` naming the folder when it is none or holds no `.gpx` file, and
    ///   naming the file, its line, point or waypoint and the field for a bad file.
    public static func read(path: String, utcOffset: Seconds) throws(ImportError) -> RideFolder {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError(file: path, problem: "not a folder (--rides takes a folder of .gpx files with their notes)")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        let gpxFiles = names.filter { $0.lowercased().hasSuffix(".gpx") }
        guard !gpxFiles.isEmpty else { throw ImportError(file: path, problem: "no .gpx file in the folder") }
        var folder = RideFolder()
        for file in gpxFiles {
            let filePath = (path as NSString).appendingPathComponent(file)
            let base = String(file.dropLast(4))
            let data = try InputFile.read(filePath)
            let document = try GPXReader.document(data: data, path: filePath, utcOffset: utcOffset)
            for (index, track) in document.tracks.enumerated() {
                let locations = track.locations.enumerated().sorted {
                    ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
                }
                folder.rides.append(Ride(name: index == 0 ? base : "\(base) #\(index + 1)", locations: locations.map(\.element)))
            }
            let before = folder.events.count
            if let csv = names.first(where: { $0.lowercased() == base.lowercased() + ".csv" }) {
                let csvPath = (path as NSString).appendingPathComponent(csv)
                for var event in try RiderLogFile.read(path: csvPath, utcOffset: utcOffset) {
                    event.source = "\(csv) \(event.source)"
                    folder.events.append(event)
                }
            } else {
                for waypoint in document.waypoints {
                    guard let event = Self.event(waypoint.text, time: waypoint.time) else {
                        folder.passedOver += 1
                        continue
                    }
                    folder.events.append(
                        RiderLogEvent(
                            time: event.time, kind: event.kind, notes: event.notes, source: "\(file) waypoint \(waypoint.number)")
                    )
                }
            }
            if folder.events.count == before { folder.unnoted.append(file) }
        }
        folder.events = folder.events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        return folder
    }

    /// A note as an event: its first word the kind (`RiderLogEvent.Kind(logName:)`), the rest
    /// the notes naming the station, line and direction; `nil` when the first word is no kind.
    static func event(_ text: String, time: Timestamp) -> (time: Timestamp, kind: RiderLogEvent.Kind, notes: String?)? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let word = trimmed.prefix { $0.isLetter || $0 == "_" || $0 == "-" }
        guard !word.isEmpty, let kind = RiderLogEvent.Kind(logName: word) else { return nil }
        let rest = trimmed.dropFirst(word.count).trimmingCharacters(in: CharacterSet(charactersIn: " \t:,;-–"))
        return (time, kind, rest.isEmpty ? nil : rest)
    }
}
