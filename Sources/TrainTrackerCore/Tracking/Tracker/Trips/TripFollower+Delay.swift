import RealModule

/// Step 1 of the trip model, the delay process: between two fixes every followed trip's delay
/// wanders (a Laplace step and a drift), may jump ahead (a hold or a disruption, over at once),
/// and its train may stand still on its way (`TripModelParameters.standRate`: signals, an
/// incident) for as long as it stands, its delay growing a second a second.
extension TripFollower {
    /// A jump of the delay between two fixes (a hold or a disruption): it happens with
    /// probability `share`, by an exponential amount of mean `mean`, spread over the grid cell
    /// by cell (each keeps `ratio` of the one before) as far as `reach` cells.
    struct Jump {
        var share: Double
        var ratio: Double
        var reach: Int

        init(share: Double, mean: Seconds, step: Seconds) {
            self.share = share
            ratio = Double.exp(-step / mean)
            reach = Int(flooring: 20 * mean / step, within: 0...TripFollower.widestStep)
        }
    }

    /// How the belief moves over one gap between fixes, worked out once for every trip.
    struct Movement {
        /// The walk's kernel over cells `-reach...reach` (it sums to the share that neither
        /// jumps nor starts standing).
        var kernel: [Double]
        var reach: Int
        /// The jumps, and the share of the belief each takes.
        var jumps: [(jump: Jump, share: Double)]
        var jumpReach: Int
        /// The share of a running train that comes to stand, and of a standing one that moves
        /// off again.
        var stops: Double
        var movesOff: Double
        /// The gap in cells: a standing train's delay grows by it (`whole` cells and
        /// `fraction` of one); one that moves off during the gap by half of it.
        var whole: Int
        var fraction: Double
        var half: (whole: Int, fraction: Double)

        /// How far the belief may spread beyond its cells: before the first, after the last.
        var widening: (before: Int, after: Int) { (reach, max(reach + jumpReach, whole + 1)) }
    }

    /// The movement of the belief over a gap of `elapsed` seconds under the constants.
    func movement(over elapsed: Seconds) -> Movement? {
        let step = parameters.gridStep
        let scale = parameters.delayWalkScale * (max(elapsed, 1) / 60).squareRoot()
        let drift = parameters.delayDrift * elapsed / 60
        let reach = Int(flooring: (drift.magnitude + 10 * scale) / step + 0.5, within: 0...Self.widestStep)
        let jumps = [(parameters.holdRate, parameters.holdMean), (parameters.disruptionRate, parameters.disruptionMean)]
            .map { rate, mean in Jump(share: 1 - Double.exp(-rate * elapsed / 3_600), mean: mean, step: step) }
            .filter { $0.share > 0 }
        let stops = 1 - Double.exp(-parameters.standRate * elapsed / 3_600)
        let kept = jumps.reduce(1 - stops) { $0 * (1 - $1.share) }
        var kernel = (-reach...reach).map { Double.exp(-abs(Double($0) * step - drift) / scale) }
        let sum = kernel.reduce(0, +)
        guard sum > 0 else { return nil }
        kernel = kernel.map { $0 * kept / sum }
        // Each jump's share of what is not kept (the first happens, or the second, ...).
        var untaken = 1 - stops
        let shared = jumps.map { jump -> (jump: Jump, share: Double) in
            defer { untaken *= 1 - jump.share }
            return (jump, untaken * jump.share)
        }
        let cells = min(max(elapsed / step, 0), Double(Self.widestStep))
        let whole = Int(flooring: cells, within: 0...Self.widestStep)
        let halfCells = cells / 2
        let halfWhole = Int(flooring: halfCells, within: 0...Self.widestStep)
        return Movement(
            kernel: kernel, reach: reach, jumps: shared, jumpReach: jumps.map(\.reach).max() ?? 0, stops: stops,
            movesOff: 1 - Double.exp(-elapsed / parameters.standMean), whole: whole, fraction: cells - Double(whole),
            half: (halfWhole, halfCells - Double(halfWhole)))
    }

    /// Step 1: every followed trip's delay moves for `elapsed` seconds (`movement(over:)`).
    mutating func spread(over elapsed: Seconds) {
        guard let movement = movement(over: elapsed) else { return }
        for index in followed.indices {
            var trip = followed[index]
            followed[index].mass = []  // (so the arrays are changed in place, not copied)
            followed[index].standing = []
            move(&trip, by: movement)
            clip(&trip)
            followed[index] = trip
        }
    }

    /// One trip's belief moved by `movement`: the running train's walk and jumps, the trains
    /// that come to stand, and those that stand on or move off.
    private func move(_ trip: inout Followed, by movement: Movement) {
        let old = trip.mass
        let oldStanding = trip.standing
        let widening = movement.widening
        let count = old.count + widening.before + widening.after
        var running = Array(repeating: 0.0, count: count)
        let reach = movement.reach
        for (cell, value) in old.enumerated() where value > 0 {
            for (offset, weight) in movement.kernel.enumerated() { running[cell + offset] += value * weight }
        }
        for (jump, share) in movement.jumps {
            // y[i] = x[i] · (1 − ratio) · share + ratio · y[i − 1], from each cell onwards.
            var carried = 0.0
            for cell in 0..<(old.count + jump.reach) {
                carried = carried * jump.ratio + (cell < old.count ? old[cell] * (1 - jump.ratio) * share : 0)
                running[cell + reach] += carried
            }
        }
        var standing: [Double] = []
        if movement.stops > 0 || !oldStanding.isEmpty {
            standing = Array(repeating: 0.0, count: count)
            for cell in old.indices {
                let stays = oldStanding.isEmpty ? 0 : oldStanding[cell]
                let still = old[cell] * movement.stops + stays * (1 - movement.movesOff)
                Self.shift(still, from: cell + reach, by: (movement.whole, movement.fraction), into: &standing)
                Self.shift(stays * movement.movesOff, from: cell + reach, by: movement.half, into: &running)
            }
        }
        trip.low -= reach
        trip.mass = running
        trip.standing = standing
    }

    /// Adds `value` to `cells` at `cell` moved on by `by.whole` cells and `by.fraction` of one.
    private static func shift(_ value: Double, from cell: Int, by: (whole: Int, fraction: Double), into cells: inout [Double]) {
        guard value > 0 else { return }
        let target = cell + by.whole
        if cells.indices.contains(target) { cells[target] += value * (1 - by.fraction) }
        if cells.indices.contains(target + 1) { cells[target + 1] += value * by.fraction }
    }

    /// The trip's belief kept within the grid's range: what spreads beyond is dropped.
    private func clip(_ trip: inout Followed) {
        if trip.low < lowestCell {
            let cut = min(lowestCell - trip.low, trip.mass.count)
            trip.mass.removeFirst(cut)
            if !trip.standing.isEmpty { trip.standing.removeFirst(cut) }
            trip.low = lowestCell
        }
        let excess = trip.low + trip.mass.count - 1 - highestCell
        if excess > 0 {
            let cut = min(excess, trip.mass.count)
            trip.mass.removeLast(cut)
            if !trip.standing.isEmpty { trip.standing.removeLast(cut) }
        }
    }
}
