import Incremental
import TestSupport
import Testing

private struct ParseError: Error, Equatable {
    var text: String
}

private func parse(_ text: String) throws(ParseError) -> Int {
    guard let number = Int(text) else { throw ParseError(text: text) }
    return number
}

@Suite("Engine: errors and cleanups")
struct ErrorTests {
    @Test("a throwing map holds its error: get rethrows, observers receive it, dependents see it, it recovers")
    func errorsAreState() throws {
        let graph = Graph()
        let text = graph.input("1")
        let number = text.map { try parse($0) }
        var dependentRuns = 0
        let doubled = number.map {
            dependentRuns += 1; return $0 * 2
        }
        var results: [String] = []
        let connection = doubled.observeResult { result in
            switch result {
            case .success(let value): results.append("\(value)")
            case .failure(let error): results.append("error \((error as? ParseError)?.text ?? "?")")
            }
        }
        var values: [Int] = []
        let valueConnection = doubled.observe { values.append($0) }
        text.write("x")
        #expect(throws: ParseError(text: "x")) { try number.get() }
        #expect(throws: ParseError(text: "x")) { try doubled.get() }
        if case .failure = doubled.result {} else { Issue.record("result should be a failure") }
        #expect(dependentRuns == 1)
        text.write("y")
        text.write("21")
        #expect(try doubled.get() == 42)
        #expect(results == ["2", "error x", "error y", "42"])
        #expect(values == [2, 42])
        _ = (connection, valueConnection)
    }

    @Test("map2 takes the first error in argument order; flatMap's transform may throw too")
    func errorsThroughCombinators() throws {
        let graph = Graph()
        let a = graph.input("1")
        let b = graph.input("2")
        let sum = map2(a.map { try parse($0) }, b.map { try parse($0) }) { $0 + $1 }
        let picked = a.flatMap { text -> I<Int> in
            let index = try parse(text)
            return graph.constant(index * 100)
        }
        let connections = [sum.observe { _ in }, picked.observe { _ in }]
        graph.batch {
            a.write("p")
            b.write("q")
        }
        #expect(throws: ParseError(text: "p")) { try sum.get() }
        #expect(throws: ParseError(text: "p")) { try picked.get() }
        a.write("3")
        #expect(throws: ParseError(text: "q")) { try sum.get() }
        #expect(try picked.get() == 300)
        b.write("4")
        #expect(try sum.get() == 7)
        _ = connections
    }

    @Test("a throwing batch propagates the writes made before the throw, then rethrows (typed)")
    func throwingBatch() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(0)
        var seen: [Int] = []
        let connection = map2(a, b, +).observe { seen.append($0) }
        #expect(throws: ParseError(text: "stop")) {
            try graph.batch { () throws(ParseError) in
                a.write(1)
                b.write(2)
                throw ParseError(text: "stop")
            }
        }
        #expect(seen == [0, 3])
        _ = connection
    }

    @Test("an observer's cleanup runs before its next run and when it is disconnected")
    func cleanups() {
        let graph = Graph()
        let a = graph.input(0)
        var log: [String] = []
        let connection = a.observe { value in
            log.append("run \(value)")
            graph.onCleanup { log.append("cleanup \(value)") }
        }
        a.write(1)
        a.write(2)
        connection.disconnect()
        a.write(3)
        #expect(log == ["run 0", "cleanup 0", "run 1", "cleanup 1", "run 2", "cleanup 2"])
    }

    @Test("an observer that disconnects itself while it runs has its new cleanups run at once")
    func cleanupWhenDisconnectedDuringRun() {
        let graph = Graph()
        let a = graph.input(0)
        var log: [String] = []
        var connection: Connection?
        connection = a.observe { value in
            graph.onCleanup { log.append("cleanup \(value)") }
            if value == 1 { connection?.disconnect() }
        }
        a.write(1)
        #expect(log == ["cleanup 0", "cleanup 1"])
    }

    @Test(
        "a cleanup that disconnects its own observer, and drops the last reference to the node: the observer does not run again"
    )
    func cleanupDisconnectsItsObserver() {
        let graph = Graph()
        let a = graph.input(0)
        var log: [String] = []
        var connection: Connection?
        weak var weakNode: I<Int>?
        do {
            let node = a.map { $0 * 2 }
            weakNode = node
            connection = node.observe { value in
                log.append("run \(value)")
                // Runs before this observer's next run, and ends it: the observer is gone,
                // and with its connection the only reference to the node. (Under
                // AddressSanitizer, a delivery that freed the observer's record before it
                // was done with it is reported.)
                graph.onCleanup {
                    log.append("cleanup \(value)")
                    connection = nil
                }
            }
        }
        #expect(weakNode != nil)
        a.write(1)
        #expect(log == ["run 0", "cleanup 0"])
        #expect(connection == nil)
        #expect(weakNode == nil)
        a.write(2)
        #expect(log == ["run 0", "cleanup 0"])
    }

    @Test("reading value of a node that holds an error is a precondition failure")
    func valueOfFailedNode() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let number = graph.input("x").map { try parse($0) }
            _ = number.value
        }
        expectStandardError(of: result, contains: "Incremental: value read of a node that holds an error")
    }

    @Test("onCleanup outside an observer is a precondition failure")
    func cleanupOutsideObserver() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Graph().onCleanup {}
        }
        expectStandardError(of: result, contains: "Incremental: onCleanup was called outside an observer or effect")
    }

    @Test("the identity cutoff of a value type is a precondition failure")
    func identityOfValueType() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Cutoff<Int>.identity
        }
        expectStandardError(of: result, contains: "Incremental: Cutoff.identity needs a class type; Int is not one")
    }
}
