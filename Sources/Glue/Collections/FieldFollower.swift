import ReactiveCore

/// One element of a collection followed by an element-field view: the element, the current
/// value of its observed field, and the subscription that keeps that value current.
final class FieldEntry<Element, FieldValue> {
    let element: Element
    /// The field's value as the view last applied it.
    var value: FieldValue
    /// The subscription to the field's updates; `nil` once the element has left the base.
    var connection: Connection?
    /// The field's transactions the view has begun and not yet seen end.
    var openTransactions = 0
    /// Where the entry sits in the view's tree of the base's order (array bases).
    var baseHandle: PositionalTree<FieldEntry>.Handle?
    /// Where the entry sits in a sorted view's tree.
    var sortedHandle: PositionalTree<FieldEntry>.Handle?

    init(element: Element, value: FieldValue) {
        self.element = element
        self.value = value
    }
}

/// The shared machinery of the element-field views: follows a base collection and one
/// observable field per element, and joins all their transactions into the view's.
///
/// The view's transaction begins when the first input (the base or any element's field)
/// begins one, and ends when the last open one ends; each input's changes are applied and
/// sent as they arrive, so a transaction over several fields and the base is one transaction
/// of the view (G1). An input followed from the middle of its transaction (an element that
/// joins while its field is in a transaction, a view made during its base's) begins the
/// view's transaction at its first change and ends it with its own end, as ``ChangeFollower``
/// does for one base.
final class FieldFollower<Element, Field: ObservableValueType, Change: ChangeType> {
    typealias Entry = FieldEntry<Element, Field.Value>

    let signal = Signal<Update<Change>>.reportingAppliedChanges()
    private let field: (Element) -> Field
    /// The inputs' transactions open, the base's and every field's.
    private var depth = 0
    /// The base's transactions the view has begun and not yet seen end.
    private var baseOpen = 0
    private var upstream: Connection?
    /// What the view does when an entry's field changes: applies the change and returns
    /// the view's change (empty if the view's value did not change). Each view sets it in
    /// its initializer, before it follows anything.
    var fieldChanged: ((Entry, ValueChange<Field.Value>) -> Change)!

    init(field: @escaping (Element) -> Field) {
        self.field = field
    }

    /// Starts following the base's `updates`; `translate` applies each base change to the
    /// view and returns the view's change.
    func follow<BaseChange: ChangeType>(
        _ updates: Source<Update<BaseChange>>, translate: @escaping (BaseChange) -> Change
    ) {
        upstream = updates.subscribe { [unowned self] update in
            switch update {
            case .beginTransaction:
                baseOpen += 1
                begin()
            case .change(let change):
                if baseOpen == 0 {
                    baseOpen = 1
                    begin()
                }
                send(translate(change))
            case .endTransaction:
                guard baseOpen > 0 else { return }
                baseOpen -= 1
                end()
            }
        }
    }

    /// An entry for `element`, subscribed to its field from the field's current value.
    func makeEntry(_ element: Element) -> Entry {
        let observed = field(element)
        let entry = Entry(element: element, value: observed.value)
        entry.connection = observed.updates.subscribe { [unowned self, unowned entry] update in
            guard entry.connection != nil else { return }
            switch update {
            case .beginTransaction:
                entry.openTransactions += 1
                begin()
            case .change(let change):
                if entry.openTransactions == 0 {
                    entry.openTransactions = 1
                    begin()
                }
                // The view's own record of the old value: the one it last applied.
                let applied = ValueChange(from: entry.value, to: change.new)
                entry.value = change.new
                send(fieldChanged(entry, applied))
            case .endTransaction:
                guard entry.openTransactions > 0 else { return }
                entry.openTransactions -= 1
                end()
            }
        }
        return entry
    }

    /// Unsubscribes from an element that left the base, and forgets the transactions its
    /// field had open. An element leaves only during a base change, so the base's own
    /// transaction keeps the view's open.
    func retire(_ entry: Entry) {
        entry.connection?.disconnect()
        entry.connection = nil
        depth -= entry.openTransactions
        entry.openTransactions = 0
        #if GLUE_INTERNAL_CHECKS
            glueCheck(depth > 0, "G7", "an element left a field view outside its base's transaction")
        #endif
    }

    private func begin() {
        depth += 1
        if depth == 1 { signal.send(.beginTransaction) }
    }

    private func end() {
        depth -= 1
        if depth == 0 { signal.send(.endTransaction) }
    }

    private func send(_ change: Change) {
        guard !change.isEmpty else { return }
        signal.send(.change(change))
    }

    deinit {
        upstream?.disconnect()
    }
}
