#if canImport(SwiftUI)
    import SwiftUI

    extension ObservedValue {
        /// A SwiftUI binding that reads through this observed value (so the view tracks it)
        /// and writes to `input`, whose propagation then comes back through the observed
        /// value.
        ///
        /// ```swift
        /// let name = graph.input("Ada")
        /// let observedName = name.observed()
        /// TextField("Name", text: observedName.binding(to: name))
        /// ```
        @MainActor
        public func binding(to input: Input<Value>) -> Binding<Value> {
            // SwiftUI reads and writes a binding on the main actor, where this method runs and
            // where the observed value and the graph live; nothing crosses threads.
            nonisolated(unsafe) let observed = self
            nonisolated(unsafe) let input = input
            return Binding(get: { observed.value }, set: { input.write($0) })
        }
    }
#endif
