import Dispatch
import Signals
import TestSupport
import Testing

@Suite("Derived properties: map, combineLatest and zip of properties")
struct DerivedPropertyTests {
    @Test("map keeps the transform of the current value, worked out once per change, and sends each")
    func map() {
        let count = Property(value: 2)
        let runs = Log<Int>()
        let label = count.map { value in
            runs.append(value)
            return "\(value) items"
        }
        #expect(label.value == "2 items")
        let sent = Log<String>()
        let observables = ObservableCollection()
        label.didSet.noDispatch().then { sent.append($0) }.append(to: observables)
        count.value = 3
        #expect(label.value == "3 items")
        // Reading runs no transform; a write of the same value is a change, as for a Property.
        _ = label.value
        count.value = 3
        #expect(runs.all == [2, 3, 3])
        #expect(sent.all == ["2 items", "3 items", "3 items"])
        observables.removeAll()
    }

    @Test("combineLatest pairs both current values; zip pairs the n-th changes, the faster side waiting")
    func combineAndZip() {
        let left = Property(value: 1)
        let right = Property(value: "a")
        let latest = left.combineLatest(right)
        let zipped = left.zip(right)
        #expect(latest.value == (1, "a"))
        #expect(zipped.value == (1, "a"))
        left.value = 2
        left.value = 3
        #expect(latest.value == (3, "a"))
        #expect(zipped.value == (1, "a"))
        right.value = "b"
        #expect(latest.value == (3, "b"))
        #expect(zipped.value == (2, "b"))
        right.value = "c"
        #expect(zipped.value == (3, "c"))
    }

    @Test("a composition of compositions keeps updating after the intermediate properties are gone")
    func chainedComposition() {
        let first = Property(value: "Ada")
        let last = Property(value: "Lovelace")
        // The pair made by combineLatest is not kept by the caller: only the map's chain holds it.
        let full = first.combineLatest(last).map { "\($0) \($1)" }.map { $0.uppercased() }
        #expect(full.value == "ADA LOVELACE")
        last.value = "Byron"
        #expect(full.value == "ADA BYRON")
        first.value = "Anne"
        #expect(full.value == "ANNE BYRON")
    }

    @Test("a read-only view follows its property")
    func readOnlyView() {
        let property = Property(value: 1)
        let view = DerivedProperty(property)
        property.value = 5
        #expect(view.value == 5)
        let twice = DerivedProperty(view.map { $0 * 2 })
        property.value = 6
        #expect(twice.value == 12)
    }

    @Test("a handler of the derived property that writes its source: the write follows the delivery")
    func reentrantWrite() {
        let count = Property(value: 0)
        let doubled = count.map { $0 * 2 }
        let seen = Log<String>()
        let observables = ObservableCollection()
        doubled.didSet.noDispatch().then { value in
            // Inside the delivery, the derived value is the one being delivered.
            seen.append("\(value) while \(doubled.value)")
            if value == 2 { count.value = 5 }
        }.append(to: observables)
        count.value = 1
        #expect(doubled.value == 10)
        #expect(seen.all == ["0 while 0", "2 while 2", "10 while 10"])
        observables.removeAll()
    }

    @Test(
        "written from many threads and read from others: once every write returned, the value is composed of the newest"
    )
    func concurrentWrites() async {
        for round in 0..<20 {
            let left = Property(value: 0)
            let right = Property(value: 0)
            let sum = left.combineLatest(right).map { $0 + $1 }
            let negated = left.map { -$0 }
            let reads = Log<Int>()
            DispatchQueue.concurrentPerform(iterations: 6) { lane in
                for step in 1...500 {
                    switch lane % 3 {
                    case 0: left.value = round * 10_000 + step * 6 + lane
                    case 1: right.value = round * 10_000 + step * 6 + lane
                    default: if step % 50 == 0 { reads.append(sum.value) }
                    }
                }
            }
            #expect(sum.value == left.value + right.value, "round \(round)")
            #expect(negated.value == -left.value, "round \(round)")
            #expect(reads.count == 20)
        }
    }

    @Test("a derived property is freed with its chains, and lets go of its sources")
    func lifetime() {
        let source = Property(value: 1)
        weak var weakDerived: DerivedProperty<Int>?
        do {
            let derived = source.map { $0 + 1 }.map { $0 * 3 }
            weakDerived = derived
            #expect(source.didSet.connectedCount == 1)
        }
        #expect(weakDerived == nil)
        #expect(source.didSet.connectedCount == 0)

        // A chain connected to didSet keeps the composition; removing it frees everything.
        let observables = ObservableCollection()
        let seen = Log<Int>()
        do {
            let derived = source.map { $0 + 1 }
            weakDerived = derived
            derived.didSet.noDispatch().then { seen.append($0) }.append(to: observables)
        }
        source.value = 4
        #expect(seen.all == [2, 5])
        observables.removeAll()
        #expect(weakDerived == nil)
        #expect(source.didSet.connectedCount == 0)
    }

    @Test("random writes to two properties: map, combineLatest and zip agree with values worked out from plain ones")
    func model() {
        var random = SeededGenerator(seed: 43)
        for round in 0..<100 {
            let left = Property(value: 0)
            let right = Property(value: 0)
            let mapped = left.map { $0 * 3 + 1 }
            let latest = left.combineLatest(right).map { [$0, $1] }
            let zipped = left.zip(right).map { [$0, $1] }
            var plain = (left: 0, right: 0)
            var waiting: (left: [Int], right: [Int]) = ([], [])
            var zippedReference = [0, 0]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let value = Int.random(in: -5...5, using: &random)
                if Bool.random(using: &random) {
                    left.value = value
                    plain.left = value
                    waiting.left.append(value)
                } else {
                    right.value = value
                    plain.right = value
                    waiting.right.append(value)
                }
                if !waiting.left.isEmpty, !waiting.right.isEmpty {
                    zippedReference = [waiting.left.removeFirst(), waiting.right.removeFirst()]
                }
                #expect(mapped.value == plain.left * 3 + 1, "round \(round)")
                #expect(latest.value == [plain.left, plain.right], "round \(round)")
                #expect(zipped.value == zippedReference, "round \(round)")
            }
        }
    }
}
