/// A value you can read, change and observe: GlueKit's equivalent of a `dynamic var`.
///
/// ```swift
/// final class Person {
///     let name: Variable<String>
///     init(name: String) { self.name = Variable(name) }
/// }
///
/// let fred = Person(name: "Fred")
/// print(fred.name.value)        // "Fred"
/// let connection = fred.name.subscribe { print("Fred's name is \($0)") }
/// // prints "Fred's name is Fred" at once
/// fred.name.value = "Freddie"   // prints "Fred's name is Freddie"
/// ```
///
/// Subscribing sends the current value first; ``ObservableValueType/futureValues`` sends
/// only later ones; ``ObservableType/changes`` sends old/new pairs. Every assignment is a
/// change, even of an equal value; `distinct()` drops those.
public final class Variable<Value>: UpdatableValueType, TransactionParticipant, SinkType {
    private var storage: Value
    private var transactionDepth = 0
    private let signal = Signal<Update<ValueChange<Value>>>.reportingAppliedChanges()

    /// Creates a variable holding `initialValue`.
    public init(_ initialValue: Value) {
        storage = initialValue
        signal.owner = self
    }

    /// The current value; setting it reports a change.
    public var value: Value {
        get { storage }
        set { apply(.change(ValueChange(from: storage, to: newValue))) }
    }

    /// The variable's transactions.
    public var updates: Source<Update<ValueChange<Value>>> {
        signal.source
    }

    /// Applies one transaction event; a change outside a transaction gets one of its own.
    public func apply(_ update: Update<ValueChange<Value>>) {
        switch update {
        case .beginTransaction:
            transactionDepth += 1
            if transactionDepth == 1 { signal.send(.beginTransaction) }
        case .change(let change):
            if transactionDepth == 0 {
                signal.send(.beginTransaction)
                storage = change.new
                signal.send(.change(change))
                signal.send(.endTransaction)
            } else {
                storage = change.new
                signal.send(.change(change))
            }
        case .endTransaction:
            precondition(transactionDepth > 0, "Variable: endTransaction without a matching beginTransaction")
            transactionDepth -= 1
            if transactionDepth == 0 { signal.send(.endTransaction) }
        }
    }

    /// Sets the value: a variable is a sink, so a source can drive it.
    public func receive(_ value: Value) {
        self.value = value
    }
}
