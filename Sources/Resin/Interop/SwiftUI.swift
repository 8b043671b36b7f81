#if canImport(SwiftUI)
    import SwiftUI

    extension ObservedValue {
        /// A SwiftUI binding to the member at `keyPath` of a store's observed state: reading
        /// tracks only that member; setting dispatches the action `action` makes of the new
        /// value, and the state that the reducers make comes back through the observed value.
        ///
        /// ```swift
        /// let state = store.observed()
        /// TextField("Query", text: state.binding(\.query, to: store, send: SetQuery.init))
        /// ```
        @MainActor
        public func binding<Member, Sent: Action>(
            _ keyPath: KeyPath<Value, Member>, to store: Store<Value>, send action: @escaping (Member) -> Sent
        ) -> Binding<Member> {
            // SwiftUI reads and writes a binding on the main actor, where this method runs and
            // where the store and the observed value live; nothing crosses threads.
            nonisolated(unsafe) let observed = self
            nonisolated(unsafe) let store = store
            nonisolated(unsafe) let keyPath = keyPath
            nonisolated(unsafe) let action = action
            return Binding(get: { observed[keyPath] }, set: { store.dispatch(action($0)) })
        }
    }
#endif
