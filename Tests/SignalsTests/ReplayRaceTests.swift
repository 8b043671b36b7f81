import Foundation
import Signals
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replay on connect while other threads fire, and states that race between threads.
@Suite("Replay and states under races")
struct ReplayRaceTests {
    /// Whether `values` only goes up.
    private static func increases(_ values: [Int]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
    }

    @Test("a chain connected while another thread fires gets the replay first, then only newer messages")
    func replayWhileFiring() {
        let signal = Signal<Int>(value: 0)
        let stop = LockedState(false)
        let done = DispatchSemaphore(value: 0)
        // The firing thread runs at most 64 messages ahead of the connections: each chain
        // then receives a bounded number of messages, however much faster that thread is
        // (under a sanitizer on loaded cores, an unbounded one made each chain's log grow
        // with the run, and the run with it), while messages still arrive as chains connect.
        // On a thread of its own: spinning, it would hold one of the global queue's few
        // workers for the whole test.
        let connected = Atomic(0)
        Thread.detachNewThread {
            var next = 1
            while !stop.withLock({ $0 }) {
                if next > 64 * (connected.load(ordering: .relaxed) + 1) {
                    sched_yield()
                    continue
                }
                signal.fire(with: next)
                next += 1
            }
            done.signal()
        }
        var backwards = 0
        var received = 0
        // Each chain lives while the next few connect, so that messages reach it from the
        // firing thread while others are being replayed theirs.
        var living: [(log: LockedState<[Int]>, chain: ThenModifier<Int>)] = []
        func check(_ log: LockedState<[Int]>) {
            let values = log.withLock { $0 }
            received += values.count
            if !Self.increases(values) { backwards += 1 }
        }
        for _ in 0..<20_000 {
            let log = LockedState<[Int]>([])
            let chain = signal.fired.noDispatch().then { value in log.withLock { $0.append(value) } }
            living.append((log, chain))
            connected.add(1, ordering: .relaxed)
            if living.count > 4 { check(living.removeFirst().log) }
        }
        for (log, _) in living { check(log) }
        living.removeAll()
        stop.withLock { $0 = true }
        done.wait()
        #expect(backwards == 0)
        // Every chain got at least its replay.
        #expect(received >= 20_000)
    }

    @Test(
        "connecting a chain whose work is slower than another thread's firing ends, and the chain gets every later message in order",
        // A guard against the drain that never ended, not a timing: in a full parallel run on
        // two loaded cores this test has taken 100 s from its start to its end (most of it
        // waiting for the concurrency pool), so a one-minute limit could fail a correct run.
        .timeLimit(.minutes(5))
    )
    func connectUnderFirehose() async {
        let signal = Signal<Int>(value: 0)
        let firing = LoopingThread { signal.fire(with: $0) }
        // While the chains connect, each message's work is slower than the firing loop's, so
        // messages keep arriving while those that waited are received: a drain that ran
        // until none was left never ended (the time limit names it). Fast afterwards, so
        // that receiving the rest stays short.
        let isSlow = Atomic(true)
        let observables = ObservableCollection()
        var logs: [Log<Int>] = []
        for _ in 0..<4 {
            let log = Log<Int>()
            let isReplay = Atomic(true)
            signal.fired.noDispatch().map { value in
                // The replay (on this thread) waits until the other thread has fired 100
                // more, which wait for the connect to end. Safe only because 100 is far below
                // the connect gate's limit: past it, the other thread would wait for this one.
                if isReplay.exchange(false, ordering: .relaxed) {
                    let mark = firing.progress
                    while firing.progress < mark + 100 {}
                }
                if isSlow.load(ordering: .relaxed) { _ = (0..<200).reduce(value) { $0 &+ $1 % 2 } }
                return value
            }
            .then { log.append($0) }.append(to: observables)
            logs.append(log)
        }
        isSlow.store(false, ordering: .relaxed)
        let last = firing.stop()
        // What waited is received in order, and by the time `append` returned.
        #expect(await eventually({ logs.allSatisfy { $0.all.last == last } }, yields: 10_000_000))
        for log in logs {
            let values = log.all
            #expect(Self.increases(values))
            // From its replay on, the chain missed nothing: increasing, and as many as
            // first...last.
            if let first = values.first { #expect(values.count == last - first + 1) }
        }
        observables.removeAll()
    }

    @Test("a replay whose work fires its own source receives that message after the replay, not inside it")
    func replayThatFires() {
        let signal = Signal<Int>(value: 0)
        let observables = ObservableCollection()
        let log = Log<String>()
        signal.fired.noDispatch().then { value in
            log.append("begin \(value)")
            if value == 0 { signal.fire(with: 1) }
            log.append("end \(value)")
        }.append(to: observables)
        #expect(log.all == ["begin 0", "end 0", "begin 1", "end 1"])
        #expect(signal.fired.lastMessage == 1)
        observables.removeAll()
    }

    @Test("a map after a property written from many threads never keeps a stale last value")
    func mapAfterRacingProperty() {
        for round in 0..<20 {
            let property = Property(value: 0)
            let mapped = property.didSet.noDispatch().map { $0 + 1 }
            let after = mapped.noDispatch().map { $0 * 10 }
            let observables = ObservableCollection()
            after.then { _ in }.append(to: observables)
            DispatchQueue.concurrentPerform(iterations: 4) { lane in
                for step in 0..<500 { property.value = round * 10_000 + step * 4 + lane + 1 }
            }
            let value = property.value
            #expect(property.didSet.lastMessage == value)
            #expect(mapped.lastMessage == value + 1)
            #expect(after.lastMessage == (value + 1) * 10)
        }
    }

    @Test("scan fed from many threads: its last result counts every message, also after a dispatch")
    func scanFromManyThreads() {
        let signal = Signal<Int>()
        let counted = signal.fired.noDispatch().scan(0) { count, _ in count + 1 }
        let queue = DispatchQueue(label: "counts")
        let seen = LockedState((backwards: 0, last: 0))
        let observables = ObservableCollection()
        counted.dispatch(to: queue).then { count in
            seen.withLock { seen in
                if count <= seen.last { seen.backwards += 1 }
                seen.last = count
            }
        }.append(to: observables)
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            for step in 0..<5_000 { signal.fire(with: lane * 5_000 + step) }
        }
        queue.sync {}
        #expect(counted.lastMessage == 40_000)
        // Results are numbered in the order scan made them: after a serial hop, a result
        // that lost the race to a newer one is skipped, so they only go up.
        let (backwards, last) = seen.withLock { $0 }
        #expect(backwards == 0)
        #expect(last == 40_000)
    }

    @Test("combineLatest of two properties written from many threads ends with both newest values")
    func combineLatestOfRacingProperties() {
        let left = Property(value: 0)
        let right = Property(value: 0)
        let pairs = left.didSet.noDispatch().combineLatest(right.didSet)
        let observables = ObservableCollection()
        pairs.then { _ in }.append(to: observables)
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            for step in 1...2_000 {
                if lane.isMultiple(of: 2) { left.value = step * 8 + lane } else { right.value = step * 8 + lane }
            }
        }
        let expected = (left.value, right.value)
        #expect(pairs.lastMessage.map { $0 == expected } == true)
    }
}
