import SignalGraph
import TestSupport
import Testing

@Suite("Dictionary views: map-values and folds")
struct DictionaryViewTests {
    @Test("random inserts, updates, deletes and resets: mapValues, sum and count equal their from-scratch values")
    func model() {
        var random = SeededGenerator(seed: 43)
        let rows = EditableDictionaryStorage<Int, Int>()
        let doubled = DictionaryMappingValuesDictionaryStorage<Int, Int, Int> { $0 * 2 }
        let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
        let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
        let doubledReplica = ReplicatingDictionaryStorage<Int, Int>()
        let totalReplica = ReplicatingValueStorage<Int>(0)
        rows.register(doubled)
        rows.register(total)
        rows.register(count)
        doubled.register(doubledReplica)
        total.register(totalReplica)
        for step in 0..<modelOperations {
            let key = Int.random(in: 0..<40, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6: rows[key] = Int.random(in: -20...20, using: &random)
            case 6..<9: rows.removeValue(forKey: key)
            default:
                // Deregistering and registering again: a termination, then an initiation.
                rows.deregister(total)
                rows.register(total)
            }
            let plain = rows.state
            guard doubled.state == plain.mapValues({ $0 * 2 }), total.state == plain.values.reduce(0, +),
                count.state == plain.count, doubledReplica.state == doubled.state, totalReplica.state == total.state
            else {
                Issue.record("step \(step): \(plain)")
                break
            }
        }
        total.deregister(totalReplica)
        doubled.deregister(doubledReplica)
        rows.deregister(count)
        rows.deregister(total)
        rows.deregister(doubled)
    }

    @Test("a fold sends a transition only when its result changes; a map sends every mutation")
    func sendsChangesOnly() {
        let rows = EditableDictionaryStorage<String, Int>()
        let total = DictionaryReducingValueStorage<String, Int, Int>.sum()
        let names = DictionaryMappingValuesDictionaryStorage<String, Int, String> { "#\($0)" }
        var totals: [Int] = []
        var mapped = 0
        let totalSensor = SignalSensor<ValueSignal<Int>> { signal in
            if case .transition(let value) = signal { totals.append(value) }
        }
        let nameSensor = SignalSensor<DictionarySignal<String, String>> { signal in
            if case .transition = signal { mapped += 1 }
        }
        rows.register(total)
        rows.register(names)
        total.register(totalSensor)
        names.register(nameSensor)
        rows["a"] = 1
        rows["b"] = 2
        rows["a"] = 1  // the same value: the sum does not change
        rows["b"] = 0
        rows["c"] = 2  // the sum is 3 again
        rows.removeValue(forKey: "a")
        #expect(totals == [1, 3, 1, 3, 2])
        #expect(mapped == 6)
        #expect(names.state == ["b": "#0", "c": "#2"])
        names.deregister(nameSensor)
        total.deregister(totalSensor)
        rows.deregister(names)
        rows.deregister(total)
    }

    @Test("a sensor of a fold that writes the source during the delivery: the write is queued and folded in after")
    func reentrantWrite() {
        let rows = EditableDictionaryStorage<Int, Int>()
        let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
        var seen: [Int] = []
        let sensor = SignalSensor<ValueSignal<Int>> { signal in
            guard case .transition(let value) = signal else { return }
            seen.append(value)
            if value == 5 { rows[2] = 10 }
        }
        rows.register(total)
        total.register(sensor)
        rows[1] = 5
        #expect(seen == [5, 15])
        #expect(total.state == 15)
        total.deregister(sensor)
        rows.deregister(total)
    }

    @Test("the views are freed after teardown")
    func freed() {
        weak var weakNames: DictionaryMappingValuesDictionaryStorage<Int, Int, String>?
        weak var weakCount: DictionaryReducingValueStorage<Int, Int, Int>?
        let rows = EditableDictionaryStorage<Int, Int>()
        do {
            let names = DictionaryMappingValuesDictionaryStorage<Int, Int, String> { "\($0)" }
            let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
            rows.register(names)
            rows.register(count)
            rows[1] = 1
            #expect(names.state == [1: "1"] && count.state == 1)
            rows.deregister(count)
            rows.deregister(names)
            (weakNames, weakCount) = (names, count)
        }
        #expect(weakNames == nil)
        #expect(weakCount == nil)
        #expect(rows.sensorCount == 0)
    }

    @Test("a map-values view or a fold released while registered is a debug assertion")
    func releasedWhileRegistered() async {
        let mapped = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let rows = DictionaryStorage([1: 1])
            do { rows.register(DictionaryMappingValuesDictionaryStorage<Int, Int, Int> { $0 }) }
            _ = rows
        }
        expectStandardError(of: mapped, contains: "SignalGraph: a view was released while still registered")
        let folded = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let rows = DictionaryStorage([1: 1])
            do { rows.register(DictionaryReducingValueStorage<Int, Int, Int>.count()) }
            _ = rows
        }
        expectStandardError(of: folded, contains: "SignalGraph: a view was released while still registered")
    }
}
