extension Store {
    /// An `Observable` view of this store's state for Observation and SwiftUI: it follows
    /// every action that changes the state (for a focused store, its slice) and tells a view
    /// only about the members the view read. See `ObservedValue` in ReactiveCore.
    ///
    /// ```swift
    /// let state = store.observed()
    /// withObservationTracking { print(state.count) } onChange: { print("count changes") }
    /// ```
    ///
    /// The observed value keeps the store alive while it lives. Call it in the store's
    /// isolation domain (the main actor, for SwiftUI).
    public func observed() -> ObservedValue<State> {
        ObservedValue(self, initial: currentState)
    }
}

extension Middleware {
    /// Middleware that logs every action once it has been processed, with the parts of the
    /// state it changed (a ``StateDiff``), or that it changed nothing.
    ///
    /// ```swift
    /// store.register(.logging())
    /// store.dispatch(Increment())
    /// // Resin: Increment()
    /// //   count: 0 → 1
    /// ```
    ///
    /// It passes every action on unchanged. Register it first to log the actions as the
    /// app dispatched them; the line names the action as the reducers saw it (after any
    /// middleware replaced it). Actions dispatched while one is processed are logged after
    /// it, in the order processed.
    ///
    /// - Parameters:
    ///   - label: What each entry starts with.
    ///   - log: Where entries go; `print` by default.
    public static func logging(_ label: String = "Resin", log: @escaping (String) -> Void = { print($0) })
        -> Middleware<State>
    {
        // Actions are processed one at a time, never nested, so one slot holds the state
        // from before the action being processed.
        let before = StateSlot<State>()
        return Middleware(
            { _, context in
                before.state = context.state
                return .pass
            },
            after: { action, context in
                guard let old = before.state else { return }
                before.state = nil
                let diff = StateDiff(from: old, to: context.state)
                log("\(label): \(action)\n" + (diff.isEmpty ? "  (no state change)" : diff.description))
            })
    }
}

/// The state before the action being processed, for ``Middleware/logging(_:log:)``.
private final class StateSlot<State> {
    var state: State?
}

extension Store: CustomDebugStringConvertible {
    /// The state type, the current state and the number of effects running.
    public var debugDescription: String {
        "Store<\(State.self)>(\(currentState), running effects: \(runningEffectCount))"
    }
}
