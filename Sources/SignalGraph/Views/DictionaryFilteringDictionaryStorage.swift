/// The entries of a dictionary signal's source that pass a filter, kept in sync by its
/// signals: the second stage of the seed's pipeline.
///
/// Cost per mutation: one predicate call and O(1) dictionary work. An update that moves an
/// entry across the filter becomes an insert or a delete.
public final class DictionaryFilteringDictionaryStorage<Key: Hashable, Value>: StateStorage<
    [Key: Value], DictionaryTransition<Key, Value>
>, Replication
{
    /// The signals it receives.
    public typealias IncomingSignal = DictionarySignal<Key, Value>
    /// The signals it sends.
    public typealias OutgoingSignal = DictionarySignal<Key, Value>

    /// Where the view is registered.
    public let registration = SensorRegistration()
    private let isIncluded: (Key, Value) -> Bool

    /// A view of the entries for which `isIncluded` is true.
    public init(_ isIncluded: @escaping (Key, Value) -> Bool) {
        self.isIncluded = isIncluded
        super.init(state: [:]) { transition, state in transition.apply(to: &state) }
    }

    deinit {
        assert(
            !registration.isRegistered,
            "SignalGraph: a filtering view was released while still registered; deregister it first")
    }

    /// Follows the source: resets on initiation and termination, translates transitions.
    public func sense(_ signal: DictionarySignal<Key, Value>) {
        switch signal {
        case .initiation(let entries):
            reset(to: entries.filter { isIncluded($0.key, $0.value) })
        case .termination:
            reset(to: [:])
        case .transition(let transition):
            let isIncluded = isIncluded
            commit { current in
                // Keys this transition already changed; the rest are looked up in `current`.
                // (A copy of `current` to mutate would cost O(n) per transition.)
                var changed: [Key: Bool] = [:]
                func isPresent(_ key: Key) -> Bool { changed[key] ?? (current[key] != nil) }
                var output: [DictionaryMutation<Key, Value>] = []
                for mutation in transition.mutations {
                    switch mutation {
                    case .insert(let key, let value), .update(let key, let value):
                        let was = isPresent(key)
                        let now = isIncluded(key, value)
                        switch (was, now) {
                        case (true, true): output.append(.update(key, value))
                        case (true, false): output.append(.delete(key))
                        case (false, true): output.append(.insert(key, value))
                        case (false, false): break
                        }
                        changed[key] = now
                    case .delete(let key):
                        if isPresent(key) { output.append(.delete(key)) }
                        changed[key] = false
                    }
                }
                return output.isEmpty ? nil : DictionaryTransition(output)
            }
        }
    }
}
