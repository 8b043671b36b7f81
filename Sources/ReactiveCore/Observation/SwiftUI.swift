#if canImport(SwiftUI)
    import SwiftUI

    extension ObservedValue {
        /// A SwiftUI binding that reads this observed value (so the view tracks it) and hands
        /// what the user enters to `set`, which changes the source; the change comes back
        /// through the observed value.
        ///
        /// ```swift
        /// Toggle("Done", isOn: done.binding { newValue in todo.done = newValue })
        /// ```
        @MainActor
        public func binding(set: @escaping (Value) -> Void) -> Binding<Value> {
            // SwiftUI reads and writes a binding on the main actor, where this method runs and
            // where the observed value is used; nothing crosses threads.
            nonisolated(unsafe) let observed = self
            nonisolated(unsafe) let set = set
            return Binding(get: { observed.value }, set: { set($0) })
        }

        /// A SwiftUI binding to the member at `keyPath` (tracking only that member), handing
        /// what the user enters to `set`.
        ///
        /// ```swift
        /// TextField("Query", text: state.binding(\.query) { store.dispatch(SetQuery($0)) })
        /// ```
        @MainActor
        public func binding<Member>(
            _ keyPath: KeyPath<Value, Member>, set: @escaping (Member) -> Void
        ) -> Binding<Member> {
            // As above: a binding is used on the main actor only.
            nonisolated(unsafe) let observed = self
            nonisolated(unsafe) let set = set
            nonisolated(unsafe) let keyPath = keyPath
            return Binding(get: { observed[keyPath] }, set: { set($0) })
        }
    }
#endif
