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
        upstream = updates.subscribe { update in
            switch update {
            case .beginTransaction:
                signal.send(.beginTransaction)
            case .change(let change):
                let translated = translate(change)
                if !translated.isEmpty { signal.send(.change(translated)) }
            case .endTransaction:
                signal.send(.endTransaction)
            }
        }
    }

    deinit {
        upstream?.disconnect()
    }
}
