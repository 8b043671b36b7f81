import ReactiveCore

/// A gate that any number of tasks wait at until it opens.
///
/// Unlike an `AsyncStream` used as a gate, every waiter is its own: a waiter whose task is
/// cancelled stops waiting alone (an `AsyncStream` ends for every consumer when one awaiting
/// consumer is cancelled, and it supports only one consumer at a time), and `open()` lets
/// every waiter through, now and later. Its state is a `LockedState`, which ThreadSanitizer
/// sees (it does not see `Synchronization.Mutex` on Linux).
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = LockedState(State())

    /// A closed gate.
    public init() {}

    /// Opens the gate: every waiter goes on, and so does every later one at once.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the gate is open, or once the caller's task is cancelled.
    public func wait() async {
        let waiter = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goesOn = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[waiter] = continuation
                    return false
                }
                if goesOn { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume()
        }
    }
}
