import Signals
import Synchronization
import TestSupport
import Testing

/// The receivers lists a delivery walks without retaining them: receivers connected and
/// removed at random, from outside and from inside deliveries, and from other threads; and
/// when a removed working part is freed.
@Suite("Signals: receivers lists and when removed parts are freed")
struct ReclamationTests {
    /// One receiver of the model: its own collection, and what it received.
    final class Sink: @unchecked Sendable {
        // Single-threaded: the model fires and connects from the test's thread only.
        let id: Int
        let collection = ObservableCollection()
        var received: [Int] = []
        init(id: Int) { self.id = id }
    }

    @Test(
        "fan-out model: receivers connected and removed at random receive exactly while connected, in connection order",
        arguments: 0..<8)
    func fanOutModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let signal = Signal<Int>()
        var connected: [Sink] = []  // The reference: connection order, removals closing gaps.
        var everyone: [Sink] = []
        var expected: [Int: [Int]] = [:]
        var last: Int?
        var nextID = 0
        for step in 0..<600 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                // Connect: a replay of the last message, if any, then every later one.
                let sink = Sink(id: nextID)
                nextID += 1
                signal.fired.noDispatch().then { sink.received.append($0) }.append(to: sink.collection)
                connected.append(sink)
                everyone.append(sink)
                expected[sink.id] = last.map { [$0] } ?? []
            case 4..<6 where !connected.isEmpty:
                let index = Int.random(in: 0..<connected.count, using: &random)
                connected.remove(at: index).collection.removeAll()
            default:
                signal.fire(with: step)
                last = step
                for sink in connected { expected[sink.id]!.append(step) }
            }
            #expect(signal.fired.connectedCount == connected.count)
        }
        for sink in everyone { #expect(sink.received == expected[sink.id], "receiver \(sink.id), seed \(seed)") }
        // Each sink's chain captures the sink, which holds the chain's collection: removing
        // the chains breaks those cycles.
        for sink in connected { sink.collection.removeAll() }
    }

    @Test("a delivery under way reaches the receivers connected when it began, less those removed before their turn")
    func changesDuringDelivery() {
        let signal = Signal<Int>()
        let log = Log<String>()
        let collections = (0..<6).map { _ in ObservableCollection() }
        @Sendable func connect(_ index: Int) {
            signal.fired.noDispatch().then { value in
                log.append("\(index):\(value)")
                // Receiver 1, on the first message: removes receiver 3 (after it in the list)
                // and receiver 0 (before it), and connects receiver 5.
                if index == 1, value == 1 {
                    collections[3].removeAll()
                    collections[0].removeAll()
                    connect(5)
                }
            }.append(to: collections[index])
        }
        for index in 0..<5 { connect(index) }
        signal.fire(with: 1)
        // Receiver 5 is replayed the message under way when it connects, and not given it
        // again by the delivery; receiver 3, removed before its turn, gets nothing.
        #expect(log.all == ["0:1", "1:1", "5:1", "2:1", "4:1"])
        signal.fire(with: 2)
        #expect(log.all.suffix(4) == ["1:2", "2:2", "4:2", "5:2"])
        #expect(signal.fired.connectedCount == 4)
        // The chains capture `collections`, which hold them: removing them breaks the cycle.
        for collection in collections { collection.removeAll() }
    }

    @Test("a working part removed while its thread delivers is freed when that delivery ends, not before")
    func heldUntilTheDeliveryEnds() async {
        let counter = TokenCounter()
        let trigger = Signal<Int>()
        let watched = Signal<Int>()
        let keep = ObservableCollection()
        let removable = ObservableCollection()
        watched.fired.noDispatch().map { counter.make($0) }.then { _ in }.append(to: removable)
        watched.fire(with: 1)
        let insideCount = Atomic(-1)
        trigger.fired.noDispatch().then { _ in
            removable.removeAll()
            // This thread is delivering: the removed parts are retired, not freed (another
            // delivery under way on this thread could still be walking a list that holds them).
            insideCount.store(counter.count, ordering: .relaxed)
        }.append(to: keep)
        trigger.fire(with: 0)
        #expect(insideCount.load(ordering: .relaxed) == 1)
        #expect(watched.fired.connectedCount == 0)
        // Freed once the delivery ended (and any other thread's delivery under way then).
        #expect(await eventually { counter.count == 0 })
    }

    @Test("receivers connected and removed while other threads fire: nothing crashes, everything is freed")
    func concurrentChurn() async {
        let counter = TokenCounter()
        let signal = Signal<Int>()
        let delivered = Atomic(0)
        let firing = (0..<3).map { _ in LoopingThread { signal.fire(with: $0) } }
        let steady = ObservableCollection()
        signal.fired.noDispatch().then { _ in delivered.add(1, ordering: .relaxed) }.append(to: steady)
        await Task.detached {
            var random = SeededGenerator(seed: 7)
            var live: [ObservableCollection] = []
            for _ in 0..<3_000 {
                if live.count < 20, Bool.random(using: &random) {
                    let collection = ObservableCollection()
                    signal.fired.noDispatch().map { counter.make($0) }.filter { _ in true }.then { _ in }
                        .append(to: collection)
                    live.append(collection)
                } else if !live.isEmpty {
                    live.remove(at: Int.random(in: 0..<live.count, using: &random)).removeAll()
                }
            }
            for collection in live { collection.removeAll() }
        }.value
        for thread in firing { _ = thread.stop() }
        #expect(signal.fired.connectedCount == 1)
        #expect(delivered.load(ordering: .relaxed) > 0)
        #expect(await eventually { counter.count == 0 })
        steady.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }
}
