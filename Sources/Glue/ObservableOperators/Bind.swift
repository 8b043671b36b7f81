extension UpdatableValueType where Value: Equatable {
    /// Keeps this updatable and `other` equal, in both directions, until the connection
    /// disconnects.
    ///
    /// ```swift
    /// let binding = model.name.bind(to: field.text)
    /// ```
    ///
    /// `other` takes this updatable's value at once. After that, whenever either side
    /// changes, the binding copies that side's current value to the other, unless the other
    /// already holds an equal value. Comparing is what ends the exchange: the copy's own
    /// notification finds both sides equal and writes nothing.
    ///
    /// Both sides end equal even when an observer adjusts a value the binding wrote (a
    /// clamp): the adjusted value is a change like any other and is copied back. Copying the
    /// current value rather than the value notified means a stale notification (one queued
    /// behind a newer write) copies the newer value. If observers of the two sides adjust in
    /// ways that never agree (one keeps a value at most 10, the other at least 20), the
    /// exchange never ends, as with any two observers that write each other's sources.
    public func bind<Other: UpdatableValueType>(to other: Other) -> Connection where Other.Value == Value {
        if other.value != value { other.value = value }
        let forward = futureValues.subscribe { _ in
            let current = self.value
            if other.value != current { other.value = current }
        }
        let backward = other.futureValues.subscribe { _ in
            let current = other.value
            if self.value != current { self.value = current }
        }
        return Connection(isolated: {
            forward.disconnect()
            backward.disconnect()
        })
    }
}
