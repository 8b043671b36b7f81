import Incremental
import TestSupport
import Testing

@Suite("freeze, depend(on:) and necessaryIfAlive")
struct FreezeTests {
    private struct Failure: Error, Equatable {}

    @Test("freeze takes the first value by default and lets go of its input")
    func freezesAtOnce() {
        let graph = Graph()
        let a = graph.input(1)
        weak var weakDoubled: I<Int>?
        var frozen: I<Int>?
        do {
            let doubled = a.map { $0 * 2 }
            weakDoubled = doubled
            frozen = doubled.freeze()
        }
        var seen: [Int] = []
        let connection = frozen?.observe { seen.append($0) }
        #expect(weakDoubled == nil)
        a.write(5)
        #expect(seen == [2])
        #expect(frozen?.value == 2)
        #expect(frozen?.isNecessary == true)
        connection?.disconnect()
    }

    @Test("freeze(when:) follows its input until the condition holds, and not while it holds an error")
    func freezesWhenConditionHolds() throws {
        let graph = Graph()
        let a = graph.input(1)
        let checked = a.map { value -> Int in
            if value < 0 { throw Failure() }
            return value
        }
        let firstLarge = checked.freeze { $0 >= 10 }
        var seen: [Result<Int, Failure>] = []
        let connection = firstLarge.observeResult { seen.append($0.mapError { $0 as! Failure }) }
        a.write(-1)
        a.write(3)
        a.write(12)
        a.write(20)
        a.write(-5)
        #expect(seen == [.success(1), .failure(Failure()), .success(3), .success(12)])
        #expect(try firstLarge.get() == 12)
        connection.disconnect()
    }

    @Test("a frozen node read without observers is a constant")
    func frozenUnobserved() {
        let graph = Graph()
        let a = graph.input(1)
        let frozen = a.map { $0 + 1 }.freeze()
        #expect(frozen.value == 2)
        a.write(7)
        let before = graph.statistics.recomputations
        #expect(frozen.value == 2)
        #expect(graph.statistics.recomputations == before)
    }

    @Test("a freeze made inside a flatMap is invalidated with the run that made it")
    func freezeInsideFlatMap() {
        let graph = Graph()
        let choice = graph.input(0)
        let a = graph.input(1)
        var made: [I<Int>] = []
        let picked = choice.flatMap { _ in
            let node = a.freeze()
            made.append(node)
            return node
        }
        let connection = picked.observeResult { _ in }
        choice.write(1)
        #expect(made.count == 2)
        #expect(made[0].isInvalid)
        #expect(picked.value == 1)
        connection.disconnect()
    }

    @Test("depend(on:) keeps the other value necessary and changes only with its own input")
    func dependOn() throws {
        let graph = Graph()
        let total = graph.input(10)
        let audit = graph.input(0)
        var auditRuns = 0
        let auditLog = audit.map { value -> Int in
            auditRuns += 1
            if value < 0 { throw Failure() }
            return value
        }
        let shown = total.depend(on: auditLog)
        var seen: [Int] = []
        let connection = shown.observe { seen.append($0) }
        #expect(auditLog.isNecessary)
        audit.write(1)
        #expect(auditRuns == 2)
        total.write(11)
        audit.write(-1)
        #expect(throws: Failure()) { try shown.get() }
        audit.write(2)
        #expect(try shown.get() == 11)
        #expect(seen == [10, 11, 11])
        connection.disconnect()
        #expect(!auditLog.isNecessary)
    }

    @Test("necessaryIfAlive keeps its input up to date while it lives")
    func necessaryIfAlive() {
        let graph = Graph()
        let a = graph.input(1)
        var runs = 0
        let report = a.map {
            runs += 1
            return $0 * 100
        }
        var warm: I<Int>? = report.necessaryIfAlive()
        #expect(report.isNecessary)
        a.write(2)
        #expect(runs == 2)
        #expect(warm?.value == 200)
        #expect(runs == 2)
        warm = nil
        #expect(!report.isNecessary)
        a.write(3)
        #expect(runs == 2)
    }

    @Test("depend(on:) of two graphs is a precondition failure")
    func dependOnTwoGraphs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Graph().input(1).depend(on: Graph().input(2))
        }
        expectStandardError(of: result, contains: "Incremental: depend(on:) of values from two different graphs")
    }
}
