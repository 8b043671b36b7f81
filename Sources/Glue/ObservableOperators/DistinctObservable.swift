extension ObservableValueType where Value: Equatable {
    /// An observable that reports a transaction's change only if the value it ends with
    /// differs from the value it began with: the equality cutoff.
    ///
    /// ```swift
    /// let isAdult = age.map { $0 >= 18 }.distinct()   // silent while age goes 30 → 31
    /// ```
    public func distinct() -> DistinctObservable<Self> {
        DistinctObservable(base: self)
    }
}

/// An observable that drops changes between equal values; made by
/// ``ObservableValueType/distinct()``.
///
/// Transactions still begin and end, so derived observables stay in step, but a
/// transaction whose value ends equal to how it began carries no change.
public struct DistinctObservable<Base: ObservableValueType>: ObservableValueType where Base.Value: Equatable {
    let base: Base

    /// The base's value.
    public var value: Base.Value { base.value }

    /// The base's transactions, with changes between equal values removed.
    public var updates: Source<Update<ValueChange<Base.Value>>> {
        let base = base
        return Source { sink in
            var depth = 0
            var pending: ValueChange<Base.Value>?
            return base.updates.subscribe { update in
                switch update {
                case .beginTransaction:
                    depth += 1
                    if depth == 1 { sink(.beginTransaction) }
                case .change(let change):
                    if pending == nil { pending = change } else { pending!.merge(with: change) }
                    if depth == 0, let change = pending {
                        pending = nil
                        if change.old != change.new { sink(.change(change)) }
                    }
                case .endTransaction:
                    if depth > 0 { depth -= 1 }
                    guard depth == 0 else { return }
                    if let change = pending, change.old != change.new { sink(.change(change)) }
                    pending = nil
                    sink(.endTransaction)
                }
            }
        }
    }
}
