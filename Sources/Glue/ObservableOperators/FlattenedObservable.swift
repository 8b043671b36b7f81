extension ObservableValueType {
    /// An observable of the value of the observable that `transform` picks from this one:
    /// a projection into a nested observable.
    ///
    /// ```swift
    /// let currentTitle = selectedBook.flatMap(\.title)   // follows the selected book's title
    /// ```
    ///
    /// It changes when the inner observable changes, and when this value changes so that a
    /// different inner observable is picked.
    public func flatMap<Inner: ObservableValueType>(
        _ transform: @escaping (Value) -> Inner
    ) -> FlattenedObservable<Self, Inner> {
        FlattenedObservable(outer: self, transform: transform)
    }

    /// A two-way projection into a nested updatable: reading follows it as
    /// ``flatMap(_:)-(_)`` does, writing sets the updatable currently picked.
    public func flatMap<Inner: UpdatableValueType>(
        _ transform: @escaping (Value) -> Inner
    ) -> FlattenedUpdatable<Self, Inner> {
        FlattenedUpdatable(base: FlattenedObservable(outer: self, transform: transform))
    }
}

/// The value of a nested observable; made by `flatMap(_:)`.
public struct FlattenedObservable<Outer: ObservableValueType, Inner: ObservableValueType>: ObservableValueType {
    let outer: Outer
    let transform: (Outer.Value) -> Inner

    /// The inner observable's value.
    public var value: Inner.Value { transform(outer.value).value }

    /// Changes of the inner observable, and switches to another inner observable.
    public var updates: Source<Update<ValueChange<Inner.Value>>> {
        let (outer, transform) = (outer, transform)
        return Source { sink in
            let follower = InnerFollower(inner: transform(outer.value))
            let slot = ChangeSlot { follower.inner.value }
            let join = TransactionJoin(
                sink: sink,
                makeChange: { ValueChange(from: slot.before, to: slot.after) },
                reset: { slot.reset() })
            follower.follow(with: slot, into: join)
            let outerConnection = outer.updates.subscribe { update in
                switch update {
                case .beginTransaction:
                    follower.outerOpenTransactions += 1
                    join.begin()
                case .change(let change):
                    let old = follower.inner.value
                    follower.stop(abandoning: slot, in: join)
                    follower.inner = transform(change.new)
                    follower.follow(with: slot, into: join)
                    slot.record(ValueChange(from: old, to: follower.inner.value))
                    join.noteChange()
                case .endTransaction:
                    // Subscribed in the middle of an outer transaction: its end is not ours.
                    guard follower.outerOpenTransactions > 0 else { return }
                    follower.outerOpenTransactions -= 1
                    join.end()
                }
            }
            return Connection(isolated: {
                outerConnection.disconnect()
                follower.stop(abandoning: slot, in: join)
            })
        }
    }
}

/// The inner observable a flattened subscription currently follows.
final class InnerFollower<Inner: ObservableValueType> {
    var inner: Inner
    /// The outer observable's transactions that began after the subscription and are still
    /// open: an end without a begin we saw belongs to a transaction already running when the
    /// subscription started.
    var outerOpenTransactions = 0
    private var connection: Connection?

    init(inner: Inner) {
        self.inner = inner
    }

    func follow<Joined>(with slot: ChangeSlot<Inner.Value>, into join: TransactionJoin<Joined>) {
        connection = slot.follow(inner.updates, into: join)
    }

    func stop<Joined>(abandoning slot: ChangeSlot<Inner.Value>, in join: TransactionJoin<Joined>) {
        connection?.disconnect()
        connection = nil
        join.abandon(slot.openTransactions)
        slot.forgetOpenTransactions()
    }
}

/// A two-way projection into a nested updatable; made by
/// `flatMap(_:)`.
public struct FlattenedUpdatable<Outer: ObservableValueType, Inner: UpdatableValueType>: UpdatableValueType,
    TransactionParticipant
{
    let base: FlattenedObservable<Outer, Inner>

    /// The inner updatable's value; setting it sets the updatable currently picked.
    public var value: Inner.Value {
        get { base.value }
        nonmutating set { base.transform(base.outer.value).value = newValue }
    }

    /// Changes of the inner updatable, and switches to another one.
    public var updates: Source<Update<ValueChange<Inner.Value>>> { base.updates }

    /// Applies a transaction event to the updatable currently picked.
    public func apply(_ update: Update<ValueChange<Inner.Value>>) {
        base.transform(base.outer.value).apply(update)
    }
}
