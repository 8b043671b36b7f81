extension UpdatableValueType where Value: Equatable {
    /// Keeps this updatable and `other` equal, in both directions, until the connection
    /// disconnects.
    ///
    /// ```swift
    /// let binding = model.name.bind(to: field.text)
    /// ```
    ///
    /// `other` takes this updatable's value at once. After that, a change on either side is
    /// written to the other, unless the other already holds an equal value. A write made
    /// because of the binding is not written back, so there is no feedback loop.
    public func bind<Other: UpdatableValueType>(to other: Other) -> Connection where Other.Value == Value {
        if other.value != value { other.value = value }
        let guardBox = BindingGuard()
        let forward = futureValues.subscribe { value in
            guardBox.sync { if other.value != value { other.value = value } }
        }
        let backward = other.futureValues.subscribe { value in
            guardBox.sync { if self.value != value { self.value = value } }
        }
        return Connection(isolated: {
            forward.disconnect()
            backward.disconnect()
        })
    }
}

/// Marks the writes a binding makes itself, so they are not written back.
final class BindingGuard {
    private var isSyncing = false

    func sync(_ write: () -> Void) {
        guard !isSyncing else { return }
        isSyncing = true
        defer { isSyncing = false }
        write()
    }
}
