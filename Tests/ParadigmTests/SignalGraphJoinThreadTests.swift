import SignalGraph
import Testing

/// SignalGraph's suites run without ThreadSanitizer (they start no thread); this one starts
/// several, each with a graph of its own, and runs under it.
@Suite("SignalGraph: joins on several threads")
struct SignalGraphJoinThreadTests {
    @Test("joins on separate threads each stay consistent: the delivery scope is the thread's")
    func threads() async {
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for seed in 0..<4 {
                group.addTask {
                    let rows = EditableDictionaryStorage<Int, Int>()
                    let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
                    let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
                    let pair = ValueJoinStorage(0, 0) { total, count in total - 10 * count }
                    var consistent = true
                    let observer = SignalSensor<ValueSignal<Int>> { signal in
                        // Every row holds 10 + its key: total - 10 * count is the sum of keys.
                        if case .transition(let value) = signal, value != rows.state.keys.reduce(0, +) {
                            consistent = false
                        }
                    }
                    rows.register(total)
                    rows.register(count)
                    total.register(pair.first)
                    count.register(pair.second)
                    pair.register(observer)
                    for step in 0..<2_000 {
                        let key = (step * 7 + seed) % 50
                        rows[key] = rows[key] == nil ? 10 + key : nil
                    }
                    pair.deregister(observer)
                    count.deregister(pair.second)
                    total.deregister(pair.first)
                    rows.deregister(count)
                    rows.deregister(total)
                    return consistent
                }
            }
            var outcomes: [Bool] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes == [true, true, true, true])
    }
}
