import Glue
import TestSupport
import Testing

/// Counts the subscriptions alive across every field made with it.
final class FieldSubscriptionCounter {
    var alive = 0
}

/// An observable member whose subscriptions are counted, so a test can prove that a view
/// unsubscribes from elements that leave and from every element when it goes.
struct CountedField<Value>: UpdatableValueType, TransactionParticipant {
    let variable: Variable<Value>
    let counter: FieldSubscriptionCounter

    var value: Value {
        get { variable.value }
        nonmutating set { variable.value = newValue }
    }

    var updates: Source<Update<ValueChange<Value>>> {
        let (updates, counter) = (variable.updates, counter)
        return Source { sink in
            counter.alive += 1
            let connection = updates.subscribe(sink)
            return Connection(isolated: {
                counter.alive -= 1
                connection.disconnect()
            })
        }
    }

    func apply(_ update: Update<ValueChange<Value>>) { variable.apply(update) }
    func beginTransaction() { variable.apply(.beginTransaction) }
    func endTransaction() { variable.apply(.endTransaction) }
}

/// A row with observable members, compared by identity.
final class FieldRow: Hashable, CustomStringConvertible {
    let id: Int
    let done: CountedField<Bool>
    let rank: CountedField<Int>

    init(id: Int, done: Bool, rank: Int, counter: FieldSubscriptionCounter) {
        self.id = id
        self.done = CountedField(variable: Variable(done), counter: counter)
        self.rank = CountedField(variable: Variable(rank), counter: counter)
    }

    static func == (left: FieldRow, right: FieldRow) -> Bool { left === right }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    var description: String { "#\(id)(\(done.value ? "done" : "open"), \(rank.value))" }
}

@Suite("Element-field views")
struct ElementFieldViewTests {
    @Test("filter, map and sort on members match recomputation through random edits", arguments: [1, 2, 3] as [UInt64])
    func model(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let counter = FieldSubscriptionCounter()
        var made = 0
        func makeRow() -> FieldRow {
            made += 1
            return FieldRow(
                id: made, done: Bool.random(using: &random), rank: Int.random(in: 0..<6, using: &random),
                counter: counter)
        }
        let rows = ArrayVariable((0..<12).map { _ in makeRow() })
        let picked = SetVariable<FieldRow>(Set(rows.value.prefix(5)))
        // The order in which each row last joined a sorted view or changed rank: the tie-break
        // of the reference sort, kept apart from the views.
        var clock = 0
        var arrayStamp: [FieldRow: Int] = [:]
        var setStamp: [FieldRow: Int] = [:]
        func stamp(_ row: FieldRow, in stamps: inout [FieldRow: Int]) {
            clock += 1
            stamps[row] = clock
        }
        for row in rows.value { stamp(row, in: &arrayStamp) }
        var everyRow = rows.value

        var views:
            (
                done: FieldFilteredObservableArray<ArrayVariable<FieldRow>, CountedField<Bool>>,
                open: FieldFilteredObservableArray<ArrayVariable<FieldRow>, CountedField<Bool>>,
                ranks: FieldMappedObservableArray<ArrayVariable<FieldRow>, CountedField<Int>>,
                sorted: FieldSortedObservableArray<FieldRow, CountedField<Int>>,
                pickedSorted: FieldSortedObservableArray<FieldRow, CountedField<Int>>
            )? = (
                rows.filter(observing: \.done), rows.filter(observing: \.done) { !$0 }, rows.map(observing: \.rank),
                rows.sorted(observing: \.rank), picked.sorted(observing: \.rank, by: >)
            )
        // Arrival order is the initial order for the views' first elements.
        let initialSorted = rows.value.sorted { ($0.rank.value, arrayStamp[$0]!) < ($1.rank.value, arrayStamp[$1]!) }
        #expect(views!.sorted.value == initialSorted)
        // A set has no order: its rows joined the view in the order the view took them.
        setStamp = Dictionary(
            uniqueKeysWithValues: views!.pickedSorted.value.enumerated().map { ($1, $0 - 1_000_000) })
        var replicas = Optional(
            (
                Replica(of: views!.done), Replica(of: views!.open), Replica(of: views!.ranks),
                Replica(of: views!.sorted), Replica(of: views!.pickedSorted)
            ))

        func setRank(_ row: FieldRow, to rank: Int) {
            let changed = row.rank.value != rank
            row.rank.value = rank
            guard changed else { return }
            if arrayStamp[row] != nil { stamp(row, in: &arrayStamp) }
            if setStamp[row] != nil { stamp(row, in: &setStamp) }
        }
        func edit(_ operation: Int) {
            switch operation {
            case 0:
                let row = makeRow()
                everyRow.append(row)
                rows.insert(row, at: Int.random(in: 0...rows.count, using: &random))
                stamp(row, in: &arrayStamp)
            case 1 where rows.count > 0:
                let removed = rows.remove(at: Int.random(in: 0..<rows.count, using: &random))
                arrayStamp[removed] = nil
            case 2 where rows.count > 0:
                let row = makeRow()
                everyRow.append(row)
                let index = Int.random(in: 0..<rows.count, using: &random)
                arrayStamp[rows.value[index]] = nil
                rows[index] = row
                stamp(row, in: &arrayStamp)
            case 3:
                let lower = Int.random(in: 0...rows.count, using: &random)
                let upper = Int.random(in: lower...min(rows.count, lower + 3), using: &random)
                let new = (0..<Int.random(in: 0...3, using: &random)).map { _ in makeRow() }
                everyRow += new
                for row in rows.value[lower..<upper] { arrayStamp[row] = nil }
                rows.replaceSubrange(lower..<upper, with: new)
                for row in new { stamp(row, in: &arrayStamp) }
            case 4:
                let row = everyRow.randomElement(using: &random)!
                row.done.value = Bool.random(using: &random)
            case 5:
                setRank(everyRow.randomElement(using: &random)!, to: Int.random(in: 0..<6, using: &random))
            case 6:
                let row = everyRow.randomElement(using: &random)!
                if picked.value.contains(row) {
                    picked.remove(row)
                    setStamp[row] = nil
                } else {
                    picked.insert(row)
                    stamp(row, in: &setStamp)
                }
            default:
                break
            }
        }

        for step in 0..<modelOperations / 3 {
            let operation = Int.random(in: 0..<8, using: &random)
            if operation == 7 {
                // A transaction over the base and two rows' members.
                let first = everyRow.randomElement(using: &random)!
                let second = everyRow.randomElement(using: &random)!
                let before = replicas!.3.transactions
                withTransaction([rows, first.done, second.rank]) {
                    for _ in 0..<3 { edit(Int.random(in: 0..<6, using: &random)) }
                    first.done.value.toggle()
                    setRank(second, to: Int.random(in: 0..<6, using: &random))
                }
                #expect(replicas!.3.transactions <= before + 1, "a transaction reached the sorted view as several")
            } else {
                edit(operation)
            }
            let views = views!
            let base = rows.value
            let expected = (
                done: base.filter { $0.done.value }, open: base.filter { !$0.done.value },
                ranks: base.map { $0.rank.value },
                sorted: base.sorted { ($0.rank.value, arrayStamp[$0]!) < ($1.rank.value, arrayStamp[$1]!) },
                picked: picked.value.sorted { ($0.rank.value, -setStamp[$0]!) > ($1.rank.value, -setStamp[$1]!) }
            )
            guard views.done.value == expected.done, views.open.value == expected.open,
                views.ranks.value == expected.ranks, views.sorted.value == expected.sorted,
                views.pickedSorted.value == expected.picked
            else {
                Issue.record("a view diverged from recomputation at step \(step), seed \(seed)")
                return
            }
            let replica = replicas!
            guard replica.0.value == expected.done, replica.1.value == expected.open,
                replica.2.value == expected.ranks, replica.3.value == expected.sorted,
                replica.4.value == expected.picked
            else {
                Issue.record("the changes reported no longer rebuild a view at step \(step), seed \(seed)")
                return
            }
            // Four array views follow each row of the array (two on `done`, two on `rank`);
            // the set's sorted view follows each picked row's `rank`.
            guard counter.alive == 4 * base.count + picked.count else {
                Issue.record(
                    "\(counter.alive) member subscriptions alive at step \(step), expected \(4 * base.count + picked.count)"
                )
                return
            }
        }
        #expect(views!.sorted.count == rows.count)
        // The replicas observe the views, which keeps them alive (G5): let both go.
        weak let sorted = views!.sorted
        replicas = nil
        views = nil
        #expect(sorted == nil)
        #expect(counter.alive == 0)
    }

    private static func rows(_ specs: [(Bool, Int)], counter: FieldSubscriptionCounter) -> [FieldRow] {
        specs.enumerated().map { FieldRow(id: $0 + 1, done: $1.0, rank: $1.1, counter: counter) }
    }

    @Test("a transaction over several members and the base is one transaction of each view")
    func transactions() {
        let counter = FieldSubscriptionCounter()
        let list = Self.rows([(false, 1), (false, 2), (true, 3)], counter: counter)
        let rows = ArrayVariable(list)
        let done = rows.filter(observing: \.done)
        let sorted = rows.sorted(observing: \.rank, by: >)
        let (doneReplica, sortedReplica) = (Replica(of: done), Replica(of: sorted))
        let joining = FieldRow(id: 4, done: false, rank: 0, counter: counter)
        withTransaction([list[0].done, list[1].rank, rows, joining.done]) {
            list[0].done.value = true
            list[1].rank.value = 9
            rows.append(joining)
            joining.done.value = true  // a member of an element that joined in this transaction
            _ = rows.remove(at: 2)  // an element leaves while its members' transactions are open
        }
        #expect(doneReplica.transactions == 1 && sortedReplica.transactions == 1)
        #expect(done.value.map(\.id) == [1, 4])
        #expect(sorted.value.map(\.id) == [2, 1, 4])
        #expect(doneReplica.value == done.value && sortedReplica.value == sorted.value)
        #expect(counter.alive == 6)
    }

    @Test("a handler that writes members and the base during a delivery sees every view consistent")
    func reentrant() {
        let counter = FieldSubscriptionCounter()
        let list = Self.rows([(false, 1), (false, 2), (false, 3)], counter: counter)
        let rows = ArrayVariable(list)
        let done = rows.filter(observing: \.done)
        let ranks = rows.map(observing: \.rank)
        let replica = Replica(of: done)
        var seen: [[Int]] = []
        var late: FieldFilteredObservableArray<ArrayVariable<FieldRow>, CountedField<Bool>>?
        let connection = done.changes.subscribe { _ in
            seen.append(done.value.map(\.id))
            // The first row done finishes the next one and appends a row; a view made here
            // starts from the base as it is.
            guard done.count == 1 else { return }
            list[1].done.value = true
            rows.append(FieldRow(id: 4, done: true, rank: 4, counter: counter))
            late = rows.filter(observing: \.done)
        }
        list[0].done.value = true
        // The writes apply at once (a handler reads the newest value); their changes are
        // delivered after the current one, in order, and rebuild the view exactly.
        #expect(seen == [[1], [1, 2, 4], [1, 2, 4]])
        #expect(replica.value == done.value && replica.transactions == 3)
        #expect(done.value.map(\.id) == [1, 2, 4] && late?.value.map(\.id) == [1, 2, 4])
        #expect(ranks.value == [1, 2, 3, 4])
        connection.disconnect()
    }

    @Test("writing a member's value again changes no filter and no sort; the map reports it, as Glue cuts nothing off")
    func sameValue() {
        let counter = FieldSubscriptionCounter()
        let list = Self.rows([(true, 1), (false, 1), (true, 1)], counter: counter)
        let rows = ArrayVariable(list)
        let done = rows.filter(observing: \.done)
        let sorted = rows.sorted(observing: \.rank)
        let ranks = rows.map(observing: \.rank)
        let (doneReplica, sortedReplica, ranksReplica) = (Replica(of: done), Replica(of: sorted), Replica(of: ranks))
        list[0].done.value = true
        list[0].rank.value = 1
        #expect(doneReplica.transactions == 0 && sortedReplica.transactions == 0)
        #expect(ranksReplica.transactions == 1 && ranks.value == [1, 1, 1])
        // Equivalent members keep the order in which they joined; a real change re-enters.
        #expect(sorted.value.map(\.id) == [1, 2, 3])
        list[0].rank.value = 0
        list[0].rank.value = 1
        #expect(sorted.value.map(\.id) == [2, 3, 1] && sortedReplica.value == sorted.value)
    }

    @Test("an element present twice is followed at each place")
    func duplicates() {
        let counter = FieldSubscriptionCounter()
        let row = FieldRow(id: 1, done: false, rank: 5, counter: counter)
        let other = FieldRow(id: 2, done: true, rank: 1, counter: counter)
        let rows = ArrayVariable([row, other, row])
        let done = rows.filter(observing: \.done)
        let ranks = rows.map(observing: \.rank)
        let sorted = rows.sorted(observing: \.rank)
        row.done.value = true
        row.rank.value = 0
        #expect(done.value.map(\.id) == [1, 2, 1])
        #expect(ranks.value == [0, 1, 0] && ranks[2] == 0 && ranks.count == 3)
        #expect(sorted.value.map(\.id) == [1, 1, 2] && sorted[2] === other)
        _ = rows.remove(at: 0)
        #expect(done.value.map(\.id) == [2, 1] && done[1] === row && counter.alive == 6)
    }

    @Test("a set sorted on a member: elements that join and leave subscribe and unsubscribe")
    func setSorting() {
        let counter = FieldSubscriptionCounter()
        let list = Self.rows([(false, 3), (false, 1), (false, 2)], counter: counter)
        let people = SetVariable(Set(list))
        weak var weakView: FieldSortedObservableArray<FieldRow, CountedField<Int>>?
        do {
            let view = people.sorted(observing: \.rank)
            weakView = view
            #expect(view.value.map(\.id) == [2, 3, 1] && counter.alive == 3)
            people.remove(list[0])
            #expect(counter.alive == 2)
            list[0].rank.value = 0  // no longer followed
            list[2].rank.value = 0
            #expect(view.value.map(\.id) == [3, 2])
        }
        #expect(weakView == nil && counter.alive == 0)
    }
}
