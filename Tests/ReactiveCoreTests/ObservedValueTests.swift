import Dispatch
import Observation
import TestSupport
import Testing

@testable import ReactiveCore

/// A single-threaded current-value source of any value, as a paradigm would write one.
final class ValueSource<Value>: Subscribable {
    private var sinks: [Int: (Value) -> Void] = [:]
    private var nextKey = 0
    private(set) var value: Value

    init(_ value: Value) { self.value = value }

    var subscriberCount: Int { sinks.count }

    func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        let key = nextKey
        nextKey += 1
        sinks[key] = sink
        sink(value)
        return Connection(isolated: { self.sinks[key] = nil })
    }

    func send(_ newValue: Value) {
        value = newValue
        for key in sinks.keys.sorted() { sinks[key]?(newValue) }
    }
}

struct Profile: Equatable {
    var name: String
    var count: Int
    var tags: [String] = []
}

@Suite("ObservedValue")
struct ObservedValueTests {
    @Test("starts from the value the source delivers on subscription, not the initial one")
    func currentValue() {
        let source = ValueSource(Profile(name: "a", count: 1))
        let observed = ObservedValue(source, initial: Profile(name: "", count: 0))
        #expect(observed.value == Profile(name: "a", count: 1))
        #expect(observed.changeCount == 0 || observed.changeCount == 1)
        #expect(source.subscriberCount == 1)
    }

    @Test("a view that reads one member re-evaluates once per change of it, never for others")
    func tracksOnlyWhatWasRead() {
        let source = ValueSource(Profile(name: "a", count: 1))
        let observed = ObservedValue(source, initial: source.value)
        var seen: [Int] = []
        let view = ViewEvaluation { seen.append(observed.count) }
        source.send(Profile(name: "b", count: 1))
        #expect(!view.renderIfNeeded())
        source.send(Profile(name: "b", count: 2))
        #expect(view.renderIfNeeded())
        source.send(Profile(name: "c", count: 2, tags: ["x"]))
        #expect(!view.renderIfNeeded())
        source.send(Profile(name: "c", count: 3))
        source.send(Profile(name: "c", count: 4))
        #expect(view.renderIfNeeded())
        #expect(view.count == 3)
        #expect(seen == [1, 2, 4])
    }

    @Test("reading value tracks the whole value; a key path subscript tracks a nested member")
    func wholeAndNested() {
        let source = ValueSource(Profile(name: "a", count: 1))
        let observed = ObservedValue(source, initial: source.value)
        let whole = ViewEvaluation { _ = observed.value }
        let nested = ViewEvaluation { _ = observed[\.name.count] }
        source.send(Profile(name: "b", count: 1))
        #expect(whole.renderIfNeeded())
        #expect(!nested.renderIfNeeded())
        source.send(Profile(name: "bb", count: 1))
        #expect(whole.renderIfNeeded())
        #expect(nested.renderIfNeeded())
    }

    @Test("an equal value is a no-op: nobody is told, the change count stays")
    func equalValueIsNoOp() {
        let source = ValueSource(Profile(name: "a", count: 1))
        let observed = ObservedValue(source, initial: source.value)
        let before = observed.changeCount
        let view = ViewEvaluation { _ = observed.value }
        for _ in 0..<3 { source.send(Profile(name: "a", count: 1)) }
        #expect(!view.renderIfNeeded())
        #expect(observed.changeCount == before)
    }

    @Test("class instances compare by identity; other values always change")
    func identityAndNonEquatable() {
        final class Node {}
        struct Opaque { var id: Int }
        let node = Node()
        let nodes = ValueSource(node)
        let observedNode = ObservedValue(nodes, initial: node)
        let nodeView = ViewEvaluation { _ = observedNode.value }
        nodes.send(node)
        #expect(!nodeView.renderIfNeeded())
        nodes.send(Node())
        #expect(nodeView.renderIfNeeded())

        let opaques = ValueSource(Opaque(id: 1))
        let observedOpaque = ObservedValue(opaques, initial: Opaque(id: 0))
        let opaqueView = ViewEvaluation { _ = observedOpaque.value }
        let memberView = ViewEvaluation { _ = observedOpaque.id }
        opaques.send(Opaque(id: 1))
        // The whole value cannot be compared, so it changed; its `Int` member did not.
        #expect(opaqueView.renderIfNeeded())
        #expect(!memberView.renderIfNeeded())
    }

    @Test("onChange sees the old value; an onChange that makes the source deliver again is applied after, in order")
    func reentrantDelivery() {
        let source = ValueSource(Profile(name: "a", count: 0))
        let observed = ObservedValue(source, initial: source.value)
        let seenInOnChange = Log<Int>()
        var applied: [Int] = []
        nonisolated(unsafe) let unsafeSource = source
        func track() {
            withObservationTracking {
                _ = observed.count
            } onChange: {
                seenInOnChange.append(observed.count)
                // Observation calls onChange on the thread that changed the value: here.
                if observed.count == 1 { unsafeSource.send(Profile(name: "a", count: 5)) }
            }
        }
        track()
        source.send(Profile(name: "a", count: 1))
        applied.append(observed.count)
        track()
        source.send(Profile(name: "a", count: 2))
        applied.append(observed.count)
        // The first onChange saw 0 (willSet). The second saw 1 and sent 5, which waited for
        // 2 to be applied and then replaced it: the last value delivered stays.
        #expect(seenInOnChange.all == [0, 1])
        #expect(applied == [1, 5])
        #expect(observed.value.count == 5)
    }

    @Test("releasing the observed value disconnects it and frees it; disconnect keeps the last value")
    func lifetime() {
        let source = ValueSource(Profile(name: "a", count: 1))
        weak var weakObserved: ObservedValue<Profile>?
        do {
            let observed = ObservedValue(source, initial: source.value)
            weakObserved = observed
            let view = ViewEvaluation { _ = observed.count }
            #expect(source.subscriberCount == 1)
            #expect(view.count == 1)
        }
        #expect(weakObserved == nil)
        #expect(source.subscriberCount == 0)

        let kept = ObservedValue(source, initial: source.value)
        kept.disconnect()
        #expect(!kept.isConnected)
        source.send(Profile(name: "z", count: 9))
        #expect(kept.value.count == 1)
        #expect(kept.debugDescription.contains("disconnected"))
    }

    @Test("a thread-safe source may deliver from many threads while views read; the last value stays")
    func concurrentDeliveries() {
        let source = SharedSource()
        let observed = ObservedValue(source, initial: -1)
        let reads = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 {
                source.send(thread * 1_000 + index)
                if observed.value >= 0 { reads.increment() }
            }
        }
        source.send(123_456)
        #expect(observed.value == 123_456)
        #expect(observed.changeCount <= 4_001)
        #expect(reads.value > 0)
    }
}

@Suite("debug and Recorder")
struct DebugAndRecorderTests {
    @Test("debug logs subscription, each value and disconnection, and passes values on in order")
    func debugLogs() {
        let source = ValueSource(0)
        let lines = Log<String>()
        var received: [Int] = []
        let debugged = source.debug("counter", log: { lines.append($0) })
        let first = debugged.subscribe(isolated: { received.append($0) })
        source.send(1)
        let second = debugged.subscribe(isolated: { _ in })
        first.disconnect()
        source.send(2)
        second.disconnect()
        second.disconnect()
        #expect(received == [0, 1])
        #expect(
            lines.all == [
                "counter: subscribed", "counter: value 0", "counter: value 1",
                "counter #2: subscribed", "counter #2: value 1", "counter: disconnected",
                "counter #2: value 2", "counter #2: disconnected",
            ])
    }

    @Test("a recorder keeps every value in order, forgets what was taken, stops on disconnect")
    func recorder() {
        let source = ValueSource(0)
        let recorder = source.record()
        source.send(1)
        source.send(1)
        #expect(recorder.values == [0, 1, 1])
        #expect(recorder.takeValues() == [0, 1, 1])
        source.send(2)
        #expect(recorder.values == [2])
        #expect(recorder.last == 2)
        recorder.disconnect()
        source.send(3)
        #expect(recorder.values == [2])
        #expect(!recorder.isConnected)
        #expect(source.subscriberCount == 0)
    }

    @Test("a recorder that is released disconnects and is freed; a recorder may subscribe from a delivery")
    func recorderLifetimeAndReentrancy() {
        let source = ValueSource(0)
        weak var weakRecorder: Recorder<Int>?
        do {
            let recorder = Recorder(source)
            weakRecorder = recorder
        }
        #expect(weakRecorder == nil)
        #expect(source.subscriberCount == 0)

        var late: Recorder<Int>?
        let trigger = source.subscribe { value in
            if value == 1 && late == nil { late = Recorder(source) }
        }
        source.send(1)
        source.send(2)
        #expect(late?.values == [1, 2])
        trigger.disconnect()
    }

    @Test("a recorder of a thread-safe source records every delivery from every thread")
    func recorderConcurrent() {
        let source = SharedSource()
        let recorder = Recorder(source)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<250 { source.send(thread * 1_000 + index) }
        }
        let values = recorder.values
        #expect(values.count == 2_000)
        #expect(Set(values).count == 2_000)
    }
}
