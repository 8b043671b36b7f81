/// A dictionary signal's source with each value transformed, kept in sync by its signals:
/// Swift's `mapValues`, as a view.
///
/// ```swift
/// let rows = EditableDictionaryStorage<Int, Row>()
/// let names = DictionaryMappingValuesDictionaryStorage<Int, Row, String> { $0.name }
/// rows.register(names)
/// rows[1] = Row(name: "Ada", score: 3, done: false)   // names.state == [1: "Ada"]
/// rows.deregister(names)
/// ```
///
/// Cost per mutation: one transform call and O(1) dictionary work. An insert stays an insert,
/// an update an update, a delete a delete; an initiation maps every value once.
public final class DictionaryMappingValuesDictionaryStorage<Key: Hashable, Value, Output>: StateStorage<
    [Key: Output], DictionaryTransition<Key, Output>
>, Replication
{
    /// The signals it receives.
    public typealias IncomingSignal = DictionarySignal<Key, Value>
    /// The signals it sends.
    public typealias OutgoingSignal = DictionarySignal<Key, Output>

    /// Where the view is registered.
    public let registration = SensorRegistration()
    private let transform: (Value) -> Output

    /// A view of the source's entries with each value passed through `transform`.
    public init(_ transform: @escaping (Value) -> Output) {
        self.transform = transform
        super.init(state: [:]) { transition, state in transition.apply(to: &state) }
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a view was released while still registered; deregister it first")
    }

    /// Follows the source: resets on initiation and termination, translates transitions.
    public func sense(_ signal: DictionarySignal<Key, Value>) {
        switch signal {
        case .initiation(let entries): reset(to: entries.mapValues(transform))
        case .termination: reset(to: [:])
        case .transition(let transition):
            let transform = transform
            commit(
                DictionaryTransition(
                    transition.mutations.map { mutation in
                        switch mutation {
                        case .insert(let key, let value): .insert(key, transform(value))
                        case .update(let key, let value): .update(key, transform(value))
                        case .delete(let key): .delete(key)
                        }
                    }))
        }
    }
}
