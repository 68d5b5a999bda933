import RealModule

/// How far to one side of its drawn track a line's trains really run, as the fixes show it: a
/// one-dimensional Kalman filter over the signed lateral offset (left of the track's drawn
/// direction positive).
///
/// Every map draws a corridor's lines metres to tens of metres from where trains run, smoothly
/// along the line. The offset is a slow process (Ornstein–Uhlenbeck along the track: `spread`
/// metres either side, forgotten over `correlationLength` of travel), so a line whose fixes lie a
/// steady 25 m to one side pays once for the offset, not at every fix, while fixes that wander
/// across the track, or jump from side to side, still cost.
struct LateralOffset: Sendable, Hashable, Codable {
    /// The estimate, in metres left of the drawn track.
    private(set) var mean: Meters = 0
    /// Its variance, in square metres.
    private(set) var variance: Double

    /// A line's offset before any fix: none, give or take `spread`.
    init(spread: Meters) { variance = spread * spread }

    /// The train travelled `distance` metres: the offset there is less tied to the one here.
    mutating func travel(_ distance: Meters, correlationLength: Meters, spread: Meters) {
        guard distance > 0, correlationLength > 0 else { return }
        relax(keeping: Double.exp(-distance / correlationLength), spread: spread)
    }

    /// The same with `keep = exp(-distance / correlationLength)` worked out once for every line.
    mutating func relax(keeping keep: Double, spread: Meters) {
        guard keep < 1 else { return }
        mean *= keep
        variance = keep * keep * variance + (1 - keep * keep) * spread * spread
    }

    /// The fix's lateral position `lateral` less the expected offset, and the spread of that
    /// difference for a fix of lateral error `sigma`.
    func residual(_ lateral: Meters, sigma: Meters) -> (residual: Meters, spread: Meters) {
        (lateral - mean, (variance + sigma * sigma).squareRoot())
    }

    /// Takes a fix at `lateral` with error `sigma`, counted as `weight` of an independent
    /// measurement (fixes a second apart share most of their error).
    mutating func update(_ lateral: Meters, sigma: Meters, weight: Double) {
        guard weight > 0 else { return }
        let noise = sigma * sigma / weight
        let gain = variance / (variance + noise)
        mean += gain * (lateral - mean)
        variance *= 1 - gain
    }
}
