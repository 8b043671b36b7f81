import SignalGraph
import TestSupport
import Testing

@Suite("Feeding storages from asynchronous sequences of transitions")
struct FeedTests {
    @Test("a feed applies each transition in order, normalized, and the views on the storage follow")
    @MainActor func feeds() async {
        let rows = EditableDictionaryStorage<Int, String>()
        let sorted = DictionarySortingArrayStorage<Int, String> { $0.value < $1.value }
        rows.register(sorted)
        let (updates, continuation) = AsyncStream<DictionaryTransition<Int, String>>.makeStream()
        var ended = false
        let feeding = rows.feed(from: updates) { _ in ended = true }
        continuation.yield(DictionaryTransition([.insert(1, "b"), .insert(2, "a")]))
        // An insert under a key that is there is an update; a delete of a missing key is dropped.
        continuation.yield(DictionaryTransition([.insert(1, "c"), .delete(9)]))
        continuation.finish()
        #expect(await eventually({ ended }))
        #expect(rows.state == [1: "c", 2: "a"])
        #expect(sorted.state.map(\.value) == ["a", "c"])
        feeding.disconnect()
        rows.deregister(sorted)
    }

    @Test("after the connection disconnects, nothing more is applied and finished does not run")
    @MainActor func disconnects() async {
        let total = ValueStorage(0)
        let (values, continuation) = AsyncStream<Int>.makeStream()
        var finishedCalls = 0
        let feeding = total.feed(from: values) { _ in finishedCalls += 1 }
        continuation.yield(1)
        #expect(await eventually({ total.state == 1 }))
        feeding.disconnect()
        continuation.yield(2)
        continuation.finish()
        await yieldTimes(1_000)
        #expect(total.state == 1)
        #expect(finishedCalls == 0)
    }

    @Test("a set transition applied to an editable set sends only what changes")
    func setNormalization() {
        let tags = EditableSetStorage<String>(["a", "b"])
        var sent: [SetTransition<String>] = []
        let sensor = SignalSensor<SetSignal<String>> { signal in
            if case .transition(let transition) = signal { sent.append(transition) }
        }
        tags.register(sensor)
        tags.apply(SetTransition(deleted: ["a", "z"], inserted: ["b", "c"]))
        tags.apply(SetTransition(deleted: ["q"], inserted: ["c"]))
        #expect(tags.state == ["b", "c"])
        #expect(sent.map(\.deleted) == [["a"]])
        #expect(sent.map(\.inserted) == [["c"]])
        tags.deregister(sensor)
    }
}
