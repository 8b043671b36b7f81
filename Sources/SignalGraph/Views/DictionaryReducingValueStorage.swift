/// A fold of a dictionary signal's source into one value (a count, a sum, any aggregate whose
/// step can be undone), kept in sync by its signals and sent on as a value signal.
///
/// ```swift
/// let rows = EditableDictionaryStorage<Int, Int>()
/// let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
/// let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
/// rows.register(total)
/// rows.register(count)
/// rows[1] = 10
/// rows[2] = 5                 // total.state == 15, count.state == 2
/// rows[1] = 1                 // total.state == 6: 10 taken out, 1 added
/// rows.deregister(count)
/// rows.deregister(total)
/// ```
///
/// `add` folds a value in and `remove`, its inverse, takes one out: an update takes the old
/// value out and adds the new one. The view keeps the source's entries to know the value an
/// update or a delete replaces. Cost per mutation: one `add` or `remove` (two for an update)
/// and O(1) dictionary work; an initiation folds every value once. It sends a transition only
/// when the result changes.
public final class DictionaryReducingValueStorage<Key: Hashable, Value, Result: Equatable>: StateStorage<
    Result, Result
>, Replication
{
    /// The signals it receives.
    public typealias IncomingSignal = DictionarySignal<Key, Value>
    /// The signals it sends.
    public typealias OutgoingSignal = ValueSignal<Result>

    /// Where the view is registered.
    public let registration = SensorRegistration()
    private let initial: Result
    private let add: (Result, Value) -> Result
    private let remove: (Result, Value) -> Result
    /// The source's entries as the view has seen them.
    private var entries: [Key: Value] = [:]

    /// A fold that starts from `initial`, with `add` and its inverse `remove`.
    public init(
        _ initial: Result, add: @escaping (Result, Value) -> Result, remove: @escaping (Result, Value) -> Result
    ) {
        self.initial = initial
        self.add = add
        self.remove = remove
        super.init(state: initial) { new, state in state = new }
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a view was released while still registered; deregister it first")
    }

    /// Follows the source: folds its entries on initiation, starts over on termination, and
    /// applies each transition's mutations to the result.
    public func sense(_ signal: DictionarySignal<Key, Value>) {
        switch signal {
        case .initiation(let snapshot):
            entries = snapshot
            reset(to: snapshot.values.reduce(initial, add))
        case .termination:
            entries = [:]
            reset(to: initial)
        case .transition(let transition):
            commit { current in
                var result = current
                for mutation in transition.mutations {
                    switch mutation {
                    case .insert(let key, let value), .update(let key, let value):
                        if let old = entries.updateValue(value, forKey: key) { result = remove(result, old) }
                        result = add(result, value)
                    case .delete(let key):
                        if let old = entries.removeValue(forKey: key) { result = remove(result, old) }
                    }
                }
                return result == current ? nil : result
            }
        }
    }
}

extension DictionaryReducingValueStorage where Result == Int {
    /// The number of entries.
    public static func count() -> DictionaryReducingValueStorage {
        DictionaryReducingValueStorage(0, add: { count, _ in count + 1 }, remove: { count, _ in count - 1 })
    }
}

extension DictionaryReducingValueStorage where Value: AdditiveArithmetic, Result == Value {
    /// The sum of the values.
    public static func sum() -> DictionaryReducingValueStorage {
        DictionaryReducingValueStorage(.zero, add: +, remove: -)
    }
}
