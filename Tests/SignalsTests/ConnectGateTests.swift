import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Signals

/// S14: while a chain connects, the messages other threads send wait behind its replay, and
/// the thread draining them does the chain's work. A sender that never pauses is held back
/// once the gate's limit of its messages wait, so connecting ends and no message lags by
/// more than the limit.
@Suite("The connect gate: a sender that never pauses cannot keep a chain connecting")
struct ConnectGateTests {
    /// The connecting thread of another thread, made there.
    private func otherThread() async -> ConnectingThread {
        let made = LockedBox<ConnectingThread?>(nil)
        await runOnThreadsOfTheirOwn([{ made.mutate { $0 = ConnectingThread() } }])
        return made.read { $0 }!
    }

    @Test(
        "the gate's rule: other threads' messages up to the limit are held; the next sender waits until connecting ends"
    )
    func gateRule() async {
        let elsewhere = await otherThread()
        var gate = SenderGate()
        // The connecting thread's own messages are never counted.
        for _ in 0..<(2 * SenderGate.limit) {
            #expect(gate.admit(fromOtherThread: false, connecting: elsewhere) == nil)
        }
        for _ in 0..<SenderGate.limit { #expect(gate.admit(fromOtherThread: true, connecting: elsewhere) == nil) }
        // Past the limit, while the drain runs on another thread: wait.
        let waiter = gate.admit(fromOtherThread: true, connecting: elsewhere)
        #expect(waiter != nil)
        #expect(gate.hasWaiters)
        // A thread that drains never waits, nor does the drainer itself, nor a sender while
        // the drain waits for a queue.
        #expect(DeliveryContext.draining { gate.admit(fromOtherThread: true, connecting: elsewhere) } == nil)
        #expect(gate.admit(fromOtherThread: true, connecting: ConnectingThread()) == nil)
        #expect(gate.admit(fromOtherThread: true, connecting: nil) == nil)
        // Connecting ends: the waiter goes on, and the next connect starts from nothing.
        gate.connectingEnds()
        #expect(waiter?.wait(timeout: .now()) == .success)
        #expect(!gate.hasWaiters)
        #expect(gate.admit(fromOtherThread: true, connecting: elsewhere) == nil)
        // Once a thread looked at the batch, it is the drainer whatever the connect said.
        var draining = SenderGate()
        draining.drains()
        for _ in 0..<SenderGate.limit { #expect(draining.admit(fromOtherThread: true, connecting: nil) == nil) }
        #expect(draining.admit(fromOtherThread: true, connecting: nil) == nil)
        // A stream operator's outbox: a full backlog holds back a thread that drains nothing.
        var outbox = SenderGate()
        #expect(outbox.holdBack(backlog: SenderGate.limit - 1) == nil)
        #expect(DeliveryContext.carrying { outbox.holdBack(backlog: SenderGate.limit) } == nil)
        let held = outbox.holdBack(backlog: SenderGate.limit)
        #expect(held != nil)
        #expect(outbox.hasWaiters)
        outbox.open()
        #expect(held?.wait(timeout: .now()) == .success)
        #expect(!outbox.hasWaiters)
        let snapshot = draining
        await runOnThreadsOfTheirOwn([
            {
                var copy = snapshot
                #expect(copy.admit(fromOtherThread: true, connecting: nil) != nil)
            }
        ])
    }

    /// What the sending thread and the chain share.
    private final class Flood: Sendable {
        /// The last message the sender's `fire` returned from.
        let sent = Atomic(0)
        /// The sender's count once the chain's replay reached it, or zero.
        let replayedAt = Atomic(0)
        /// The largest lag seen by the chain: messages sent past the one it works on.
        let maxLag = Atomic(0)
        /// The sender's count when the connect returned.
        let connectedAt = Atomic(0)
        /// How many messages the chain's work sent on (the two-chain test).
        let forwarded = Atomic(0)
        let seen = Log<Int>()

        /// The chain's work on `value`: notes its lag, and takes longer than a send does.
        func work(_ value: Int) {
            if replayedAt.load(ordering: .relaxed) == 0 {
                // The replay's work is long: the sender's messages wait behind it. (It must
                // not wait for the sender: the sender may be waiting at the gate for it.)
                replayedAt.store(max(sent.load(ordering: .relaxed), 1), ordering: .relaxed)
                var mixed = value
                for _ in 0..<300_000 { mixed = mixed &* 31 &+ 7 }
                if mixed == .min { seen.append(-1) }
            }
            let lag = sent.load(ordering: .relaxed) - value
            raise(maxLag, toAtLeast: lag)
            var mixed = value
            for _ in 0..<1_000 { mixed = mixed &* 31 &+ 7 }
            seen.append(mixed == .min ? -1 : value)
        }

        /// Sends 1, 2, … to `fire` until `more` messages followed the replay.
        func send(more: Int, _ fire: (Int) -> Void) {
            var value = 0
            while true {
                value += 1
                fire(value)
                sent.store(value, ordering: .relaxed)
                let replayed = replayedAt.load(ordering: .relaxed)
                if replayed > 0, value >= replayed + more { return }
            }
        }

        /// Waits (on its own thread) until the sender is under way, then connects.
        func connect(_ body: () -> Void) {
            while sent.load(ordering: .relaxed) < 1_000 { sched_yield() }
            body()
            connectedAt.store(sent.load(ordering: .relaxed), ordering: .relaxed)
        }

        /// Checks what the chain received against the definition: the replay, then every
        /// later message once, in order; the lag within the gate; connecting ended while the
        /// sender still sent.
        func check(more: Int) {
            let seen = seen.all
            let first = seen.first ?? 0
            #expect(first >= 1_000)
            #expect(seen == Array(first...(first + seen.count - 1)))
            #expect(seen.last == sent.load(ordering: .relaxed))
            #expect(maxLag.load(ordering: .relaxed) <= SenderGate.limit + 1)
            #expect(connectedAt.load(ordering: .relaxed) < sent.load(ordering: .relaxed) - more / 2)
        }
    }

    @Test("a modifier connecting under a flood: the sender waits at the gate, and connecting ends")
    func modifierCore() async {
        let signal = Signal<Int>()
        let flood = Flood()
        let observables = ObservableCollection()
        let more = 10_000
        await runOnThreadsOfTheirOwn([
            { flood.send(more: more) { signal.fire(with: $0) } },
            { flood.connect { signal.fired.noDispatch().map { $0 }.then { flood.work($0) }.append(to: observables) } },
        ])
        flood.check(more: more)
        observables.removeAll()
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("a side input connecting under a flood: the sender waits at the gate, and connecting ends")
    func sideInput() async {
        let main = Signal<Int>()
        let side = Signal<Int>()
        let flood = Flood()
        let observables = ObservableCollection()
        let more = 10_000
        await runOnThreadsOfTheirOwn([
            { flood.send(more: more) { side.fire(with: $0) } },
            {
                flood.connect {
                    main.fired.noDispatch().merge(with: side.fired.noDispatch()).then { flood.work($0) }
                        .append(to: observables)
                }
            },
        ])
        flood.check(more: more)
        observables.removeAll()
        #expect(side.fired.connectedCount == 0)
        #expect(main.fired.connectedCount == 0)
    }

    @Test(
        "two chains connecting under floods, each draining into the other: a thread that drains never waits, so neither waits for the other"
    )
    func drainsNeverWait() async {
        let first = Signal<Int>()
        let second = Signal<Int>()
        let floods = (Flood(), Flood())
        let observables = ObservableCollection()
        let more = 10_000
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // Each chain's work sends what the flood sent into the other's source, which is
            // connecting too: its drain sends into the other's held messages.
            let bodies: [@Sendable () -> Void] = [
                { floods.0.send(more: more) { first.fire(with: $0) } },
                { floods.1.send(more: more) { second.fire(with: $0) } },
                {
                    floods.0.connect {
                        first.fired.noDispatch().filter { $0 > 0 }.then { value in
                            floods.0.work(value)
                            floods.0.forwarded.add(1, ordering: .relaxed)
                            second.fire(with: -value)
                        }.append(to: observables)
                    }
                },
                {
                    floods.1.connect {
                        second.fired.noDispatch().filter { $0 > 0 }.then { value in
                            floods.1.work(value)
                            floods.1.forwarded.add(1, ordering: .relaxed)
                            first.fire(with: -value)
                        }.append(to: observables)
                    }
                },
            ]
            let group = DispatchGroup()
            for body in bodies {
                group.enter()
                Thread.detachNewThread {
                    body()
                    group.leave()
                }
            }
            group.wait()
            done.signal()
        }
        // A bound on a hang, not a timing: a deadlock fails here instead of stopping the run.
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: done.wait(timeout: .now() + 120) == .success)
            }
        }
        #expect(finished, "the two connects waited for each other")
        guard finished else { return }
        floods.0.check(more: more)
        floods.1.check(more: more)
        #expect(floods.0.forwarded.load(ordering: .relaxed) == floods.0.seen.count)
        #expect(floods.1.forwarded.load(ordering: .relaxed) == floods.1.seen.count)
        observables.removeAll()
        #expect(first.fired.connectedCount == 0)
        #expect(second.fired.connectedCount == 0)
    }
}

/// S15: a stream operator's effects are carried out by one thread at a time; a thread that
/// steps it while its outbox holds the gate's limit of effects waits until the carrier
/// leaves, so a sender that never pauses cannot keep another thread carrying out its
/// messages for ever.
@Suite("The outbox gate: a sender that never pauses cannot keep another thread carrying out its messages")
struct OutboxGateTests {
    /// What a flooding thread and the chain share.
    private final class Lane: Sendable {
        let sent = Atomic(0)
        let maxLag = Atomic(0)
        let seen = Log<Int>()

        func note(_ value: Int) {
            let lag = sent.load(ordering: .relaxed) - value
            raise(maxLag, toAtLeast: lag)
            seen.append(value)
        }
    }

    @Test(
        "two threads flooding a merge whose work is slower than a send: every message arrives once, in its thread's order, and none lags past the gate"
    )
    func mergeFlood() async {
        let first = Signal<Int>()
        let second = Signal<Int>()
        let lanes = (Lane(), Lane())
        let observables = ObservableCollection()
        // The merge of a list of sources is a stream operator: its effects have one carrier.
        // The first lane's messages are even, the second's odd.
        MessageSource.merge([first.fired.noDispatch(), second.fired.noDispatch()]).then { value in
            var mixed = value
            for _ in 0..<20_000 { mixed = mixed &* 31 &+ 7 }
            if mixed == .min { return }
            if value.isMultiple(of: 2) { lanes.0.note(value / 2) } else { lanes.1.note(value / 2) }
        }.append(to: observables)
        let count = 3_000
        // Both threads start sending together.
        let started = Atomic(0)
        let startTogether: @Sendable () -> Void = {
            started.add(1, ordering: .relaxed)
            while started.load(ordering: .relaxed) < 2 { sched_yield() }
        }
        await runOnThreadsOfTheirOwn([
            {
                startTogether()
                for value in 1...count {
                    first.fire(with: 2 * value)
                    lanes.0.sent.store(value, ordering: .relaxed)
                }
            },
            {
                startTogether()
                for value in 1...count {
                    second.fire(with: 2 * value + 1)
                    lanes.1.sent.store(value, ordering: .relaxed)
                }
            },
        ])
        for lane in [lanes.0, lanes.1] {
            #expect(lane.seen.all == Array(1...count))
            // A message waits behind at most the batch being carried out and the outbox.
            #expect(lane.maxLag.load(ordering: .relaxed) <= 2 * SenderGate.limit + 1)
        }
        observables.removeAll()
        #expect(first.fired.connectedCount == 0)
        #expect(second.fired.connectedCount == 0)
    }
}

/// Raises `atomic` to `value` if it holds less, however many threads raise it at once.
private func raise(_ atomic: borrowing Atomic<Int>, toAtLeast value: Int) {
    var current = atomic.load(ordering: .relaxed)
    while value > current {
        let (exchanged, original) = atomic.compareExchange(expected: current, desired: value, ordering: .relaxed)
        if exchanged { return }
        current = original
    }
}
