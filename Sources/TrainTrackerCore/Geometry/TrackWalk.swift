/// Positions along one railway's track in a direction of travel, wrapping around on loops.
package struct TrackWalk: Sendable, Codable, Equatable {
    package let length: Meters
    package let isLoop: Bool
    /// +1 when travelling towards larger along-track positions, -1 otherwise.
    package let sign: Double

    package init(railway: Railway, direction: TravelDirection) {
        self.init(length: railway.track.polyline.length, isLoop: railway.isLoop, sign: direction == .ascending ? 1 : -1)
    }

    package init(length: Meters, isLoop: Bool, sign: Double) {
        self.length = length
        self.isLoop = isLoop
        self.sign = sign
    }

    /// The position `distance` metres further on from `position`.
    package func advance(_ position: Meters, by distance: Meters) -> Meters {
        let moved = position + sign * distance
        guard isLoop, length > 0 else { return moved }
        let wrapped = moved.truncatingRemainder(dividingBy: length)
        return wrapped < 0 ? wrapped + length : wrapped
    }

    /// How far ahead `target` lies from `position` in the direction of travel (negative
    /// behind; on a loop always in 0 ..< length).
    package func distanceAhead(from position: Meters, to target: Meters) -> Meters {
        let ahead = (target - position) * sign
        guard isLoop, length > 0 else { return ahead }
        let wrapped = ahead.truncatingRemainder(dividingBy: length)
        return wrapped < 0 ? wrapped + length : wrapped
    }

    /// The distance between two positions, the short way round on a loop.
    package func separation(_ first: Meters, _ second: Meters) -> Meters {
        let direct = abs(first - second)
        return isLoop ? min(direct, length - direct) : direct
    }
}
