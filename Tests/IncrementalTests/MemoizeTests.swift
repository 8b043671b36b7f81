import Incremental
import Testing

@Suite("memoize and weakMemoize")
struct MemoizeTests {
    @Test("memoize runs its body once per argument and returns the same result afterwards")
    func runsOncePerArgument() {
        let graph = Graph()
        let items = graph.input(["a", "b", "c"])
        var runs: [Int] = []
        let row = graph.memoize { (index: Int) -> I<String> in
            runs.append(index)
            return items.map { $0[index] }
        }
        #expect(row(1) === row(1))
        #expect(row(2).value == "c")
        #expect(runs == [1, 2])
    }

    @Test("a function memoized outside a flatMap makes nodes that outlive the flatMap's runs")
    func scopeOfTheTable() {
        let graph = Graph()
        let items = graph.input(["a", "b"])
        let selected = graph.input(0)
        let row = graph.memoize { (index: Int) in items.map { $0[index] } }
        let shown = selected.flatMap { row($0) }
        var seen: [String] = []
        let connection = shown.observe { seen.append($0) }
        selected.write(1)
        selected.write(0)
        items.write(["A", "B"])
        #expect(seen == ["a", "b", "a", "A"])
        #expect(!row(0).isInvalid)
        connection.disconnect()
    }

    @Test("a function memoized inside a flatMap run makes nodes of that run, invalidated with it")
    func tableInsideARun() {
        let graph = Graph()
        let version = graph.input(0)
        let items = graph.input(["a"])
        var tables: [(Int) -> I<String>] = []
        let shown = version.flatMap { _ in
            let row = graph.memoize { (index: Int) in items.map { $0[index] } }
            tables.append(row)
            return row(0)
        }
        let connection = shown.observeResult { _ in }
        let first = tables[0](0)
        version.write(1)
        #expect(first.isInvalid)
        #expect(!tables[1](0).isInvalid)
        connection.disconnect()
    }

    @Test("weakMemoize lets results go, and runs its body again for an argument whose result went")
    func weakResults() {
        let graph = Graph()
        let items = graph.input(["a", "b"])
        var runs = 0
        let row = graph.weakMemoize { (index: Int) -> I<String> in
            runs += 1
            return items.map { $0[index] }
        }
        weak var weakRow: I<String>?
        do {
            let kept = row(0)
            weakRow = kept
            #expect(row(0) === kept)
            #expect(runs == 1)
        }
        #expect(weakRow == nil)
        #expect(row(0).value == "a")
        #expect(runs == 2)
        for index in 0..<1_000 { _ = row(index % 2) }
        #expect(runs <= 1_002)
    }
}
