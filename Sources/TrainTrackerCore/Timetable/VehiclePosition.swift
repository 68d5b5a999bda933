/// One recorded position of a scheduled train: which trip, where, when. What an agency's
/// GTFS-realtime VehiclePositions feed publishes, archived.
public struct VehiclePosition: Hashable, Sendable {
    /// The GTFS `trip_id` (the timetable's train id).
    public var tripID: String
    /// Where the train was.
    public var coordinate: Coordinate
    /// When (the feed's time of the position, or of reading it).
    public var time: Timestamp

    /// A position of trip `tripID`.
    public init(tripID: String, coordinate: Coordinate, time: Timestamp) {
        self.tripID = tripID
        self.coordinate = coordinate
        self.time = time
    }
}
