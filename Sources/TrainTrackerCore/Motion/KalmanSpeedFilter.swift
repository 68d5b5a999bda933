import RealModule

/// A constant-velocity Kalman filter over position and velocity in a local plane: each fix's
/// position counts by its reported accuracy, its speed and course (when the phone gives them)
/// as a velocity reading; without a speed the velocity comes from the positions alone. The
/// speed is the length of the velocity; stops come from the quick stop detector, or without
/// speeds from the filtered speed staying below 0.5 m/s.
///
/// The speed reported is never more than the positions can support (`SpeedBound`): sparse
/// fixes that jump (a Wi-Fi position 500 m off, claiming 20 m) give no 300 km/h spike.
public struct KalmanSpeedFilter: SpeedFilter {
    /// How hard the vehicle may accelerate, m/s² (process noise).
    /// Set by hand on 2026-11-22; the filters were compared on simulated seed 2026's rides
    /// (docs/motion.md, "Measured"), their constants not tuned.
    public var acceleration = 1.0
    /// The error of a reported speed, m/s.
    /// Set by hand on 2026-11-22; the filters were compared on simulated seed 2026's rides
    /// (docs/motion.md, "Measured"), their constants not tuned.
    public var speedError: MetersPerSecond = 1
    /// What the positions, a vehicle's acceleration and the fastest train allow.
    public var bound = SpeedBound()
    private var origin: LocalProjection?
    private var last: Timestamp?
    /// State: east, north, east speed, north speed; covariance, row-major 4 × 4.
    private var state = [0.0, 0, 0, 0]
    private var covariance = [Double](repeating: 0, count: 16)
    private var stops = StopDetector()
    private var slowSince: Timestamp?
    private var outliers = 0
    private var reset = false

    /// Accelerations of 1 m/s², speeds good to 1 m/s.
    public init() {}

    /// Takes in `location` and returns the speed estimate after it.
    public mutating func update(_ location: Location) -> SpeedEstimate {
        let now = location.timestamp
        let accuracy = max(location.horizontalAccuracy ?? 30, 3)
        if reset {
            reset = false
            outliers = 0
            origin = nil
        }
        guard let origin, let last else {
            origin = LocalProjection(origin: location.coordinate)
            self.last = now
            state = [0, 0, 0, 0]
            covariance = Self.diagonal([accuracy * accuracy, accuracy * accuracy, 100, 100])
            if let speed = location.speed, let course = location.course { setVelocity(speed: speed, course: course) }
            return estimate(location)
        }
        let dt = max(0, now.seconds(since: last))
        self.last = now
        predict(dt)
        let position = origin.vector(to: location.coordinate)
        update(measured: [position.east, position.north], indices: [0, 1], variance: accuracy * accuracy)
        if let speed = location.speed {
            if let course = location.course {
                let radians = course * .pi / 180
                update(
                    measured: [speed * Double.sin(radians), speed * Double.cos(radians)], indices: [2, 3],
                    variance: speedError * speedError)
            } else if speed < 1 {
                // Phones drop the course when slow: a slow reading still says "about standing".
                update(measured: [0, 0], indices: [2, 3], variance: 1)
            }
        }
        // Far from the origin the plane bends: start a new one here.
        if position.east * position.east + position.north * position.north > 2.5e9 {
            self.origin = LocalProjection(origin: location.coordinate)
            state[0] = 0
            state[1] = 0
        }
        return estimate(location)
    }

    private mutating func estimate(_ location: Location) -> SpeedEstimate {
        let filtered = (state[2] * state[2] + state[3] * state[3]).squareRoot()
        let (speed, byPositions) = bound.bound(filtered, at: location)
        // What the positions cannot support, the filter does not keep; the other bounds hold
        // the report only, so that readings proving the filter right (a train pulling away
        // faster than the last report allowed) are not taken for outliers.
        if byPositions < filtered, filtered > 0 {
            state[2] *= byPositions / filtered
            state[3] *= byPositions / filtered
        }
        var stopped = stops.update(speed: location.speed, at: location.timestamp)
        if location.speed == nil {
            // No reported speeds: standing once the filtered speed stays low for three seconds.
            if speed < 0.5 {
                slowSince = slowSince ?? location.timestamp
                stopped = location.timestamp.seconds(since: slowSince ?? location.timestamp) >= 3
            } else {
                slowSince = nil
                stopped = false
            }
        }
        return SpeedEstimate(speed: stopped ? 0 : speed, isStopped: stopped)
    }

    private mutating func setVelocity(speed: MetersPerSecond, course: Degrees) {
        let radians = course * .pi / 180
        state[2] = speed * Double.sin(radians)
        state[3] = speed * Double.cos(radians)
        covariance[10] = speedError * speedError
        covariance[15] = speedError * speedError
    }

    /// x ← F x, P ← F P Fᵀ + Q for constant velocity over `dt`.
    private mutating func predict(_ dt: Seconds) {
        state[0] += state[2] * dt
        state[1] += state[3] * dt
        var next = covariance
        // F = [[1,0,dt,0],[0,1,0,dt],[0,0,1,0],[0,0,0,1]]
        for row in 0..<4 {
            for column in 0..<4 {
                var value = covariance[row * 4 + column]
                if row < 2 { value += dt * covariance[(row + 2) * 4 + column] }
                next[row * 4 + column] = value
            }
        }
        var result = next
        for row in 0..<4 {
            for column in 0..<2 { result[row * 4 + column] = next[row * 4 + column] + dt * next[row * 4 + column + 2] }
        }
        // Q for white acceleration noise.
        let q = acceleration * acceleration
        let (dt2, dt3, dt4) = (dt * dt, dt * dt * dt, dt * dt * dt * dt)
        for axis in 0..<2 {
            result[axis * 4 + axis] += q * dt4 / 4
            result[axis * 4 + axis + 2] += q * dt3 / 2
            result[(axis + 2) * 4 + axis] += q * dt3 / 2
            result[(axis + 2) * 4 + axis + 2] += q * dt2
        }
        covariance = result
    }

    /// A measurement of two state components with equal, independent errors. One that lies
    /// beyond the 99.9 % ellipse of what the filter expects (a far-off fix, a false 0.0) is
    /// an outlier and changes nothing.
    private mutating func update(measured: [Double], indices: [Int], variance: Double) {
        // S = H P Hᵀ + R (2 × 2), K = P Hᵀ S⁻¹ (4 × 2).
        let (a, b) = (indices[0], indices[1])
        let s00 = covariance[a * 4 + a] + variance
        let s01 = covariance[a * 4 + b]
        let s10 = covariance[b * 4 + a]
        let s11 = covariance[b * 4 + b] + variance
        let determinant = s00 * s11 - s01 * s10
        guard determinant.magnitude > 1e-12 else { return }
        let (i00, i01, i10, i11) = (s11 / determinant, -s01 / determinant, -s10 / determinant, s00 / determinant)
        let innovation = [measured[0] - state[a], measured[1] - state[b]]
        let distance =
            innovation[0] * (i00 * innovation[0] + i01 * innovation[1]) + innovation[1]
            * (i10 * innovation[0] + i11 * innovation[1])
        guard distance <= 13.8 else {
            outliers += 1
            // Many outliers in a row mean the filter, not the fixes, is wrong: start again from here.
            if outliers >= 4 { reset = true }
            return
        }
        outliers = 0
        var gain = [Double](repeating: 0, count: 8)
        for row in 0..<4 {
            let (pa, pb) = (covariance[row * 4 + a], covariance[row * 4 + b])
            gain[row * 2] = pa * i00 + pb * i10
            gain[row * 2 + 1] = pa * i01 + pb * i11
        }
        for row in 0..<4 { state[row] += gain[row * 2] * innovation[0] + gain[row * 2 + 1] * innovation[1] }
        // P ← (I − K H) P
        var next = covariance
        for row in 0..<4 {
            for column in 0..<4 {
                next[row * 4 + column] -=
                    gain[row * 2] * covariance[a * 4 + column] + gain[row * 2 + 1] * covariance[b * 4 + column]
            }
        }
        covariance = next
    }

    private static func diagonal(_ values: [Double]) -> [Double] {
        var matrix = [Double](repeating: 0, count: 16)
        for (index, value) in values.enumerated() { matrix[index * 5] = value }
        return matrix
    }
}
