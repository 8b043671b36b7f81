import Glue
import TestSupport
import Testing

@Suite("Observables and updatables")
struct ObservableTests {
    @Test("the seed's Person sample: read, write and observe a Variable")
    func seedPerson() {
        final class Person {
            let name: Variable<String>
            init(name: String) { self.name = Variable(name) }
        }
        var printed: [String] = []
        let fred = Person(name: "Fred")
        printed.append(fred.name.value)
        fred.name.value = "Freddie"
        let connection = fred.name.subscribe { name in printed.append("Fred's name is \(name)") }
        fred.name.value = "Frederick"
        #expect(printed == ["Fred", "Fred's name is Freddie", "Fred's name is Frederick"])
        _ = connection
    }

    @Test("futureValues sends only later values; changes sends old/new pairs")
    func futureValuesAndChanges() {
        let counter = Variable(0)
        var future: [Int] = []
        var changes: [ValueChange<Int>] = []
        let connections = [
            counter.futureValues.subscribe { future.append($0) },
            counter.changes.subscribe { changes.append($0) },
        ]
        counter.value = 1
        counter.value = 5
        #expect(future == [1, 5])
        #expect(changes == [ValueChange(from: 0, to: 1), ValueChange(from: 1, to: 5)])
        _ = connections
    }

    @Test("updates: begin before the value changes, change, end after")
    func updateProtocol() {
        let variable = Variable("a")
        var log: [String] = []
        let connection = variable.updates.subscribe { update in
            switch update {
            case .beginTransaction: log.append("begin(value \(variable.value))")
            case .change(let change): log.append("change \(change)")
            case .endTransaction: log.append("end(value \(variable.value))")
            }
        }
        variable.value = "b"
        #expect(log == ["begin(value a)", "change a → b", "end(value b)"])
        _ = connection
    }

    @Test("a transaction on one variable reports its changes as one")
    func singleTransaction() {
        let counter = Variable(0)
        var changes: [ValueChange<Int>] = []
        var values: [Int] = []
        let connections = [
            counter.changes.subscribe { changes.append($0) },
            counter.subscribe { values.append($0) },
        ]
        counter.withTransaction {
            counter.value += 1
            counter.value += 1
            counter.withTransaction { counter.value += 1 }
        }
        #expect(changes == [ValueChange(from: 0, to: 3)])
        #expect(values == [0, 3])
        _ = connections
    }

    @Test("a transaction across variables shows a combined observer one consistent change")
    func coordinatedTransaction() {
        let first = Variable("Ada")
        let last = Variable("Byron")
        let fullName = first.combined(last) { "\($0) \($1)" }
        var seen: [String] = []
        let connection = fullName.subscribe { seen.append($0) }
        withTransaction([first, last]) {
            first.value = "Augusta"
            last.value = "King"
        }
        first.value = "Ada"
        #expect(seen == ["Ada Byron", "Augusta King", "Ada King"])
        _ = connection
    }

    @Test("the diamond is glitch-free: d sees one consistent value per write")
    func diamond() {
        let a = Variable(1)
        let b = a.map { $0 + 1 }
        let c = a.map { $0 * 2 }
        let d = b.combined(c, +)
        var seen: [Int] = []
        var changes: [ValueChange<Int>] = []
        let connections = [d.subscribe { seen.append($0) }, d.changes.subscribe { changes.append($0) }]
        a.value = 2
        a.value = 3
        #expect(seen == [4, 7, 10])
        #expect(changes == [ValueChange(from: 4, to: 7), ValueChange(from: 7, to: 10)])
        _ = connections
    }

    @Test("a write from an observer is queued: observers see each transaction whole, in order")
    func reentrantWrite() {
        let counter = Variable(0)
        var first: [Int] = []
        var second: [Int] = []
        let a = counter.futureValues.subscribe { value in
            first.append(value)
            if value == 1 { counter.value = 2 }
        }
        let b = counter.futureValues.subscribe { second.append($0) }
        counter.value = 1
        #expect(first == [1, 2])
        #expect(second == [1, 2])
        #expect(counter.value == 2)
        _ = (a, b)
    }

    @Test("a write that reaches a variable through another variable's observer, while it delivers, is queued too")
    func reentrantWriteThroughAnotherVariable() {
        let counter = Variable(0)
        let other = Variable(0)
        var seen: [Int] = []
        let a = other.futureValues.subscribe { if $0 == 1 { counter.value = 2 } }
        let b = counter.futureValues.subscribe { if $0 == 1 { other.value = 1 } }
        let c = counter.futureValues.subscribe { seen.append($0) }
        counter.value = 1
        #expect(seen == [1, 2])
        #expect(counter.value == 2)
        _ = (a, b, c)
    }

    @Test("map reads through; a two-way map writes back through its inverse")
    func mapAndTwoWayMap() {
        let celsius = Variable(20.0)
        let fahrenheit = celsius.map({ $0 * 9 / 5 + 32 }, inverse: { ($0 - 32) * 5 / 9 })
        let label = celsius.map { "\(Int($0))°C" }
        var labels: [String] = []
        let connection = label.subscribe { labels.append($0) }
        #expect(fahrenheit.value == 68)
        fahrenheit.value = 212
        #expect(celsius.value == 100)
        #expect(labels == ["20°C", "100°C"])
        _ = connection
    }

    @Test("key paths map into plain properties")
    func keyPathMap() {
        struct Person { var name: String; var age: Int }
        let person = Variable(Person(name: "Ada", age: 36))
        var ages: [Int] = []
        let connection = person.map(\.age).subscribe { ages.append($0) }
        person.value.age += 1
        #expect(ages == [36, 37])
        _ = connection
    }

    @Test("distinct reports a transaction only if its value changed")
    func distinct() {
        let age = Variable(30)
        var adult: [Bool] = []
        let connection = age.map { $0 >= 18 }.distinct().subscribe { adult.append($0) }
        age.value = 31
        age.value = 12
        age.withTransaction {
            age.value = 40
            age.value = 10
        }
        #expect(adult == [true, false])
        _ = connection
    }

    @Test("combined with three inputs, and the operators")
    func combinedThreeAndOperators() {
        let x = Variable(1)
        let y = Variable(2)
        let z = Variable(3)
        let sum = x.combined(y, z) { $0 + $1 + $2 }
        let product = x * y
        let difference = z - x
        let isLess = x < y
        let both = (x < y) && !(x == z)
        let ratio = Variable(1.0) / Variable(4.0)
        #expect(sum.value == 6 && product.value == 2 && difference.value == 2)
        #expect(isLess.value && both.value && ratio.value == 0.25)
        var sums: [Int] = []
        let connection = sum.subscribe { sums.append($0) }
        withTransaction([x, y, z]) {
            x.value = 10
            y.value = 20
            z.value = 30
        }
        #expect(sums == [6, 60])
        #expect((x + y).value == 30 && (x > y).value == false && (x != y).value && (isLess || both).value == true)
        _ = connection
    }

    @Test("bind keeps two updatables equal both ways, with no feedback loop")
    func bind() {
        let model = Variable("draft")
        let field = Variable("")
        var fieldWrites = 0
        var modelWrites = 0
        let counters = [
            field.changes.subscribe { _ in fieldWrites += 1 },
            model.changes.subscribe { _ in modelWrites += 1 },
        ]
        let binding = model.bind(to: field)
        #expect(field.value == "draft")
        field.value = "final"
        #expect(model.value == "final")
        model.value = "published"
        #expect(field.value == "published")
        #expect(fieldWrites == 3)
        #expect(modelWrites == 2)
        binding.disconnect()
        field.value = "unbound"
        #expect(model.value == "published")
        _ = counters
    }

    @Test("bind: an observer that clamps a value the binding wrote leaves both sides equal", arguments: [false, true])
    func bindWithClamp(clampFirst: Bool) {
        let model = Variable(0)
        let field = Variable(0)
        var connections: [Connection] = []
        func clamp() {
            connections.append(field.futureValues.subscribe { _ in if field.value > 10 { field.value = 10 } })
        }
        if clampFirst { clamp() }
        connections.append(model.bind(to: field))
        if !clampFirst { clamp() }
        model.value = 20
        #expect(model.value == 10 && field.value == 10)
        field.value = 30
        #expect(model.value == 10 && field.value == 10)
        model.value = 4
        #expect(model.value == 4 && field.value == 4)
        for connection in connections { connection.disconnect() }
    }

    @Test("bind: a side written again from its own observer ends equal to the other")
    func bindWithReentrantWrite() {
        let model = Variable(0)
        let field = Variable(0)
        // Each write to the model from outside is followed, from its observer, by a second.
        let doubler = model.futureValues.subscribe { value in
            if value.isMultiple(of: 2) == false { model.value = value * 2 }
        }
        let binding = model.bind(to: field)
        model.value = 3
        #expect(model.value == 6 && field.value == 6)
        field.value = 5
        #expect(model.value == 10 && field.value == 10)
        binding.disconnect()
        doubler.disconnect()
    }

    /// Random clamps on both sides (whose ranges overlap), subscribed before or after the
    /// binding, and random writes to either side, against a plain computation: both sides
    /// end equal to the written value clamped into the overlap.
    @Test("model: bind with clamps on both sides against a plain clamp", arguments: 0..<20 as Range<UInt64>)
    func bindModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let low = Int.random(in: -20...0, using: &random)
        let high = Int.random(in: 0...20, using: &random)
        let model = Variable(0)
        let field = Variable(0)
        var connections: [Connection] = []
        let clampModelFirst = Bool.random(using: &random)
        let clampFieldFirst = Bool.random(using: &random)
        let clampModel = {
            connections.append(model.futureValues.subscribe { _ in if model.value > high { model.value = high } })
        }
        let clampField = {
            connections.append(field.futureValues.subscribe { _ in if field.value < low { field.value = low } })
        }
        if clampModelFirst { clampModel() }
        if clampFieldFirst { clampField() }
        connections.append(field.bind(to: model))
        if !clampModelFirst { clampModel() }
        if !clampFieldFirst { clampField() }
        var problems: [String] = []
        for step in 0..<100 {
            let written = Int.random(in: -40...40, using: &random)
            if Bool.random(using: &random) { model.value = written } else { field.value = written }
            let want = min(max(written, low), high)
            if model.value != want || field.value != want {
                problems.append(
                    "step \(step): wrote \(written), model \(model.value), field \(field.value), want \(want)")
            }
        }
        #expect(problems.isEmpty, "seed \(seed) [\(low), \(high)]: \(problems.prefix(3))")
        for connection in connections { connection.disconnect() }
    }

    @Test("flatMap follows the inner observable and switches when the outer one changes")
    func flatMapNested() {
        final class Book {
            let title: Variable<String>
            init(_ title: String) { self.title = Variable(title) }
        }
        let dune = Book("Dune")
        let emma = Book("Emma")
        let selected = Variable(dune)
        let title = selected.flatMap(\.title)
        var titles: [String] = []
        let connection = title.subscribe { titles.append($0) }
        dune.title.value = "Dune Messiah"
        selected.value = emma
        dune.title.value = "Children of Dune"  // no longer followed
        emma.title.value = "Emma (1815)"
        title.value = "Emma, a novel"  // writes through to the selected book
        #expect(titles == ["Dune", "Dune Messiah", "Emma", "Emma (1815)", "Emma, a novel"])
        #expect(emma.title.value == "Emma, a novel")
        _ = connection
    }

    @Test("flatMap reports one change when outer and inner change in one transaction")
    func flatMapCoordinated() {
        let inner1 = Variable(1)
        let inner2 = Variable(100)
        let outer = Variable(0)
        let picked = outer.flatMap { $0 == 0 ? inner1 : inner2 }
        var changes: [ValueChange<Int>] = []
        let connection = picked.changes.subscribe { changes.append($0) }
        withTransaction([outer, inner1, inner2]) {
            inner1.value = 2
            outer.value = 1
            inner2.value = 200
        }
        #expect(changes == [ValueChange(from: 1, to: 200)])
        inner2.value = 300
        #expect(changes.last == ValueChange(from: 200, to: 300))
        _ = connection
    }

    @Test("a variable is a sink, and type erasure keeps behavior")
    func sinkAndErasure() {
        let signal = Signal<Int>()
        let variable = Variable(0)
        let erased = variable.anyUpdatableValue
        var seen: [Int] = []
        let connections = [signal.subscribe(variable), erased.anyObservableValue.subscribe { seen.append($0) }]
        signal.send(4)
        erased.value = 5
        #expect(seen == [0, 4, 5])
        #expect(AnyObservableValue.constant(7).value == 7)
        _ = connections
    }

    @Test("subscriptions keep the variable alive; disconnecting frees it and derived chains")
    func lifetime() {
        weak var weakVariable: Variable<Int>?
        var connection: Connection?
        var seen: [Int] = []
        do {
            let variable = Variable(1)
            weakVariable = variable
            connection = variable.map { $0 * 2 }.combined(variable) { $0 + $1 }.distinct().subscribe { seen.append($0) }
        }
        #expect(weakVariable != nil)
        weakVariable?.value = 2
        #expect(seen == [3, 6])
        connection?.disconnect()
        #expect(weakVariable == nil)
    }

    @Test("ending a transaction that was never begun is a precondition failure")
    func unbalancedTransaction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Variable(0).apply(.endTransaction)
        }
        expectStandardError(of: result, contains: "Variable: endTransaction without a matching beginTransaction")
    }
}

@Suite("Observables subscribed in the middle of a transaction")
struct MidTransactionTests {
    @Test("a flatMap subscribed during its outer value's transaction reports the next transaction normally")
    func flatMapSubscribedMidTransaction() {
        let outer = Variable(1)
        let inner = Variable(10)
        var seen: [Int] = []
        var connection: Connection?
        outer.withTransaction {
            outer.value = 2
            connection = outer.flatMap { _ in inner }.subscribe { seen.append($0) }
        }
        #expect(seen == [10])  // subscribe sends the current value first
        inner.value = 11
        outer.value = 3  // a new inner (the same variable): its value, unchanged, is reported
        inner.value = 12
        #expect(seen == [10, 11, 11, 12])
        connection?.disconnect()
    }

    @Test("a combined value subscribed during an input's transaction reports the next transaction normally")
    func combinedSubscribedMidTransaction() {
        let a = Variable(1)
        let b = Variable(10)
        var seen: [Int] = []
        var connection: Connection?
        a.withTransaction {
            a.value = 2
            connection = a.combined(b) { $0 + $1 }.subscribe { seen.append($0) }
        }
        b.value = 20
        a.value = 3
        #expect(seen.last == 23)
        #expect(seen.contains(22))
        connection?.disconnect()
    }
}

/// An observable whose owner sends its updates by hand, so a test can break the transaction
/// protocol on purpose.
private struct HandDrivenObservable: ObservableValueType {
    let signal = Signal<Update<ValueChange<Int>>>()
    var value: Int { 0 }
    var updates: Source<Update<ValueChange<Int>>> { signal.source }
}

@Suite("Observables, custom observables that break the transaction protocol")
struct CustomObservableTests {
    @Test("an end without a begin from an input is ignored by combined values and flatMap")
    func unbegunEndsAreIgnored() {
        let broken = HandDrivenObservable()
        var combined: [Int] = []
        var flattened: [Int] = []
        let inner = Variable(5)
        let connections = [
            broken.combined(Variable(1)) { $0 + $1 }.subscribe { combined.append($0) },
            broken.flatMap { _ in inner }.subscribe { flattened.append($0) },
        ]
        broken.signal.send(.endTransaction)
        inner.value = 6
        #expect(combined == [1])
        #expect(flattened == [5, 6])
        for connection in connections { connection.disconnect() }
    }
}
