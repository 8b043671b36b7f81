extension Storage {
    /// An `Observable` view of this storage's state for Observation and SwiftUI: it starts
    /// from ``Storage/state``, takes the state again after every signal the storage sends, and tells
    /// a view only about the members the view read. See `ObservedValue` in ReactiveCore.
    ///
    /// ```swift
    /// let rows = EditableDictionaryStorage<Int, String>()
    /// let observed = rows.observed()
    /// rows[1] = "Ada"        // observed.value == [1: "Ada"]
    /// ```
    ///
    /// The observed value is a sensor registered on the storage, which it deregisters when
    /// it is released (or disconnected), so the teardown rule is kept by its lifetime. It
    /// reads ``Storage/state`` when a signal reaches it, so a change whose signal waits behind a
    /// delivery under way shows at once. Call it in the storage's isolation domain.
    public func observed() -> ObservedValue<State> {
        ObservedValue(StorageStates(base: self), initial: state)
    }
}

/// A storage's state after each of its signals, as a `Subscribable`; what
/// ``Storage/observed()`` follows.
struct StorageStates<Base: Storage>: Subscribable {
    let base: Base

    func subscribe(_ sink: @escaping @Sendable (Base.State) -> Void) -> Connection {
        let base = base
        let forward: (Base.OutgoingSignal) -> Void = { _ in sink(base.state) }
        return base.subscribe(forward)
    }
}

extension StateStorage: CustomDebugStringConvertible {
    /// The storage's type, its current state and the number of registered sensors.
    public var debugDescription: String {
        "\(type(of: self))(\(state), sensors: \(sensorCount))"
    }
}

/// A storage that its owner changes by whole transitions with `apply(_:)`: the storages fed
/// by their owner (``ValueStorage``, ``SetStorage``, ``DictionaryStorage``, ``ArrayStorage``)
/// and the editable ones (``EditableValueStorage``, ``EditableSetStorage``,
/// ``EditableDictionaryStorage``, ``EditableArrayStorage``). Replications and views are not:
/// their state follows the signals they sense.
public protocol TransitionApplying<Transition>: Storage {
    /// The type of the transitions it applies.
    associatedtype Transition
    /// Applies `transition` and sends it to the sensors.
    func apply(_ transition: Transition)
}

extension ValueStorage: TransitionApplying {
    /// A transition is the new value.
    public typealias Transition = Value

    /// Sets the value, as ``update(_:)`` does.
    public func apply(_ transition: Value) { update(transition) }
}

extension EditableValueStorage: TransitionApplying {
    /// A transition is the new value.
    public typealias Transition = Value

    /// Sets the value, as setting ``state`` does.
    public func apply(_ transition: Value) { state = transition }
}

extension SetStorage: TransitionApplying {
    /// The transitions it applies.
    public typealias Transition = SetTransition<Element>
}

extension EditableSetStorage: TransitionApplying {
    /// The transitions it applies.
    public typealias Transition = SetTransition<Element>
}

extension DictionaryStorage: TransitionApplying {
    /// The transitions it applies.
    public typealias Transition = DictionaryTransition<Key, Value>
}

extension EditableDictionaryStorage: TransitionApplying {
    /// The transitions it applies.
    public typealias Transition = DictionaryTransition<Key, Value>
}

extension ArrayStorage: TransitionApplying {
    /// The transitions it applies.
    public typealias Transition = ArrayTransition<Element>
}

extension EditableArrayStorage: TransitionApplying {
    /// The transitions it applies.
    public typealias Transition = ArrayTransition<Element>
}

extension TransitionApplying {
    /// Applies every transition of `sequence`, in order, until the sequence ends or the
    /// returned connection disconnects: mutations that arrive asynchronously (from a socket,
    /// a file watcher, another paradigm's `.values`) drive the storage and every view on it.
    ///
    /// ```swift
    /// let rows = EditableDictionaryStorage<Int, String>()
    /// let feeding = rows.feed(from: updates)   // an AsyncSequence of DictionaryTransition
    /// ```
    ///
    /// The transitions are applied on a task isolated to the caller's actor (the compiler
    /// rejects a call from code that is not on an actor), the domain a SignalGraph lives in,
    /// each as `apply(_:)` applies it: a delivery under way finishes before it, as for any
    /// mutation. The feed holds the storage until the sequence ends or the connection
    /// disconnects; after a disconnect nothing more is applied, and releasing the connection
    /// disconnects too. `finished` runs once when the sequence ends on its own: with `nil`, or
    /// with the error it threw.
    public func feed<Elements: AsyncSequence>(
        from sequence: sending Elements,
        isolation: isolated (any Actor) = #isolation,
        finished: @escaping (Elements.Failure?) -> Void = { _ in }
    ) -> Connection where Elements.Element == Transition {
        feedIsolated(sequence, isolation: isolation, receive: { [self] in apply($0) }, finished: finished)
    }
}
