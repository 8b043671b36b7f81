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
