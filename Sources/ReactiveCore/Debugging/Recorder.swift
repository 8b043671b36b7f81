/// Everything a ``Subscribable`` delivers, kept in order: a recording observer for tests and
/// debugging.
///
/// ```swift
/// let recorder = Recorder(counter)
/// counter.value = 1
/// counter.value = 2
/// #expect(recorder.values == [0, 1, 2])
/// ```
///
/// The recorder subscribes when it is made and keeps its subscription until
/// ``disconnect()`` or until it is released; the source does not keep it alive. It records
/// on the thread the source delivers on, under a lock, so a recorder of `Sendable` values is
/// `Sendable` and may be read from any thread while a thread-safe source delivers.
public final class Recorder<Value> {
    private struct State {
        var values: [Value] = []
        var connection: Connection?
    }

    private let state = LockedState(State())

    /// Starts recording what `source` delivers (including a value delivered on subscription).
    public init(_ source: some Subscribable<Value>) {
        let sink = IsolatedSink<Value> { [weak self] value in
            self?.state.withLock { $0.values.append(value) }
        }
        let connection = source.subscribe { sink($0) }
        state.withLock { $0.connection = connection }
    }

    deinit {
        let connection = state.withLock { $0.connection }
        connection?.disconnect()
    }

    /// Every value recorded so far, oldest first.
    public var values: [Value] {
        state.withLock { $0.values }
    }

    /// The last value recorded, if any.
    public var last: Value? {
        state.withLock { $0.values.last }
    }

    /// Returns the values recorded so far and forgets them, so that the next call returns
    /// only what came after.
    public func takeValues() -> [Value] {
        state.withLock { state in
            defer { state.values = [] }
            return state.values
        }
    }

    /// Whether the recorder still follows its source.
    public var isConnected: Bool {
        state.withLock { $0.connection?.isConnected ?? false }
    }

    /// Stops recording; what was recorded stays readable.
    public func disconnect() {
        let connection = state.withLock { $0.connection }
        connection?.disconnect()
    }
}

// The values are only reached under the lock, and `Value: Sendable` keeps non-Sendable
// values from crossing threads.
extension Recorder: @unchecked Sendable where Value: Sendable {}

extension Recorder: CustomDebugStringConvertible {
    /// The type and the values recorded so far.
    public var debugDescription: String {
        "Recorder<\(Value.self)>(\(values))"
    }
}

extension Subscribable {
    /// A ``Recorder`` of what this source delivers from now on.
    public func record() -> Recorder<Value> {
        Recorder(self)
    }
}
