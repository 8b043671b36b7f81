/// A value that can be read from any thread and that sends every new value to the chains
/// connected to ``didSet``: a ``Property``, or a ``DerivedProperty`` composed of others.
///
/// ```swift
/// let first = Property(value: "Ada")
/// let last = Property(value: "Lovelace")
/// let full = first.combineLatest(last).map { "\($0) \($1)" }
/// print(full.value)  // Ada Lovelace
/// ```
public protocol PropertyProtocol<Value>: AnyObject, Sendable {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The type of the observable that sends each new value.
    associatedtype Changes: MessageSource<Value>

    /// The current value; reading it is safe from any thread.
    var value: Value { get }

    /// Sends every new value; a chain connected to it receives the current value at once.
    var didSet: Changes { get }
}

extension Property: PropertyProtocol {}

/// A read-only property composed of others with ``PropertyProtocol/map(_:)``,
/// ``PropertyProtocol/combineLatest(_:)`` or ``PropertyProtocol/zip(_:)``, as ReactiveSwift's
/// composed `Property` is: its ``value`` can be read synchronously from any thread, and
/// ``didSet`` sends each new value.
///
/// ```swift
/// let count = Property(value: 2)
/// let label = count.map { "\($0) items" }
/// print(label.value)  // 2 items
/// count.value = 3
/// print(label.value)  // 3 items
/// ```
///
/// The value is worked out as each source changes, on the thread that changed it, and kept:
/// reading it runs no transform. Once a write to a source has returned, a read on the
/// writing thread sees the value composed of it (unless the write was made from a handler
/// of that same source's delivery, which queues it until the delivery ends, see
/// <doc:Semantics>). While other threads write, a read sees the value composed of the newest
/// writes that reached it; once every write has returned, the value is composed of the
/// sources' values.
///
/// A derived property holds its sources, and stays connected to them while it lives or a
/// chain is connected to its ``didSet``; they do not hold it.
public final class DerivedProperty<Value: Sendable>: PropertyProtocol, Sendable {
    /// Sends every new value; chains connected to it run on the main queue unless they say
    /// otherwise, as after a ``Property``'s `didSet`. It holds the chain that computes the
    /// value, so the composition lives while this property or a chain connected here does.
    public let didSet: MessageSource<Value>

    /// Wraps `chain`, an inline chain of properties' `didSet`s: it has a last message from
    /// the moment it connected, because every property replays its value to a chain that
    /// connects, and it never ends, because properties never do.
    init(chain: MessageSource<Value>) {
        didSet = PropertyChanges(computedBy: chain)
    }

    /// A read-only view of `property`: its value, and its changes.
    public convenience init<Source: PropertyProtocol>(_ property: Source) where Source.Value == Value {
        self.init(chain: property.didSet.noDispatch().map { $0 })
    }

    /// The current value: the composition of the sources' newest values.
    public var value: Value {
        // Never nil: see `init(chain:)`.
        self.didSet.relay.lastMessage!
    }
}

/// A derived property's ``DerivedProperty/didSet``: a view of the chain that computes its
/// value, which it keeps alive. Removing a chain connected to it never tears that chain
/// down, unlike a ``DispatchModifier``: the composition belongs to the property.
final class PropertyChanges<Message: Sendable>: MessageSource<Message>, @unchecked Sendable {
    // `@unchecked` as for `MessageSource`: the only stored property is a `let` of a
    // `Sendable` type.

    /// The chain that computes the value.
    private let chain: MessageSource<Message>

    init(computedBy chain: MessageSource<Message>) {
        self.chain = chain
        super.init(relay: chain.relay, downstreamExecutor: .main)
    }
}

extension PropertyProtocol {
    /// A property whose value is `transform` of this one's, worked out on each change.
    ///
    /// ```swift
    /// let celsius = Property(value: 20.0)
    /// let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
    /// ```
    ///
    /// `transform` runs once for the current value, then once per change, on the thread that
    /// made the change; it must not write the properties it reads from.
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> DerivedProperty<Output> {
        DerivedProperty(chain: didSet.noDispatch().map(transform))
    }

    /// A property whose value pairs this one's and `other`'s current values, updated when
    /// either changes.
    ///
    /// ```swift
    /// let canSubmit = name.combineLatest(accepted).map { !$0.isEmpty && $1 }
    /// ```
    public func combineLatest<Other: PropertyProtocol>(_ other: Other) -> DerivedProperty<(Value, Other.Value)> {
        DerivedProperty(chain: didSet.noDispatch().combineLatest(other.didSet))
    }

    /// A property whose value pairs this one's and `other`'s values in order: the current
    /// values first, then each pair of the n-th changes of both (ReactiveSwift's `zip`). A
    /// source that changes more often waits for the other: its values are kept, in order and
    /// without a bound, until the other changes as often.
    public func zip<Other: PropertyProtocol>(_ other: Other) -> DerivedProperty<(Value, Other.Value)> {
        DerivedProperty(chain: didSet.noDispatch().zip(other.didSet))
    }
}
