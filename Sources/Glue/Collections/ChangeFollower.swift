/// Follows a base collection's updates for as long as its owner lives: forwards
/// transaction boundaries to the owner's signal and sends each change translated.
///
/// Derived collections are stateful (they hold their result), so they follow their base
/// from creation to deinit rather than only while observed: reading their value is then
/// always O(1) and always current.
final class ChangeFollower<BaseChange: ChangeType, Change: ChangeType> {
    let signal = Signal<Update<Change>>.reportingAppliedChanges()
    private var upstream: Connection?

    /// Starts following `updates`; `translate` turns each base change into this
    /// collection's change (applying it to the owner's state on the way).
    func follow(_ updates: Source<Update<BaseChange>>, translate: @escaping (BaseChange) -> Change) {
        let signal = signal
        // Whether this collection has begun a transaction that its base has not ended. A
        // collection made during its base's transaction (by an observer of the base, say)
        // receives the rest of it without its beginning: it then begins the transaction at
        // the first change, and does not end one it never began (G1).
        var isOpen = false
        upstream = updates.subscribe { update in
            switch update {
            case .beginTransaction:
                isOpen = true
                signal.send(.beginTransaction)
            case .change(let change):
                let translated = translate(change)
                guard !translated.isEmpty else { return }
                if !isOpen {
                    isOpen = true
                    signal.send(.beginTransaction)
                }
                signal.send(.change(translated))
            case .endTransaction:
                guard isOpen else { return }
                isOpen = false
                signal.send(.endTransaction)
            }
        }
    }

    deinit {
        upstream?.disconnect()
    }
}
