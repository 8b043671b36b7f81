import Incremental
import ReactiveCore

extension Store: DeltaSource {
    /// Sends the state as one transaction, at once, then the state after each action that
    /// changes it, one transaction per action: what the conformance to `DeltaSource` uses, so
    /// a store or a focused store drives a Glue variable, an Incremental input, a SignalGraph
    /// value storage or a Signals property.
    ///
    /// ```swift
    /// let bridge = store.focus(\.count).drive(countVariable)   // a Glue Variable<Int>
    /// ```
    ///
    /// Deltas are sent in the store's isolation domain, where its actions are processed.
    /// The connection keeps the store alive while it is connected, as ``subscribe(_:)``'s does.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<State>) -> Void) -> Connection {
        subscribe { state in
            sink(.begin)
            sink(.delta(state))
            sink(.end)
        }
    }
}

/// A store as a `DeltaTarget`: each transaction of the source dispatches one action, made
/// from the transaction's last value. Made by ``Store/actionTarget(_:)``.
///
/// A store changes only by actions, so this is how another paradigm drives one: an
/// Incremental summary, a Glue variable, a SignalGraph storage (in the store's isolation
/// domain), or a Signals property through a hop to the store's queue.
public final class ActionTarget<Value, State>: DeltaTarget {
    private let store: Store<State>
    private let makeAction: (Value) -> any Action

    init(store: Store<State>, makeAction: @escaping (Value) -> any Action) {
        self.store = store
        self.makeAction = makeAction
    }

    /// Dispatches the action made from the last value of the transaction (the earlier ones
    /// were never seen together by anyone).
    public func apply(_ deltas: [Value]) {
        if let last = deltas.last { store.dispatch(makeAction(last)) }
    }
}

extension Store {
    /// A delta target that dispatches `makeAction(value)` for each transaction of the source
    /// it is driven by: one action per transaction, made from its last value.
    ///
    /// ```swift
    /// let bridge = summary.drive(store.actionTarget { SummaryChanged(summary: $0) })     // Incremental
    /// let online = monitor.isOnline.drive(store.actionTarget { IsOnline($0) }, on: .main)  // Signals, with a hop
    /// ```
    ///
    /// The target holds the store while a bridge holds the target. It lives in the store's
    /// isolation domain, like the store: a thread-safe source (a Signals property) drives it
    /// through a hop to the store's queue (`drive(_:on:)`), which the compiler asks for.
    public func actionTarget<Value>(_ makeAction: @escaping (Value) -> some Action) -> ActionTarget<Value, State> {
        ActionTarget(store: self, makeAction: { makeAction($0) })
    }
}
