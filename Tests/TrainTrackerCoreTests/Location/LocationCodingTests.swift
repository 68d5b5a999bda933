import Foundation
import Testing
import TrainTrackerCore

/// A fix saved as JSON (an app's snapshot) reads back the same, and a saved file is outside
/// input: Core Location's "invalid" negatives and numbers that are not finite read as unknown.
@Suite struct LocationCodingTests {
    @Test func aFixReadsBackTheSame() throws {
        let fix = Location(
            coordinate: Coordinate(latitude: 35.6581, longitude: 139.7017),
            timestamp: Timestamp(secondsSince1970: 1_758_527_280.25),
            horizontalAccuracy: 8, speed: 12.5, course: 200, altitude: 31)
        let bare = Location(coordinate: fix.coordinate, timestamp: fix.timestamp)
        for location in [fix, bare] {
            #expect(try JSONDecoder().decode(Location.self, from: JSONEncoder().encode(location)) == location)
        }
    }

    @Test func invalidSpeedAndCourseReadAsUnknown() throws {
        let json =
            #"{"coordinate":{"latitude":35.6,"longitude":139.7},"timestamp":{"secondsSince1970":1758527280},"speed":-1,"course":-1}"#
        let fix = try JSONDecoder().decode(Location.self, from: Data(json.utf8))
        #expect(fix.speed == nil && fix.course == nil && fix.altitude == nil && fix.horizontalAccuracy == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Location.self, from: Data(#"{"coordinate":{"latitude":35.6}}"#.utf8))
        }
    }
}
