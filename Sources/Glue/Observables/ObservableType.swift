/// A value you can read and observe, with changes reported in transactions.
///
/// Conforming types provide the current ``value`` and a source of ``updates``. The
/// extensions build the views most observers want: ``changes`` (one merged change per
/// transaction), and for single values ``ObservableValueType/futureValues`` and
/// ``ObservableValueType/subscribe(_:)``.
public protocol ObservableType<Value> {
    /// The type of the observed value.
    associatedtype Value
    /// The type that describes how the value changes.
    associatedtype Change: ChangeType where Change.Value == Value

    /// The current value.
    var value: Value { get }

    /// The transactions the value goes through: begin, changes, end.
    var updates: Source<Update<Change>> { get }
}

/// An observable you can also change.
///
/// Setting ``value`` is a transaction of its own. To make several changes appear as one,
/// to this updatable or to several, use ``withTransaction(_:)`` or the free function
/// ``withTransaction(_:_:)``.
public protocol UpdatableType<Value>: ObservableType {
    /// The current value; setting it reports a change in a transaction of its own.
    var value: Value { get nonmutating set }

    /// Applies one transaction event: begins or ends a transaction, or applies a change.
    ///
    /// A change applied outside a transaction is wrapped in one.
    func apply(_ update: Update<Change>)
}

/// An observable single value, reported as old/new pairs.
///
/// ```swift
/// let connection = fred.name.subscribe { name in print("Fred's name is \(name)") }
/// // prints "Fred's name is Fred" at once, then each new name
/// ```
public protocol ObservableValueType<Value>: ObservableType, Subscribable
where Change == ValueChange<Value> {}

/// A single value you can observe and change.
public protocol UpdatableValueType<Value>: ObservableValueType, UpdatableType {}

extension ObservableType {
    /// One change per transaction: the changes of each transaction merged, sent when it
    /// ends; transactions that changed nothing send nothing.
    public var changes: Source<Change> {
        let updates = updates
        return Source { sink in
            var merger = TransactionMerger<Change>()
            return updates.subscribe { update in
                if let change = merger.receive(update) { sink(change) }
            }
        }
    }
}

extension ObservableValueType {
    /// The values after each transaction that changed the value; not the current one.
    public var futureValues: Source<Value> {
        let changes = changes
        return Source { sink in changes.subscribe { sink($0.new) } }
    }

    /// The current value at once, then the value after each transaction that changed it.
    public var values: Source<Value> {
        Source(subscribe: subscribe)
    }

    /// Sends the current value to `sink` at once, then the value after each transaction
    /// that changes it, until the connection disconnects.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        let connection = futureValues.subscribe(sink)
        sink(value)
        return connection
    }
}

extension UpdatableType {
    /// Runs `body` inside one transaction of this updatable, so observers see the changes
    /// it makes as one change.
    ///
    /// ```swift
    /// counter.withTransaction {
    ///     counter.value += 1
    ///     counter.value += 1
    /// }   // observers see one change, by 2
    /// ```
    public func withTransaction<Result>(_ body: () throws -> Result) rethrows -> Result {
        apply(.beginTransaction)
        defer { apply(.endTransaction) }
        return try body()
    }
}

/// Runs `body` in one transaction spanning every updatable in `updatables`.
///
/// Observers of anything derived from several of them (a `combined(_:)`
/// value, a sum) see the coordinated changes as one consistent change, never a mix.
///
/// ```swift
/// withTransaction([first, last]) {
///     first.value = "Ada"
///     last.value = "Lovelace"
/// }   // fullName's observers see one change
/// ```
public func withTransaction<Result>(
    _ updatables: [any TransactionParticipant], _ body: () throws -> Result
) rethrows -> Result {
    for updatable in updatables { updatable.beginTransaction() }
    defer { for updatable in updatables.reversed() { updatable.endTransaction() } }
    return try body()
}

/// Something that can take part in a transaction spanning several updatables.
public protocol TransactionParticipant {
    /// Begins a transaction.
    func beginTransaction()
    /// Ends the transaction begun by ``beginTransaction()``.
    func endTransaction()
}

extension TransactionParticipant where Self: UpdatableType {
    /// Begins a transaction of this updatable.
    public func beginTransaction() {
        apply(.beginTransaction)
    }

    /// Ends a transaction of this updatable.
    public func endTransaction() {
        apply(.endTransaction)
    }
}

/// Folds a stream of updates into one change per outermost transaction.
struct TransactionMerger<Change: ChangeType> {
    private var depth = 0
    private var pending: Change?

    /// Takes one update; returns the merged change when an outermost transaction ends with
    /// a non-empty change.
    mutating func receive(_ update: Update<Change>) -> Change? {
        switch update {
        case .beginTransaction:
            depth += 1
            return nil
        case .change(let change):
            if pending == nil {
                pending = change
            } else {
                pending!.merge(with: change)
            }
            // A change outside any transaction (subscribed mid-transaction) stands alone.
            return depth == 0 ? flush() : nil
        case .endTransaction:
            if depth > 0 { depth -= 1 }
            return depth == 0 ? flush() : nil
        }
    }

    private mutating func flush() -> Change? {
        defer { pending = nil }
        guard let change = pending, !change.isEmpty else { return nil }
        return change
    }
}
