import Testing
import TrainTrackerCore

/// The tuning map (`evaluate --tune NAME=VALUE`): every name reaches a constant of its own.
@Suite struct TuningMapTests {
    @Test func everyNameChangesItsOwnConstantAndNoOther() {
        let defaults = RailwayTracker.Parameters()
        var changed: [String: RailwayTracker.Parameters] = [:]
        for (name, path) in RailwayTracker.Parameters.tunable {
            var parameters = defaults
            // A value no default has: the constant it names must now hold it.
            parameters[keyPath: path] = defaults[keyPath: path] + 1_234.5
            #expect(parameters != defaults, "\(name) changes nothing")
            #expect(parameters[keyPath: path] == defaults[keyPath: path] + 1_234.5, "\(name)")
            changed[name] = parameters
        }
        // Two names writing one constant would leave the same parameters behind.
        let distinct = Set(changed.values)
        #expect(distinct.count == changed.count, "names sharing a constant")
        #expect(changed.count > 40)
    }

    /// Every number of every kind of evidence (and of the transition and the tracker) has a
    /// tuning name: a constant added to a kind without one in its `tunables` fails here.
    @Test func everyNumberOfEveryKindHasAName() {
        let defaults = RailwayTracker.Parameters()
        var named = Set<String>()
        for (_, path) in RailwayTracker.Parameters.tunable {
            var parameters = defaults
            parameters[keyPath: path] = defaults[keyPath: path] + 1_234.5
            named.formUnion(Self.numbers(of: parameters).filter { Self.numbers(of: defaults)[$0.key] != $0.value }.keys)
        }
        let all = Set(Self.numbers(of: defaults).keys)
        #expect(named == all, "numbers without a tuning name: \(all.subtracting(named).sorted())")
    }

    /// Every `Double` in the parameters, one level into each kind, by `kind.constant`.
    static func numbers(of parameters: RailwayTracker.Parameters) -> [String: Double] {
        var numbers: [String: Double] = [:]
        for child in Mirror(reflecting: parameters).children {
            guard let label = child.label else { continue }
            if let value = child.value as? Double { numbers[label] = value }
            for constant in Mirror(reflecting: child.value).children {
                if let name = constant.label, let value = constant.value as? Double { numbers[label + "." + name] = value }
            }
        }
        return numbers
    }
}
