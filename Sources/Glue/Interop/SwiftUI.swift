#if canImport(SwiftUI)
    import SwiftUI

    extension ObservedValue {
        /// A SwiftUI binding that reads through this observed value (so the view tracks it)
        /// and writes to `variable`, whose change then comes back through the observed value.
        ///
        /// ```swift
        /// TextField("Name", text: name.binding(to: person.name))
        /// ```
        @MainActor
        public func binding<Variable: UpdatableValueType<Value>>(to variable: Variable) -> Binding<Value> {
            // SwiftUI reads and writes a binding on the main actor, where this method runs and
            // where the observed value and the variable are used; nothing crosses threads.
            nonisolated(unsafe) let observed = self
            nonisolated(unsafe) let write: (Value) -> Void = { variable.value = $0 }
            return Binding(get: { observed.value }, set: { write($0) })
        }
    }
#endif
