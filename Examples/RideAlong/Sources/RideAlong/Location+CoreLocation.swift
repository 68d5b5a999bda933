// On Apple platforms an app gets fixes from Core Location; this is all it takes to feed one
// to the tracker. (Not compiled on Linux, where there is no Core Location.)
#if canImport(CoreLocation)
import CoreLocation
import TrainTrackerCore

extension Location {
    /// The tracker's fix from Core Location's. Core Location says "invalid" with negative
    /// numbers (a speed or course of -1, an accuracy below 0): those become `nil`.
    init(_ location: CLLocation) {
        self.init(
            coordinate: Coordinate(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude),
            timestamp: Timestamp(secondsSince1970: location.timestamp.timeIntervalSince1970),
            horizontalAccuracy: location.horizontalAccuracy >= 0 ? location.horizontalAccuracy : nil,
            speed: location.speed >= 0 ? location.speed : nil,
            course: location.course >= 0 ? location.course : nil,
            altitude: location.verticalAccuracy >= 0 ? location.altitude : nil)
    }
}

// In a CLLocationManagerDelegate:
//
//     func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
//         for location in locations {
//             let answer = tracker.process(Location(location))
//             if let line = LiveActivityLine(answer, network: model.network, utcOffset: 9 * 3600) { show(line) }
//         }
//     }
#endif
