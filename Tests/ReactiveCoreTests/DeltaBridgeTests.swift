import ReactiveCore
import Testing

/// A source that sends what the test tells it to, and tells whether it is subscribed.
private final class ScriptedSource: DeltaSource {
    var sink: ((DeltaEvent<Int>) -> Void)?
    var initial: [DeltaEvent<Int>] = [.begin, .delta(0), .end]

    func subscribeDeltas(_ sink: @escaping (DeltaEvent<Int>) -> Void) -> Connection {
        self.sink = sink
        for event in initial { sink(event) }
        return Connection(isolated: { [weak self] in self?.sink = nil })
    }

    func send(_ events: DeltaEvent<Int>...) {
        for event in events { sink?(event) }
    }
}

/// A target that records the calls it receives.
private final class RecordingTarget: DeltaTarget {
    var calls: [String] = []
    var onApply: (([Int]) -> Void)?

    func beginTransaction() { calls.append("begin") }
    func apply(_ deltas: [Int]) {
        calls.append("apply \(deltas)")
        onApply?(deltas)
    }
    func endTransaction() { calls.append("end") }
}

@Suite("Delta bridges")
struct DeltaBridgeTests {
    @Test("the target takes the source's state at once, then each outermost transaction as one apply")
    func transactions() {
        let source = ScriptedSource()
        let target = RecordingTarget()
        let bridge = source.drive(target)
        #expect(target.calls == ["begin", "apply [0]", "end"])
        target.calls = []
        source.send(.begin, .delta(1), .begin, .delta(2), .end, .delta(3), .end)
        #expect(target.calls == ["begin", "apply [1, 2, 3]", "end"])
        target.calls = []
        source.send(.begin, .end)
        #expect(target.calls == ["begin", "end"], "an empty transaction applies nothing")
        bridge.disconnect()
        #expect(source.sink == nil)
    }

    @Test("a delta outside any transaction, and an end without a begin, from a transaction begun before the bridge")
    func unbalancedStart() {
        let source = ScriptedSource()
        source.initial = [.begin, .delta(0), .end, .delta(5), .end]
        let target = RecordingTarget()
        let bridge = source.drive(target)
        #expect(target.calls == ["begin", "apply [0]", "end", "begin", "apply [5]", "end"])
        bridge.disconnect()
    }

    @Test(
        "disconnecting in the middle of a transaction ends the target's, without its deltas, and nothing more arrives")
    func disconnectMidTransaction() {
        let source = ScriptedSource()
        let target = RecordingTarget()
        let bridge = source.drive(target)
        target.calls = []
        source.send(.begin, .delta(1))
        bridge.disconnect()
        #expect(target.calls == ["begin", "end"])
        let sink = source.sink
        #expect(sink == nil)
        bridge.disconnect()
        #expect(target.calls == ["begin", "end"], "disconnecting twice changes nothing")
    }

    @Test("a target that disconnects its bridge while applying keeps its transaction balanced")
    func reentrantDisconnect() {
        let source = ScriptedSource()
        let target = RecordingTarget()
        var bridge: Connection?
        bridge = source.drive(target)
        target.calls = []
        target.onApply = { _ in bridge?.disconnect() }
        source.send(.begin, .delta(1), .end)
        #expect(target.calls == ["begin", "apply [1]", "end"])
        source.send(.begin, .delta(2), .end)
        #expect(target.calls == ["begin", "apply [1]", "end"])
    }

    @Test("a transaction a target makes its source send while applying joins the one under way")
    func reentrantSend() {
        let source = ScriptedSource()
        let target = RecordingTarget()
        let bridge = source.drive(target)
        target.calls = []
        var sent = false
        target.onApply = { _ in
            guard !sent else { return }
            sent = true
            source.send(.begin, .delta(9), .end)
        }
        source.send(.begin, .delta(1), .end)
        #expect(target.calls == ["begin", "apply [1]", "begin", "apply [9]", "end", "end"])
        bridge.disconnect()
    }

    @Test("releasing the connection disconnects and lets go of the target")
    func release() {
        let source = ScriptedSource()
        weak var weakTarget: RecordingTarget?
        do {
            let target = RecordingTarget()
            weakTarget = target
            _ = source.drive(target)
        }
        #expect(weakTarget == nil)
        #expect(source.sink == nil)
    }

    @Test("ValueDeltas sends each value of a Subscribable as one transaction")
    func valueDeltas() {
        let subject = Subject()
        let target = RecordingTarget()
        let bridge = ValueDeltas(subject).drive(target)
        subject.send(4)
        subject.send(5)
        #expect(target.calls == ["begin", "apply [4]", "end", "begin", "apply [5]", "end"])
        bridge.disconnect()
        subject.send(6)
        #expect(target.calls.count == 6)
    }
}

/// A minimal Subscribable that sends nothing on subscription.
private final class Subject: Subscribable, @unchecked Sendable {
    // Unchecked: used on the test's thread only.
    private var sinks: [Int: @Sendable (Int) -> Void] = [:]
    private var next = 0

    func subscribe(_ sink: @escaping @Sendable (Int) -> Void) -> Connection {
        let token = next
        next += 1
        sinks[token] = sink
        return Connection(isolated: { [self] in sinks[token] = nil })
    }

    func send(_ value: Int) {
        for sink in sinks.values { sink(value) }
    }
}
