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
