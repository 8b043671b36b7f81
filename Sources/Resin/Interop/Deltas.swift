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
