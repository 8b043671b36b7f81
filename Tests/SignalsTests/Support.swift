import Dispatch
import Signals

/// A thread-safe log for tests.
final class Log<Event: Sendable>: Sendable {
    private let events = LockedState<[Event]>([])
    func append(_ event: Event) { events.withLock { $0.append(event) } }
    var all: [Event] { events.withLock { $0 } }
    var count: Int { events.withLock { $0.count } }
}

/// A class to watch with a `weak` reference, and to call methods on.
final class Target: Sendable {
    let log = Log<Int>()
    func update(value: Int) { log.append(value) }
}

/// Waits until everything already queued on the main queue has run.
func drainMain() async {
    await MainActor.run {}
}

/// Resumes a waiting test once, when a chain reaches the message it waits for.
final class Arrival: Sendable {
    private let continuation = LockedState<CheckedContinuation<Void, Never>?>(nil)
    private let arrived = LockedState(false)

    /// Called from the chain: lets the waiting test go on.
    func signal() {
        let waiting = continuation.withLock { continuation in
            arrived.withLock { $0 = true }
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }

    /// Waits until ``signal()`` has been called (returns at once if it already was).
    func wait() async {
        await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
            let already = continuation.withLock { continuation in
                if arrived.withLock({ $0 }) { return true }
                continuation = waiting
                return false
            }
            if already { waiting.resume() }
        }
    }
}
