import Dispatch
import Signals
import TestSupport
import Testing

/// `dispatch(to:)`, `dispatch(qos:)` and `noDispatch()` are views of the observable before
/// them, not hops: they say where the modifiers connected to them run.
@Suite("Dispatch views")
struct DispatchViewTests {
    @Test("noDispatch() and dispatch(to:) share the last message and the connected count of what they view")
    func viewsShareState() {
        let signal = Signal<Int>(value: 1)
        let inline = signal.fired.noDispatch()
        let queued = signal.fired.dispatch(to: DispatchQueue(label: "DispatchViewTests.shared"))
        #expect(inline.lastMessage == 1 && queued.lastMessage == 1)
        #expect(signal.fired.connectedCount == 0)
        let observables = ObservableCollection()
        inline.then { _ in }.append(to: observables)
        #expect(signal.fired.connectedCount == 1)
        #expect(inline.connectedCount == 1 && queued.connectedCount == 1)
        signal.fire(with: 2)
        #expect(inline.lastMessage == 2 && queued.lastMessage == 2)
        observables.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("a modifier connected later to dispatch(to:) receives its replay on the queue, not on the connecting thread")
    func replayRunsOnTheQueue() async {
        let queue = DispatchQueue(label: "DispatchViewTests.replay")
        queue.setSpecific(key: viewQueueKey, value: "replay")
        let signal = Signal<Int>(value: 7)
        let log = Log<String>()
        let observables = ObservableCollection()
        let view = signal.fired.dispatch(to: queue)
        let first = Gate()
        view.then { _ in first.open() }.append(to: observables)
        await first.wait()
        // The view has passed a message on: a modifier connected now is replayed it.
        let second = Gate()
        view.map { $0 * 2 }.then { value in
            log.append("\(value) on \(DispatchQueue.getSpecific(key: viewQueueKey) ?? "another queue")")
            second.open()
        }.append(to: observables)
        await second.wait()
        #expect(log.all == ["14 on replay"])
        observables.removeAll()
    }

    @Test("chains sharing one dispatch view run on its serial queue in the order messages arrived")
    func sharedViewKeepsOrder() async {
        let concurrent = DispatchQueue(label: "DispatchViewTests.concurrent", attributes: .concurrent)
        let signal = Signal<Int>()
        let log = Log<String>()
        let done = Gate()
        let observables = ObservableCollection()
        let view = signal.fired.dispatch(to: concurrent)
        view.then { log.append("a\($0)") }.append(to: observables)
        view.map { $0 }.then {
            log.append("b\($0)")
            if $0 == 99 { done.open() }
        }.append(to: observables)
        for value in 0..<100 { signal.fire(with: value) }
        await done.wait()
        #expect(log.all == (0..<100).flatMap { ["a\($0)", "b\($0)"] })
        observables.removeAll()
    }

    @Test("a view appended to a collection removes the chain behind it, which is freed")
    func viewAppendedAlone() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        weak var weakMap: MapModifier<Int, Int>?
        do {
            let map = signal.fired.noDispatch().map { $0 + 1 }
            map.noDispatch().append(to: observables)
            weakMap = map
        }
        #expect(weakMap != nil)
        #expect(signal.fired.connectedCount == 1)
        observables.removeAll()
        #expect(weakMap == nil)
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("a closure after noDispatch() that fires its own signal gets that message after the current one")
    func reentrantFireThroughView() {
        let signal = Signal<Int>()
        let log = Log<String>()
        let observables = ObservableCollection()
        let view = signal.fired.noDispatch()
        view.then { value in
            log.append("first \(value)")
            if value == 1 { signal.fire(with: 2) }
        }.append(to: observables)
        view.then { log.append("second \($0)") }.append(to: observables)
        signal.fire(with: 1)
        #expect(log.all == ["first 1", "second 1", "first 2", "second 2"])
        #expect(view.lastMessage == 2)
        observables.removeAll()
    }
}

private let viewQueueKey = DispatchSpecificKey<String>()
