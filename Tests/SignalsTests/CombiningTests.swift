import Dispatch
import Signals
import TestSupport
import Testing

@Suite("Modifiers: compactMap, scan, merge, combineLatest")
struct CombiningTests {
    @Test("compactMap passes the non-nil results only")
    func compactMap() {
        let signal = Signal<String>()
        let numbers = Log<Int>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().compactMap { Int($0) }.then { numbers.append($0) }.append(to: observables)
        for text in ["1", "x", "22", ""] { signal.fire(with: text) }
        #expect(numbers.all == [1, 22])
    }

    @Test("scan passes the running result; a replayed message counts")
    func scan() {
        let property = Property(value: 10)
        let sums = Log<Int>()
        let observables = ObservableCollection()
        property.didSet.noDispatch().scan(0) { $0 + $1 }.then { sums.append($0) }.append(to: observables)
        property.value = 1
        property.value = 2
        #expect(sums.all == [10, 11, 13])
    }

    @Test("scan counts each message once when threads race; a result overtaken by a newer one is skipped")
    func scanConcurrently() async {
        let signal = Signal<Int>()
        let last = Log<Int>()
        let observables = ObservableCollection()
        let counter = signal.fired.noDispatch().scan(0) { count, _ in count + 1 }
        counter.then { last.append($0) }.append(to: observables)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<1_000 { signal.fire(with: 1) } }
            }
        }
        #expect(counter.lastMessage == 4_000)
        // Every result reaches the chain at most once, and the newest always does.
        #expect(Set(last.all).count == last.all.count)
        #expect(Set(last.all).isSubset(of: Set(1...4_000)))
        #expect(last.all.contains(4_000))
        observables.removeAll()
    }

    @Test(
        "merge passes both sources' messages in the order they come; it takes both owed messages, so its own last message is the other source's"
    )
    func merge() {
        let first = Property(value: "a0")
        let second = Signal<String>(value: "b0")
        let merged = Log<String>()
        let observables = ObservableCollection()
        first.didSet.noDispatch().merge(with: second.fired.noDispatch()).then { merged.append($0) }
            .append(to: observables)
        second.fire(with: "b1")
        first.value = "a1"
        second.fire(with: "b2")
        // The merge took "a0" then "b0" when it connected; the chain after it is replayed the
        // merge's last message, "b0", as every late chain is.
        #expect(merged.all == ["b0", "b1", "a1", "b2"])
    }

    @Test("removing a merged chain disconnects it from both sources, also from inside a delivery")
    func mergeRemoval() {
        let first = Signal<Int>()
        let second = Signal<Int>()
        let merged = Log<Int>()
        let observables = ObservableCollection()
        first.fired.noDispatch().merge(with: second.fired.noDispatch())
            .then { value in
                merged.append(value)
                if value == 2 { observables.removeAll() }
            }
            .append(to: observables)
        first.fire(with: 1)
        second.fire(with: 2)
        first.fire(with: 3)
        second.fire(with: 4)
        #expect(merged.all == [1, 2])
        #expect(first.fired.connectedCount == 0)
        #expect(second.fired.connectedCount == 0)
    }

    @Test("a merged chain is freed with its collection, and frees nothing the sources need")
    func mergeFreed() {
        let first = Signal<Int>()
        let second = Signal<Int>()
        weak var weakMerge: MergeModifier<Int>?
        do {
            let observables = ObservableCollection()
            let merge = first.fired.noDispatch().merge(with: second.fired.noDispatch())
            weakMerge = merge
            merge.then { _ in }.append(to: observables)
            second.fire(with: 1)
        }
        #expect(weakMerge == nil)
        first.fire(with: 2)
        second.fire(with: 3)
        #expect(second.fired.lastMessage == 3)
    }

    @Test("combineLatest pairs once both sent, then on every message of either")
    func combineLatest() {
        let name = Signal<String>()
        let age = Property(value: 30)
        let pairs = Log<String>()
        let observables = ObservableCollection()
        name.fired.noDispatch().combineLatest(age.didSet.noDispatch()).then { pairs.append("\($0) \($1)") }
            .append(to: observables)
        #expect(pairs.all.isEmpty)
        name.fire(with: "Ada")
        age.value = 31
        name.fire(with: "Bo")
        #expect(pairs.all == ["Ada 30", "Ada 31", "Bo 31"])
    }

    @Test("combineLatest over a diamond glitches, as the docs say: one source message makes two pairs, the first mixed")
    func combineLatestDiamondGlitches() {
        let source = Signal<Int>()
        let pairs = Log<String>()
        let observables = ObservableCollection()
        let doubled = source.fired.noDispatch().map { $0 * 2 }
        let negated = source.fired.noDispatch().map { -$0 }
        doubled.append(to: observables)
        negated.append(to: observables)
        doubled.combineLatest(negated).then { pairs.append("\($0) \($1)") }.append(to: observables)
        source.fire(with: 1)
        source.fire(with: 2)
        #expect(pairs.all == ["2 -1", "4 -1", "4 -2"])
    }

    @Test("combineLatest pairs under a lock: racing threads make distinct pairs, and the last pairs the newest of both")
    func combineLatestConcurrently() async {
        let first = Signal<Int>()
        let second = Signal<Int>()
        let pairs = Log<String>()
        let observables = ObservableCollection()
        let combined = first.fired.noDispatch().combineLatest(second.fired.noDispatch())
        combined.then { pairs.append("\($0),\($1)") }.append(to: observables)
        first.fire(with: 0)
        second.fire(with: 0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for value in 1...1_000 { first.fire(with: value) } }
            group.addTask { for value in 1...1_000 { second.fire(with: value) } }
        }
        // Each message made one pair, numbered as made; a pair overtaken on its way by a newer
        // one is skipped, so the chain gets each at most once, and the newest always.
        #expect(combined.lastMessage.map { $0 == (1_000, 1_000) } == true)
        #expect(Set(pairs.all).count == pairs.all.count)
        #expect((1...2_001).contains(pairs.all.count))
        #expect(pairs.all.contains("1000,1000"))
        observables.removeAll()
    }

    @Test("a merged chain on a dispatch queue hops the other source's messages to it")
    func mergeOnQueue() async {
        let queue = DispatchQueue(label: "merge")
        let first = Signal<Int>()
        let second = Signal<Int>()
        let onQueue = Log<Bool>()
        let observables = ObservableCollection()
        first.fired.dispatch(to: queue).merge(with: second.fired.noDispatch())
            .then { _ in onQueue.append(DispatchQueue.getSpecific(key: mergeQueueKey) == "merge") }
            .append(to: observables)
        queue.setSpecific(key: mergeQueueKey, value: "merge")
        first.fire(with: 1)
        second.fire(with: 2)
        #expect(await eventually { onQueue.all.count == 2 })
        #expect(onQueue.all == [true, true])
        observables.removeAll()
    }
}

private let mergeQueueKey = DispatchSpecificKey<String>()
