import Dispatch
import Observation
import Signals
import TestSupport
import Testing

private struct Reading: Equatable, Sendable {
    var celsius: Int
    var station: String
}

@Suite("Signals and the Swift ecosystem")
struct SignalsInteropTests {
    @Test("a property's observed value re-evaluates a view once per change of what it read, and is freed")
    func observedProperty() {
        let property = Property(value: Reading(celsius: 20, station: "A"))
        weak var weakObserved: ObservedValue<Reading>?
        do {
            let observed = property.observed()
            weakObserved = observed
            let view = ViewEvaluation { _ = observed.celsius }
            property.value.station = "B"
            #expect(!view.renderIfNeeded())
            property.value.celsius = 21
            #expect(view.renderIfNeeded())
            property.value = Reading(celsius: 21, station: "B")
            #expect(!view.renderIfNeeded())
            #expect(property.didSet.connectedCount == 1)
        }
        #expect(weakObserved == nil)
        #expect(property.didSet.connectedCount == 0)
    }

    @Test("a property changed from many threads: the observed value ends at the last value")
    func observedPropertyConcurrently() {
        let property = Property(value: 0)
        let observed = property.observed()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 1...200 {
                property.value = thread * 1_000 + index
                _ = observed.value
            }
        }
        property.value = -1
        #expect(observed.value == -1)
    }

    @Test("feed(from:) fires each element in order; after a disconnect nothing more")
    func feedSignal() async {
        let signal = Signal<Int>()
        let recorder = Recorder(signal.fired)
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let ends = Log<String>()
        let feeding = signal.feed(from: stream, finished: { ends.append($0 == nil ? "end" : "error") })
        for value in 1...3 { continuation.yield(value) }
        #expect(await eventually { recorder.values == [1, 2, 3] })
        feeding.disconnect()
        continuation.yield(4)
        continuation.finish()
        await yieldTimes()
        #expect(recorder.values == [1, 2, 3])
        #expect(ends.all.isEmpty)

        let finite = signal.feed(
            from: AsyncStream { c in
                c.yield(5); c.finish()
            }, finished: { ends.append($0 == nil ? "end" : "error") })
        #expect(await eventually { ends.all == ["end"] })
        #expect(recorder.values == [1, 2, 3, 5])
        _ = finite
    }

    @Test("signals and properties describe their last message and chains")
    func descriptions() {
        let signal = Signal<Int>()
        #expect(signal.debugDescription == "Signal<Int>(no message yet, connected: 0)")
        signal.fire(with: 4)
        let property = Property(value: "x")
        #expect(signal.debugDescription == "Signal<Int>(last: 4, connected: 0)")
        #expect(property.debugDescription == "Property<String>(x, connected: 0)")
        #expect(property.didSet.debugDescription.contains("last: x"))
    }
}

@Suite("Signals observed on a queue")
struct SignalsObservedOnQueueTests {
    @Test("observed(on:) takes each change when the queue runs it, in order, and is freed")
    func observedOnMain() async {
        let property = Property(value: 1)
        weak var weakObserved: ObservedValue<Int>?
        do {
            let observed = property.observed(on: .main)
            weakObserved = observed
            #expect(observed.value == 1)
            property.value = 2
            property.value = 3
            await drainMain()
            #expect(observed.value == 3)
            #expect(observed.changeCount >= 1)
            #expect(property.didSet.connectedCount == 1)
        }
        await drainMain()
        #expect(weakObserved == nil)
        #expect(property.didSet.connectedCount == 0)
    }
}

@Suite("Signals subscribed through a dispatch view")
struct SignalsSubscribeOnQueueTests {
    @Test("subscribe on a dispatch(to:) view delivers on that queue, in order, whatever thread writes")
    func subscribeOnQueue() async {
        let queue = DispatchQueue(label: "subscriber")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let property = Property(value: 0)
        let seen = LockedBox<[(value: Int, onQueue: Bool)]>([])
        let connection = property.didSet.dispatch(to: queue).subscribe { value in
            seen.mutate { $0.append((value, DispatchQueue.getSpecific(key: key) == 7)) }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 1...50 { property.value = thread * 100 + index }
        }
        let last = property.value
        #expect(await eventually { seen.read { $0.last?.value == last } })
        #expect(seen.read { $0.allSatisfy(\.onQueue) })
        let inline = LockedBox<Bool?>(nil)
        let plain = property.didSet.subscribe { _ in inline.mutate { $0 = DispatchQueue.getSpecific(key: key) == 7 } }
        #expect(inline.read { $0 } == false, "a plain subscription still runs inline, here")
        plain.disconnect()
        connection.disconnect()
    }
}
