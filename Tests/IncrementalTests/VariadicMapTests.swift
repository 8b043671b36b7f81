import Incremental
import TestSupport
import Testing

@Suite("map and flatMap of any number of values")
struct VariadicMapTests {
    private struct Failure: Error, Equatable { let name: String }

    @Test("map of five values of different types recomputes once per propagation, with current values")
    func fiveValues() {
        let graph = Graph()
        let name = graph.input("Ada")
        let age = graph.input(36)
        let member = graph.input(true)
        let score = graph.input(9.5)
        let tags = graph.input(["math"])
        var runs = 0
        let label = map(name, age, member, score, tags) { name, age, member, score, tags in
            runs += 1
            return "\(name) \(age) \(member) \(score) \(tags.joined())"
        }
        var seen: [String] = []
        let connection = label.observe { seen.append($0) }
        graph.batch {
            age.write(37)
            score.write(9.75)
        }
        member.write(true)
        #expect(seen == ["Ada 36 true 9.5 math", "Ada 37 true 9.75 math"])
        #expect(runs == 2)
        connection.disconnect()
    }

    @Test("an Equatable result cuts off, and the first error in argument order wins")
    func cutoffAndErrors() throws {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input("x")
        let parsedA = a.map { value -> Int in
            if value < 0 { throw Failure(name: "a") }
            return value
        }
        let parsedB = b.map { text -> String in
            if text.isEmpty { throw Failure(name: "b") }
            return text
        }
        let parity = map(parsedA, parsedB) { a, _ in a % 2 }
        var downstreamRuns = 0
        let downstream = parity.map {
            downstreamRuns += 1
            return $0
        }
        let connection = downstream.observeResult { _ in }
        a.write(3)
        #expect(downstreamRuns == 1)
        graph.batch {
            a.write(-1)
            b.write("")
        }
        #expect(throws: Failure(name: "a")) { try parity.get() }
        a.write(2)
        #expect(throws: Failure(name: "b")) { try parity.get() }
        b.write("y")
        #expect(try parity.get() == 0)
        connection.disconnect()
    }

    @Test("flatMap of three values picks again when one changes and invalidates what the last pick made")
    func flatMapOfThree() {
        let graph = Graph()
        let useMetric = graph.input(true)
        let digits = graph.input(1)
        let celsius = graph.input(21.46)
        var made: [I<String>] = []
        let shown = flatMap(useMetric, digits, graph.constant("°")) { metric, digits, unit in
            let node = celsius.map { value in
                let shown = metric ? value : value * 9 / 5 + 32
                return String(format: "%.\(digits)f", shown) + unit
            }
            made.append(node)
            return node
        }
        var seen: [String] = []
        let connection = shown.observe { seen.append($0) }
        digits.write(2)
        useMetric.write(false)
        celsius.write(20)
        #expect(seen == ["21.5°", "21.46°", "70.63°", "68.00°"])
        #expect(made.count == 3)
        #expect(made.prefix(2).allSatisfy { $0.isInvalid })
        #expect(!made[2].isInvalid)
        connection.disconnect()
    }

    @Test("map of no values is a precondition failure")
    func noValues() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = map { 0 }
        }
        expectStandardError(of: result, contains: "Incremental: map needs at least one node")
    }

    @Test("map of values of different graphs is a precondition failure")
    func differentGraphs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = map(Graph().input(1), Graph().input("a")) { "\($0)\($1)" }
        }
        expectStandardError(of: result, contains: "Incremental: map of values from different graphs")
    }
}
