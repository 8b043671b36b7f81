/// Joins the transactions of several inputs into one stream of transactions.
///
/// The joined stream begins when the first input begins, and ends when the last open
/// input ends; then, if any input changed, it sends one change built by `makeChange` from
/// what the inputs recorded. So an observer of a value derived from several inputs sees
/// one consistent change per coordinated transaction, never a mix of old and new.
final class TransactionJoin<Value> {
    private var depth = 0
    private var changed = false
    private let sink: (Update<ValueChange<Value>>) -> Void
    private let makeChange: () -> ValueChange<Value>
    private let reset: () -> Void

    init(
        sink: @escaping (Update<ValueChange<Value>>) -> Void,
        makeChange: @escaping () -> ValueChange<Value>,
        reset: @escaping () -> Void
    ) {
        #if GLUE_INTERNAL_CHECKS
            var wire = TransactionWire()
            self.sink = { update in
                wire.note(update)
                sink(update)
            }
        #else
            self.sink = sink
        #endif
        self.makeChange = makeChange
        self.reset = reset
    }

    func begin() {
        depth += 1
        if depth == 1 { sink(.beginTransaction) }
    }

    /// Records that an input changed; a change outside any transaction is sent as a
    /// transaction of its own.
    func noteChange() {
        changed = true
        if depth == 0 {
            sink(.beginTransaction)
            finish()
        }
    }

    func end() {
        precondition(depth > 0, "TransactionJoin: an input ended a transaction it did not begin")
        depth -= 1
        if depth == 0 { finish() }
    }

    /// Forgets `count` open transactions of an input that is no longer followed.
    func abandon(_ count: Int) {
        depth -= count
        #if GLUE_INTERNAL_CHECKS
            glueCheck(depth >= 0, "G2", "a join abandoned more transactions than its inputs opened")
        #endif
    }

    private func finish() {
        #if GLUE_INTERNAL_CHECKS
            glueCheck(depth == 0, "G2", "a join finished with \(depth) input transaction(s) open")
        #endif
        if changed {
            changed = false
            sink(.change(makeChange()))
        }
        reset()
        sink(.endTransaction)
    }
}

/// What one input of a join changed during the current transaction.
final class ChangeSlot<Value> {
    private var old: Value?
    private var new: Value?
    let current: () -> Value
    /// The input's transactions still open, so that an input followed from the middle of a
    /// transaction cannot end one it did not begin.
    private(set) var openTransactions = 0

    init(current: @escaping () -> Value) {
        self.current = current
    }

    /// The input's value when the transaction began.
    var before: Value { old ?? current() }
    /// The input's value now.
    var after: Value { new ?? current() }

    func record(_ change: ValueChange<Value>) {
        if old == nil { old = change.old }
        new = change.new
    }

    func reset() {
        old = nil
        new = nil
    }

    /// Forgets the open transactions of an input that is no longer followed.
    func forgetOpenTransactions() {
        openTransactions = 0
    }

    /// Follows `updates` into `join`.
    func follow<Joined>(_ updates: Source<Update<ValueChange<Value>>>, into join: TransactionJoin<Joined>) -> Connection
    {
        updates.subscribe { [unowned self] update in
            switch update {
            case .beginTransaction:
                openTransactions += 1
                join.begin()
            case .change(let change):
                record(change)
                join.noteChange()
            case .endTransaction:
                guard openTransactions > 0 else { return }
                openTransactions -= 1
                join.end()
            }
        }
    }
}
