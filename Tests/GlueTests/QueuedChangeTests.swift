import Glue
import TestSupport
import Testing

/// Views made by a handler while the base's changes still wait for delivery. The base holds
/// those changes already, so a view starts from them and must not receive them again.
@Suite("Observable collections made during a delivery")
struct QueuedChangeTests {
    /// Runs `make` from inside the delivery of an append to `array`, after `edit` has made
    /// changes that wait behind it; returns what `make` returned.
    private func makeWhileChangesWait<View>(
        _ array: ArrayVariable<Int>, edit: @escaping (ArrayVariable<Int>) -> Void,
        make: @escaping () -> View
    ) -> View? {
        var view: View?
        let connection = array.updates.subscribe { update in
            guard case .change = update, view == nil else { return }
            edit(array)
            view = make()
        }
        array.append(4)
        connection.disconnect()
        return view
    }

    @Test("every array view made while an insert, a removal and a replacement wait matches the base")
    func arrayViews() throws {
        let edits: [(String, (ArrayVariable<Int>) -> Void)] = [
            ("insert", { $0.append(99) }),
            ("remove", { $0.remove(at: 0) }),
            ("replace", { $0[1] = 20 }),
            ("slice", { $0.replaceSubrange(0..<2, with: [7, 8, 9]) }),
            (
                "transaction",
                { array in
                    array.withTransaction {
                        array.append(6)
                        array.remove(at: 1)
                    }
                }
            ),
        ]
        for (name, edit) in edits {
            let array = ArrayVariable([1, 2, 3])
            let views = try #require(
                makeWhileChangesWait(array, edit: edit) {
                    (array.filter { $0 % 2 == 0 }, array.map { $0 * 10 }, array.sum(), Replica(of: array))
                }, "\(name)")
            let (even, tenfold, sum, replica) = views
            #expect(even.value == array.value.filter { $0 % 2 == 0 }, "\(name)")
            #expect(tenfold.value == array.value.map { $0 * 10 }, "\(name)")
            #expect(sum.value == array.value.reduce(0, +), "\(name)")
            #expect(replica.value == array.value, "\(name)")
            // The views follow later edits too.
            array.append(10)
            array.remove(at: 0)
            #expect(even.value == array.value.filter { $0 % 2 == 0 }, "\(name)")
            #expect(tenfold.value == array.value.map { $0 * 10 }, "\(name)")
            #expect(sum.value == array.value.reduce(0, +), "\(name)")
            #expect(replica.value == array.value, "\(name)")
        }
    }

    @Test("the issue's reproduction: a filtered view made while an append waits holds it once")
    func filteredAppend() throws {
        let array = ArrayVariable<Int>([1, 2, 3])
        var view: FilteredObservableArray<ArrayVariable<Int>>?
        let connection = array.updates.subscribe { update in
            guard case .change = update, view == nil else { return }
            array.append(99)
            view = array.filter { _ in true }
        }
        array.append(4)
        #expect(view?.value == [1, 2, 3, 4, 99])
        connection.disconnect()
    }

    @Test("every set view made while changes wait matches the base")
    func setViews() throws {
        let set = SetVariable<Int>([1, 2, 3])
        typealias Views = (
            FilteredObservableSet<SetVariable<Int>>, MappedObservableSet<SetVariable<Int>, Int>,
            SortedObservableArray<Int>, ReducedObservable<Int>, Replica<SetChange<Int>>
        )
        var views: Views?
        let connection = set.updates.subscribe { update in
            guard case .change = update, views == nil else { return }
            set.insert(40)
            set.remove(1)
            set.replace(2, with: 50)
            views = (
                set.filter { $0 > 2 }, set.map { $0 / 10 }, set.sorted(by: >), set.sum(), Replica(of: set)
            )
        }
        set.insert(4)
        connection.disconnect()
        let (filtered, tens, sorted, sum, replica) = try #require(views)
        #expect(set.value == [3, 4, 40, 50])
        #expect(filtered.value == set.value.filter { $0 > 2 })
        #expect(tens.value == Set(set.value.map { $0 / 10 }))
        #expect(sorted.value == set.value.sorted(by: >))
        #expect(sum.value == set.value.reduce(0, +))
        #expect(replica.value == set.value)
        set.remove(40)
        set.insert(7)
        #expect(filtered.value == set.value.filter { $0 > 2 })
        #expect(tens.value == Set(set.value.map { $0 / 10 }))
        #expect(sorted.value == set.value.sorted(by: >))
        #expect(sum.value == set.value.reduce(0, +))
        #expect(replica.value == set.value)
    }

    @Test("a view of a view made while the base's change has not reached the inner view")
    func viewOfView() throws {
        let array = ArrayVariable([1, 2, 3, 4])
        var even: FilteredObservableArray<ArrayVariable<Int>>?
        var evenSum: ReducedObservable<Int>?
        var tenfold: MappedObservableArray<FilteredObservableArray<ArrayVariable<Int>>, Int>?
        // Subscribed before `even` exists: `even` follows the base after this handler, so the
        // edits below reach it after the views of it are made.
        let connection = array.updates.subscribe { update in
            guard case .change = update, tenfold == nil, let even else { return }
            array.append(8)
            array.remove(at: 1)
            evenSum = even.sum()
            tenfold = even.map { $0 * 10 }
        }
        even = array.filter { $0 % 2 == 0 }
        array.insert(6, at: 0)
        connection.disconnect()
        let expected = array.value.filter { $0 % 2 == 0 }
        #expect(even?.value == expected)
        #expect(try #require(tenfold).value == expected.map { $0 * 10 })
        #expect(try #require(evenSum).value == expected.reduce(0, +))
    }

    @Test("a variable's observer added while a change waits sees changes from the value it read")
    func variableChanges() {
        let variable = Variable(1)
        var seen: [ValueChange<Int>] = []
        var readAtSubscription: Int?
        var late: Connection?
        let connection = variable.changes.subscribe { change in
            guard late == nil else { return }
            variable.value = 3
            readAtSubscription = variable.value
            late = variable.changes.subscribe { seen.append($0) }
        }
        variable.value = 2
        variable.value = 4
        #expect(readAtSubscription == 3)
        #expect(seen.map(\.old) == [3])
        #expect(seen.map(\.new) == [4])
        connection.disconnect()
        late?.disconnect()
    }

    @Test("a plain signal's sink added during a delivery still receives the values queued after it")
    func plainSignalKeepsQueued() {
        let signal = Signal<Int>()
        var late: [Int] = []
        var lateConnection: Connection?
        let connection = signal.subscribe { value in
            guard value == 1 else { return }
            signal.send(2)
            lateConnection = signal.subscribe { late.append($0) }
            signal.send(3)
        }
        signal.send(1)
        #expect(late == [2, 3])
        connection.disconnect()
        lateConnection?.disconnect()
    }

    @Test(
        "views made at random moments of random nested edits match recomputation",
        arguments: [1, 2, 3, 4] as [UInt64])
    func randomNestedEdits(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let array = ArrayVariable((0..<10).map { _ in Int.random(in: 0..<30, using: &random) })
        var filters: [FilteredObservableArray<ArrayVariable<Int>>] = []
        var maps: [MappedObservableArray<ArrayVariable<Int>, Int>] = []
        var sums: [ReducedObservable<Int>] = []
        var replicas: [Replica<ArrayChange<Int>>] = []
        // Handlers never nest (edits they make are queued), so a budget of edits made from
        // handlers, renewed by each outer edit, bounds the cascade.
        var budget = 0
        func randomEdit() {
            let element = Int.random(in: 0..<30, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !array.value.isEmpty:
                array.remove(at: Int.random(in: 0..<array.value.count, using: &random))
            case 1 where !array.value.isEmpty:
                array[Int.random(in: 0..<array.value.count, using: &random)] = element
            case 2:
                array.withTransaction {
                    array.append(element)
                    if array.value.count > 3 { array.remove(at: 1) }
                }
            default:
                array.insert(element, at: Int.random(in: 0...array.value.count, using: &random))
            }
        }
        let connection = array.updates.subscribe { update in
            guard case .change = update, budget > 0 else { return }
            budget -= 1
            for _ in 0..<Int.random(in: 0...2, using: &random) { randomEdit() }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: filters.append(array.filter { $0 % 3 == 0 })
            case 1: maps.append(array.map { $0 + 100 })
            case 2: sums.append(array.sum())
            case 3: replicas.append(Replica(of: array))
            default: break
            }
        }
        for step in 0..<400 {
            budget = 3
            randomEdit()
            let model = array.value
            guard filters.allSatisfy({ $0.value == model.filter { $0 % 3 == 0 } }),
                maps.allSatisfy({ $0.value == model.map { $0 + 100 } }),
                sums.allSatisfy({ $0.value == model.reduce(0, +) }),
                replicas.allSatisfy({ $0.value == model })
            else {
                Issue.record("a view diverged at step \(step); reproduce with seed \(seed)")
                break
            }
        }
        #expect(filters.count + maps.count + sums.count + replicas.count > 10)
        connection.disconnect()
    }

    @Test(
        "a view made in the middle of its base's transaction reports its changes inside a transaction of its own, and no end it never began"
    )
    func viewMadeMidTransaction() {
        let array = ArrayVariable([1, 2, 3])
        var view: FilteredObservableArray<ArrayVariable<Int>>?
        var seen: [String] = []
        var viewConnection: Connection?
        let connection = array.updates.subscribe { update in
            guard case .beginTransaction = update, view == nil else { return }
            let made = array.filter { $0 % 2 == 0 }
            view = made
            viewConnection = made.updates.subscribe { update in
                switch update {
                case .beginTransaction: seen.append("begin")
                case .change(let change): seen.append("change \(change.modifications.count)")
                case .endTransaction: seen.append("end")
                }
            }
        }
        array.withTransaction {
            array.append(4)
            array.append(5)
        }
        #expect(seen == ["begin", "change 1", "end"])
        #expect(view?.value == [2, 4])
        seen.removeAll()
        // A transaction of the base that changes nothing in the view: an empty one.
        array.withTransaction { array.append(7) }
        array.append(8)
        #expect(seen == ["begin", "end", "begin", "change 1", "end"])
        #expect(view?.value == [2, 4, 8])
        connection.disconnect()
        viewConnection?.disconnect()
    }

    @Test("a join subscribed in the middle of an input's transaction reports the rest as one whole transaction")
    func joinMadeMidTransaction() {
        let first = Variable(0)
        let second = Variable(10)
        let combined = first.combined(second)
        var seen: [String] = []
        var joinConnection: Connection?
        let connection = first.updates.subscribe { update in
            guard case .beginTransaction = update, joinConnection == nil else { return }
            joinConnection = combined.updates.subscribe { update in
                switch update {
                case .beginTransaction: seen.append("begin")
                case .change(let change):
                    seen.append("\(change.old.0),\(change.old.1)->\(change.new.0),\(change.new.1)")
                case .endTransaction: seen.append("end")
                }
            }
        }
        first.withTransaction { first.value = 1 }
        #expect(seen == ["begin", "0,10->1,10", "end"])
        seen.removeAll()
        first.withTransaction {
            first.value = 2
            second.value = 20
        }
        #expect(seen == ["begin", "1,10->2,20", "end"])
        connection.disconnect()
        joinConnection?.disconnect()
    }
}
