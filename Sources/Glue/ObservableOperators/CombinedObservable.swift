extension ObservableValueType {
    /// An observable of this value and `other`'s, as a pair.
    ///
    /// A transaction that changes both (see ``withTransaction(_:_:)``) reports one change;
    /// observers never see one input updated and the other not.
    public func combined<Other: ObservableValueType>(_ other: Other) -> CombinedObservable2<Self, Other> {
        CombinedObservable2(first: self, second: other)
    }

    /// An observable of `combine` applied to this value and `other`'s.
    ///
    /// ```swift
    /// let fullName = first.combined(last) { "\($0) \($1)" }
    /// ```
    public func combined<Other: ObservableValueType, Output>(
        _ other: Other, _ combine: @escaping (Value, Other.Value) -> Output
    ) -> MappedObservable<CombinedObservable2<Self, Other>, Output> {
        combined(other).map { combine($0.0, $0.1) }
    }

    /// An observable of this value and two others, as a triple.
    public func combined<Second: ObservableValueType, Third: ObservableValueType>(
        _ second: Second, _ third: Third
    ) -> CombinedObservable3<Self, Second, Third> {
        CombinedObservable3(first: self, second: second, third: third)
    }

    /// An observable of `combine` applied to this value and two others.
    public func combined<Second: ObservableValueType, Third: ObservableValueType, Output>(
        _ second: Second, _ third: Third, _ combine: @escaping (Value, Second.Value, Third.Value) -> Output
    ) -> MappedObservable<CombinedObservable3<Self, Second, Third>, Output> {
        combined(second, third).map { combine($0.0, $0.1, $0.2) }
    }
}

/// Two observables as one observable pair; made by `combined(_:)`.
public struct CombinedObservable2<First: ObservableValueType, Second: ObservableValueType>: ObservableValueType {
    let first: First
    let second: Second

    /// Both values.
    public var value: (First.Value, Second.Value) { (first.value, second.value) }

    /// The inputs' transactions joined: one change per outermost transaction.
    public var updates: Source<Update<ValueChange<(First.Value, Second.Value)>>> {
        let (first, second) = (first, second)
        return Source { sink in
            let a = ChangeSlot { first.value }
            let b = ChangeSlot { second.value }
            let join = TransactionJoin(
                sink: sink,
                makeChange: { ValueChange(from: (a.before, b.before), to: (a.after, b.after)) },
                reset: {
                    a.reset(); b.reset()
                })
            let connections = [a.follow(first.updates, into: join), b.follow(second.updates, into: join)]
            return Connection(isolated: {
                _ = (a, b); for connection in connections { connection.disconnect() }
            })
        }
    }
}

/// Three observables as one observable triple; made by
/// `combined(_:_:)`.
public struct CombinedObservable3<First: ObservableValueType, Second: ObservableValueType, Third: ObservableValueType>:
    ObservableValueType
{
    let first: First
    let second: Second
    let third: Third

    /// The three values.
    public var value: (First.Value, Second.Value, Third.Value) { (first.value, second.value, third.value) }

    /// The inputs' transactions joined: one change per outermost transaction.
    public var updates: Source<Update<ValueChange<(First.Value, Second.Value, Third.Value)>>> {
        let (first, second, third) = (first, second, third)
        return Source { sink in
            let a = ChangeSlot { first.value }
            let b = ChangeSlot { second.value }
            let c = ChangeSlot { third.value }
            let join = TransactionJoin(
                sink: sink,
                makeChange: { ValueChange(from: (a.before, b.before, c.before), to: (a.after, b.after, c.after)) },
                reset: {
                    a.reset(); b.reset(); c.reset()
                })
            let connections = [
                a.follow(first.updates, into: join), b.follow(second.updates, into: join),
                c.follow(third.updates, into: join),
            ]
            return Connection(isolated: {
                _ = (a, b, c); for connection in connections { connection.disconnect() }
            })
        }
    }
}
