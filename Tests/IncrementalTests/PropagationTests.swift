import Incremental
import Testing

/// Counts how often closures ran.
final class Counts {
    private var counts: [String: Int] = [:]
    subscript(name: String) -> Int { counts[name, default: 0] }
    func counting<A, B>(_ name: String, _ body: @escaping (A) -> B) -> (A) -> B {
        { [unowned self] in
            counts[name, default: 0] += 1
            return body($0)
        }
    }
    func reset() { counts = [:] }
}

@Suite("Propagation")
struct PropagationTests {
    @Test("Eidhof's flavor: an input, a derived value, an observer, a write")
    func basic() {
        let graph = Graph()
        let name = graph.input("Ada")
        let greeting = name.i.map { "Hello, \($0)!" }
        var seen: [String] = []
        let connection = greeting.observe { seen.append($0) }
        name.write("Grace")
        name.value = "Hedy"
        #expect(seen == ["Hello, Ada!", "Hello, Grace!", "Hello, Hedy!"])
        #expect(greeting.value == "Hello, Hedy!")
        _ = connection
    }

    @Test("diamond: each node recomputes once per write; the observer never sees a mix")
    func diamond() {
        let graph = Graph()
        let counts = Counts()
        let a = graph.input(1)
        let b = a.map(counts.counting("b") { $0 + 1 })
        let c = a.map(counts.counting("c") { $0 * 2 })
        let d = map2(b, c) { $0 + $1 }
        var seen: [Int] = []
        let connection = d.observe { seen.append($0) }
        counts.reset()
        a.write(2)
        #expect(graph.statistics.lastRecomputations == 3)
        a.write(3)
        #expect(seen == [4, 7, 10])
        #expect(counts["b"] == 2 && counts["c"] == 2)
        _ = connection
    }

    @Test("triangle: a node that reads a value directly and through another sees both current")
    func triangle() {
        let graph = Graph()
        let a = graph.input(1)
        let b = a.map { $0 * 10 }
        let c = map2(a, b) { $0 + $1 }
        var seen: [Int] = []
        let connection = c.observe { seen.append($0) }
        a.write(2)
        #expect(seen == [11, 22])
        #expect(graph.statistics.lastRecomputations == 2)
        _ = connection
    }

    @Test("jagged diamond: paths of different lengths join without a glitch")
    func jaggedDiamond() {
        let graph = Graph()
        let a = graph.input(1)
        let long = a.map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
        let joined = map2(a, long) { $0 * 100 + $1 }
        var seen: [Int] = []
        let connection = joined.observe { seen.append($0) }
        a.write(2)
        a.write(3)
        #expect(seen == [104, 205, 306])
        #expect(joined.height == 4)
        _ = connection
    }

    @Test("cutoff: an equal recomputation stops downstream work and tells no observer")
    func cutoffStopsWork() {
        let graph = Graph()
        let counts = Counts()
        let a = graph.input(1)
        let parity = a.map { $0 % 2 }
        let expensive = parity.map(counts.counting("expensive") { $0 * 1000 })
        var seen: [Int] = []
        let connection = expensive.observe { seen.append($0) }
        a.write(3)
        a.write(5)
        #expect(counts["expensive"] == 1)
        #expect(seen == [1000])
        a.write(4)
        #expect(seen == [1000, 0])
        _ = connection
    }

    @Test("custom cutoffs and always-propagate")
    func customCutoff() {
        let graph = Graph()
        let reading = graph.input(20.0)
        let rounded = reading.map { $0 }.setCutoff(.custom { abs($0 - $1) < 0.5 })
        let echo = reading.map { Int($0) }.setCutoff(.alwaysPropagate)
        var roundedSeen: [Double] = []
        var echoSeen: [Int] = []
        let connections = [rounded.observe { roundedSeen.append($0) }, echo.observe { echoSeen.append($0) }]
        reading.write(20.2)
        reading.write(21.0)
        #expect(roundedSeen == [20.0, 21.0])
        #expect(echoSeen == [20, 20, 21])
        _ = connections
    }

    @Test("an input written with an equal value propagates nothing")
    func equalWrite() {
        let graph = Graph()
        let a = graph.input(1)
        var seen: [Int] = []
        let connection = a.map { $0 }.observe { seen.append($0) }
        let before = graph.statistics.propagations
        a.write(1)
        #expect(seen == [1])
        #expect(graph.statistics.propagations == before)
        _ = connection
    }

    @Test("unobserved nodes are not computed; reading one computes it on the spot")
    func demand() {
        let graph = Graph()
        let counts = Counts()
        let a = graph.input(1)
        let doubled = a.map(counts.counting("doubled") { $0 * 2 })
        a.write(2)
        a.write(3)
        #expect(counts["doubled"] == 0)
        #expect(doubled.value == 6)
        #expect(counts["doubled"] == 1)
        #expect(doubled.value == 6)
        #expect(counts["doubled"] == 1)
        #expect(!doubled.isNecessary)
    }

    @Test("a node that loses its last observer stops computing and drops its edges")
    func losingObservers() {
        let graph = Graph()
        let counts = Counts()
        let a = graph.input(1)
        let doubled = a.map(counts.counting("doubled") { $0 * 2 })
        let first = doubled.observe { _ in }
        let second = doubled.observe { _ in }
        first.disconnect()
        a.write(2)
        #expect(counts["doubled"] == 2)
        second.disconnect()
        #expect(!doubled.isNecessary && !a.isNecessary)
        a.write(3)
        #expect(counts["doubled"] == 2)
    }

    @Test("batching: several writes, one propagation, one notification")
    func batching() {
        let graph = Graph()
        let width = graph.input(3)
        let height = graph.input(4)
        let area = map2(width, height) { $0 * $1 }
        var seen: [Int] = []
        let connection = area.observe { seen.append($0) }
        let before = graph.statistics.propagations
        graph.batch {
            width.write(5)
            height.write(6)
            graph.batch { width.write(10) }
        }
        #expect(seen == [12, 60])
        #expect(graph.statistics.propagations == before + 1)
        _ = connection
    }

    @Test("writes made by observers run after the propagation, in order")
    func writesInsideObservers() {
        let graph = Graph()
        let source = graph.input(0)
        let mirror = graph.input(0)
        let log = graph.input([String]())
        var order: [String] = []
        let connections = [
            source.observe { value in
                order.append("source observer \(value)")
                if value > 0 {
                    mirror.write(value * 10)
                    log.modify { $0.append("wrote \(value * 10)") }
                }
            },
            source.map { $0 + 1 }.observe { order.append("second observer \($0)") },
            mirror.observe { order.append("mirror \($0)") },
        ]
        source.write(1)
        #expect(
            order == [
                "source observer 0", "second observer 1", "mirror 0",
                "source observer 1", "second observer 2", "mirror 10",
            ])
        #expect(log.value == ["wrote 10"])
        _ = connections
    }

    @Test("observers run in order of change, and one may remove another")
    func observerRemoval() {
        let graph = Graph()
        let a = graph.input(0)
        var log: [String] = []
        var second: Connection?
        let first = a.observe { value in
            log.append("first \(value)")
            if value == 1 { second?.disconnect() }
        }
        second = a.observe { log.append("second \($0)") }
        a.write(1)
        a.write(2)
        #expect(log == ["first 0", "second 0", "first 1", "first 2"])
        _ = first
    }

    @Test("map3, map4, mapN, zip, key paths and constants")
    func arities() {
        struct Point { var x: Int; var y: Int }
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input(2)
        let c = graph.constant(3)
        let point = graph.input(Point(x: 4, y: 5))
        let three = map3(a, b, c) { $0 + $1 + $2 }
        let four = map4(a, b, c, point[\.x]) { $0 * $1 * $2 * $3 }
        let many = mapN([a, b, c, point[\.y]]) { $0.reduce(0, +) }
        let pair = zip(a, b)
        var seen: [Int] = []
        let connection = map3(three, four, many) { [$0, $1, $2].reduce(0, +) }.observe { seen.append($0) }
        a.write(2)
        point.modify { $0.y = 10 }
        #expect(seen == [6 + 24 + 11, 7 + 48 + 12, 7 + 48 + 17])
        #expect(pair.value == (2, 2))
        _ = connection
    }

    @Test("statistics count propagations and recomputations; nodeCount counts live nodes")
    func introspection() {
        let graph = Graph()
        let before = graph.nodeCount
        do {
            let a = graph.input(1)
            let chain = (0..<10).reduce(a.i) { node, _ in node.map { $0 + 1 } }
            #expect(graph.nodeCount == before + 11)
            let connection = chain.observe { _ in }
            a.write(2)
            #expect(graph.statistics.lastRecomputations == 10)
            #expect(chain.height == 10)
            connection.disconnect()
        }
        #expect(graph.nodeCount == before)
    }
}
