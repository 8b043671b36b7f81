import Dispatch
import Foundation
import Signals
import Synchronization
import TestSupport
import Testing

/// Flags and counters shared by the firing threads, the chain and the test.
private final class Probe: Sendable {
    let removed = Atomic(false)
    let released = Atomic(false)
    let stop = Atomic(false)
    let received = Atomic(0)
    let late = Atomic(0)
    /// Messages fired after `removed` was set.
    let firedAfterRemoval = Atomic(0)
}

/// What removal promises while other threads fire: nothing fired after a removal reaches the
/// removed chains, and after a wait for deliveries under way, none of their closures runs.
@Suite("Removal while other threads fire")
struct RemovalTests {
    /// Fires `signal` from `threads` threads until `stop` is set; each firing carries whether
    /// it began after `removed` was set.
    /// Fires `signal` from `threads` threads until `stop` is set (at most 20,000 messages
    /// each); each message carries whether it was fired after `removed` was set.
    private func fire(_ signal: Signal<Bool>, threads: Int, probe: Probe, group: DispatchGroup) {
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                for _ in 0..<20_000 where !probe.stop.load(ordering: .acquiring) {
                    let afterRemoval = probe.removed.load(ordering: .acquiring)
                    if afterRemoval { probe.firedAfterRemoval.add(1, ordering: .relaxed) }
                    signal.fire(with: afterRemoval)
                }
                group.leave()
            }
        }
    }

    /// After a removal: lets the firing threads fire a few hundred more messages (or end),
    /// then stops them and waits for them.
    private func fireOnAfterRemoval(_ probe: Probe, group: DispatchGroup) {
        while probe.firedAfterRemoval.load(ordering: .relaxed) < 300, group.wait(timeout: .now()) == .timedOut {
            sched_yield()
        }
        probe.stop.store(true, ordering: .releasing)
        group.wait()
    }

    @Test(
        "after removeAllAndWait returns, no closure of the removed chains runs: inline and dispatched, three firing threads",
        arguments: [false, true])
    func removeAllAndWait(dispatched: Bool) {
        let queue = DispatchQueue(label: "removal")
        var firedAfterRemoval = 0
        for _ in 0..<40 {
            let signal = Signal<Bool>()
            let observables = ObservableCollection()
            let probe = Probe()
            let source = dispatched ? signal.fired.dispatch(to: queue) : signal.fired.noDispatch()
            source.map { $0 }.then { _ in
                probe.received.add(1, ordering: .relaxed)
                // What a user releases after the wait must not be used any more.
                if probe.released.load(ordering: .acquiring) { probe.late.add(1, ordering: .relaxed) }
            }.append(to: observables)
            let group = DispatchGroup()
            fire(signal, threads: 3, probe: probe, group: group)
            // Until the chain has received some, or the firing is over: never an unbounded spin
            // (a test spinning on the cooperative pool can starve what it waits for).
            while probe.received.load(ordering: .relaxed) < 20, group.wait(timeout: .now()) == .timedOut {
                sched_yield()
            }
            observables.removeAllAndWait()
            probe.removed.store(true, ordering: .releasing)
            probe.released.store(true, ordering: .releasing)
            fireOnAfterRemoval(probe, group: group)
            firedAfterRemoval += probe.firedAfterRemoval.load(ordering: .relaxed)
            queue.sync {}
            #expect(probe.late.load(ordering: .relaxed) == 0)
        }
        // The rounds raced: messages were fired after the removals.
        #expect(firedAfterRemoval > 0)
    }

    @Test("after removeAll returns, no message fired later reaches the removed chain", arguments: [false, true])
    func removeAllStopsLaterMessages(dispatched: Bool) {
        let queue = DispatchQueue(label: "removal")
        var firedAfterRemoval = 0
        for _ in 0..<40 {
            let signal = Signal<Bool>()
            let observables = ObservableCollection()
            let probe = Probe()
            let source = dispatched ? signal.fired.dispatch(to: queue) : signal.fired.noDispatch()
            source.then { firedAfterRemoval in
                probe.received.add(1, ordering: .relaxed)
                if firedAfterRemoval { probe.late.add(1, ordering: .relaxed) }
            }.append(to: observables)
            let group = DispatchGroup()
            fire(signal, threads: 3, probe: probe, group: group)
            // Until the chain has received some, or the firing is over: never an unbounded spin
            // (a test spinning on the cooperative pool can starve what it waits for).
            while probe.received.load(ordering: .relaxed) < 20, group.wait(timeout: .now()) == .timedOut {
                sched_yield()
            }
            observables.removeAll()
            probe.removed.store(true, ordering: .releasing)
            fireOnAfterRemoval(probe, group: group)
            firedAfterRemoval += probe.firedAfterRemoval.load(ordering: .relaxed)
            queue.sync {}
            #expect(probe.late.load(ordering: .relaxed) == 0)
        }
        // The rounds raced: messages were fired after the removals.
        #expect(firedAfterRemoval > 0)
    }

    @Test("a subscription disconnected, then waitForDeliveriesUnderWay: its sink runs no more")
    func disconnectAndWait() {
        var firedAfterRemoval = 0
        for _ in 0..<40 {
            let signal = Signal<Bool>()
            let probe = Probe()
            let connection = signal.fired.subscribe { _ in
                probe.received.add(1, ordering: .relaxed)
                if probe.released.load(ordering: .acquiring) { probe.late.add(1, ordering: .relaxed) }
            }
            let group = DispatchGroup()
            fire(signal, threads: 3, probe: probe, group: group)
            // Until the chain has received some, or the firing is over: never an unbounded spin
            // (a test spinning on the cooperative pool can starve what it waits for).
            while probe.received.load(ordering: .relaxed) < 20, group.wait(timeout: .now()) == .timedOut {
                sched_yield()
            }
            connection.disconnect()
            ObservableCollection.waitForDeliveriesUnderWay()
            probe.removed.store(true, ordering: .releasing)
            probe.released.store(true, ordering: .releasing)
            fireOnAfterRemoval(probe, group: group)
            firedAfterRemoval += probe.firedAfterRemoval.load(ordering: .relaxed)
            #expect(probe.late.load(ordering: .relaxed) == 0)
        }
        // The rounds raced: messages were fired after the removals.
        #expect(firedAfterRemoval > 0)
    }

    @Test("a periodic timer invalidated, then waitForDeliveriesUnderWay: it fires no more")
    func timerInvalidateAndWait() {
        for _ in 0..<20 {
            // Time moves on a thread of its own, as fast as it can: each advance fires the
            // timer there, racing the invalidation on the test's thread.
            let scheduler = TestScheduler()
            let timer = PeriodicTimer(interval: .milliseconds(1), scheduler: scheduler)
            let observables = ObservableCollection()
            let probe = Probe()
            timer.fired.noDispatch().then {
                probe.received.add(1, ordering: .relaxed)
                if probe.released.load(ordering: .acquiring) { probe.late.add(1, ordering: .relaxed) }
            }.append(to: observables)
            timer.activate()
            let ticker = DispatchGroup()
            ticker.enter()
            Thread.detachNewThread {
                var advances = 0
                // Until stopped, and at least 200 advances after the release.
                while !probe.stop.load(ordering: .acquiring) || advances < 200 {
                    scheduler.advance(by: .milliseconds(1))
                    if probe.released.load(ordering: .acquiring) { advances += 1 }
                }
                ticker.leave()
            }
            while probe.received.load(ordering: .relaxed) < 3 { sched_yield() }
            timer.invalidate()
            ObservableCollection.waitForDeliveriesUnderWay()
            probe.released.store(true, ordering: .releasing)
            let stopped = probe.received.load(ordering: .relaxed)
            probe.stop.store(true, ordering: .releasing)
            ticker.wait()
            #expect(probe.late.load(ordering: .relaxed) == 0)
            #expect(probe.received.load(ordering: .relaxed) == stopped)
            #expect(!timer.isActive)
        }
    }

    @Test("removal from inside a delivery does not wait: removeAll there is allowed and stops the chain")
    func removalInsideDelivery() {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let probe = Probe()
        signal.fired.noDispatch().then { _ in
            probe.received.add(1, ordering: .relaxed)
            observables.removeAll()
        }.append(to: observables)
        signal.fire(with: 1)
        signal.fire(with: 2)
        #expect(probe.received.load(ordering: .relaxed) == 1)
        #expect(observables.count == 0)
    }

    @Test("waiting for deliveries from inside a delivery is a precondition failure")
    func waitInsideDelivery() async {
        let removeAll = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let signal = Signal<Int>()
            let observables = ObservableCollection()
            signal.fired.noDispatch().then { _ in observables.removeAllAndWait() }.append(to: observables)
            signal.fire(with: 1)
        }
        expectStandardError(of: removeAll, contains: "Signals: removeAllAndWait() called from inside a delivery")
        let wait = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let signal = Signal<Int>()
            let observables = ObservableCollection()
            signal.fired.noDispatch().then { _ in ObservableCollection.waitForDeliveriesUnderWay() }.append(
                to: observables)
            signal.fire(with: 1)
        }
        expectStandardError(of: wait, contains: "Signals: waitForDeliveriesUnderWay() called from inside a delivery")
    }
}
