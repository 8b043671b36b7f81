import TestSupport
import Testing

@testable import SignalGraph

/// The engine's invariant checks (built in with `SIGNALGRAPH_INTERNAL_CHECKS`) stop the process
/// with the invariant's name. The faults they catch in the engine itself are the mutants in
/// `.ci/mutants/signalgraph`; these tests show the checks report. Skipped without the flag; CI
/// runs them with it.
@Suite(
    "Engine: invariant checks",
    .enabled(if: SignalGraphChecks.isEnabled, "the module is built without SIGNALGRAPH_INTERNAL_CHECKS"))
struct SignalGraphInvariantCheckTests {
    @Test("a registered sensor whose registration names another emitter breaks SG4")
    func registrationElsewhere() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let rows = EditableDictionaryStorage<Int, Int>()
            let other = EditableDictionaryStorage<Int, Int>()
            let sensor = dictionaryRebuilder()
            rows.register(sensor)
            sensor.registration.emitter = other
            rows[1] = 1
        }
        expectStandardError(of: result, contains: "SignalGraph internal check SG4 failed")
    }

    @Test("a pipeline edited, registered and deregistered from its own handlers passes every check")
    func soundUsePasses() {
        var generator = SeededGenerator(seed: 38)
        let rows = EditableDictionaryStorage<Int, Int>()
        let even = DictionaryFilteringDictionaryStorage<Int, Int> { _, value in value.isMultiple(of: 2) }
        let sorted = DictionarySortingArrayStorage<Int, Int> { ($0.value, $0.key) < ($1.value, $1.key) }
        rows.register(even)
        even.register(sorted)
        let watcher = arrayRebuilder(of: Int.self)
        let late = dictionaryRebuilder()
        var lateRegistered = false
        let writer = dictionaryRebuilder()
        writer.hook = {
            // Reentrant: a handler that writes, registers and deregisters during a delivery.
            if rows.state.count > 12, let key = rows.state.keys.min() { rows.removeValue(forKey: key) }
            if lateRegistered {
                even.deregister(late)
            } else {
                even.register(late)
            }
            lateRegistered.toggle()
        }
        rows.register(writer)
        let values = ArraySignalMapStorage<(key: Int, value: Int), Int> { $0.value }
        sorted.register(values)
        values.register(watcher)
        for _ in 0..<400 {
            rows[Int.random(in: 0..<20, using: &generator)] = Int.random(in: 0..<10, using: &generator)
        }
        let expected = rows.state.filter { $0.value.isMultiple(of: 2) }.sorted {
            ($0.value, $0.key) < ($1.value, $1.key)
        }
        #expect(values.state == expected.map(\.value))
        #expect(writer.problems.isEmpty && late.problems.isEmpty && watcher.problems.isEmpty)
        writer.hook = {}
        if lateRegistered { even.deregister(late) }
        values.deregister(watcher)
        sorted.deregister(values)
        even.deregister(sorted)
        rows.deregister(even)
        rows.deregister(writer)
        #expect(rows.sensorCount == 0 && even.sensorCount == 0)
    }
}
