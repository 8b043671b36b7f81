import Synchronization

@testable import ReactiveCore

/// A minimal single-threaded source, as a paradigm would write one: sinks in a dictionary,
/// delivered in subscription order from a snapshot, removed by an isolated connection.
final class LocalSource: Subscribable {
    private var sinks: [Int: (Int) -> Void] = [:]
    private var nextKey = 0
    /// When set, delivered to each new sink at once, as a current-value observable does.
    var current: Int?

    init(current: Int? = nil) {
        self.current = current
    }

    var subscriberCount: Int { sinks.count }

    func subscribe(_ sink: @escaping (Int) -> Void) -> Connection {
        let key = nextKey
        nextKey += 1
        sinks[key] = sink
        if let current { sink(current) }
        return Connection(isolated: { self.sinks[key] = nil })
    }

    func send(_ value: Int) {
        for key in sinks.keys.sorted() {
            // A sink removed by an earlier sink in this delivery gets nothing.
            sinks[key]?(value)
        }
    }
}

/// A thread-safe source, as `Signals` would write one.
final class SharedSource: Subscribable, Sendable {
    private let sinks = LockedState<[Int: @Sendable (Int) -> Void]>([:])
    private let nextKey = Atomic<Int>(0)

    var subscriberCount: Int { sinks.withLock { $0.count } }

    func subscribe(_ sink: @escaping @Sendable (Int) -> Void) -> Connection {
        let key = nextKey.add(1, ordering: .relaxed).newValue
        sinks.withLock { $0[key] = sink }
        return Connection { self.sinks.withLock { $0[key] = nil } }
    }

    func send(_ value: Int) {
        let snapshot = sinks.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
        for sink in snapshot { sink(value) }
    }
}

/// A class to watch with a `weak` reference.
final class Token: Sendable {}

/// A thread-safe counter for work run from closures.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// A thread-safe log of events, in the order they happened.
final class Log<Event: Sendable>: Sendable {
    private let events = LockedState<[Event]>([])
    func append(_ event: Event) { events.withLock { $0.append(event) } }
    var all: [Event] { events.withLock { $0 } }
}
