import Observation
import SignalGraph
import TestSupport
import Testing

@Suite("SignalGraph and the Swift ecosystem")
struct SignalGraphInteropTests {
    @Test("a storage's observed state follows every change; a view re-evaluates once per change it read")
    func observedStorage() {
        let rows = EditableDictionaryStorage<Int, String>()
        do {
            let observed = rows.observed()
            #expect(rows.sensorCount == 1)
            let view = ViewEvaluation { _ = observed[\.count] }
            rows[1] = "Ada"
            #expect(view.renderIfNeeded())
            rows[1] = "Ava"
            #expect(!view.renderIfNeeded())
            #expect(observed.value == [1: "Ava"])
            rows.removeValue(forKey: 1)
            #expect(view.renderIfNeeded())
            #expect(observed.value.isEmpty)
        }
        // Released: its sensor was deregistered (the teardown rule is kept by its lifetime).
        #expect(rows.sensorCount == 0)
    }

    @Test("a change made by a sensor during a delivery shows in the observed state at once")
    func reentrantChange() {
        let rows = EditableDictionaryStorage<Int, Int>()
        let observed = rows.observed()
        let doubler = rows.subscribe { signal in
            if case .transition = signal, rows[2] == nil { rows[2] = 2 }
        }
        rows[1] = 1
        #expect(observed.value == [1: 1, 2: 2])
        doubler.disconnect()
    }

    @Test("a storage describes its state and sensors")
    func debugDescription() {
        let value = ValueStorage(3)
        #expect(value.debugDescription == "ValueStorage<Int>(3, sensors: 0)")
    }
}
