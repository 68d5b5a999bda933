import Testing
import TrainTrackerCore

/// The tuning map (`evaluate --tune NAME=VALUE`): every name reaches a constant of its own.
@Suite struct TuningMapTests {
    @Test func everyNameChangesItsOwnConstantAndNoOther() {
        let defaults = DefaultTracker.Parameters()
        var changed: [String: DefaultTracker.Parameters] = [:]
        for (name, path) in DefaultTracker.Parameters.tunable {
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
}
