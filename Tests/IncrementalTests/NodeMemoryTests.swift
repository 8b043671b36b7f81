import Incremental
import TestSupport
import Testing

/// A value of 16 words, and one of over 128 words (larger than the graph's largest block
/// class, so its nodes' blocks come from `malloc`, and not trivial, so its deinit runs), each
/// made from one `Int` that it gives back as `seed`.
private struct Medium: Equatable {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
    init(_ seed: Int) {
        words = (seed, seed, seed, seed, seed, seed, seed, seed, seed, seed, seed, seed, seed, seed, seed, seed &+ 1)
    }
    static func == (lhs: Medium, rhs: Medium) -> Bool { lhs.words.0 == rhs.words.0 && lhs.words.15 == rhs.words.15 }
    var seed: Int { words.15 &- 1 == words.0 ? words.0 : Int.min }
}

private struct Large {
    var owned: [Int] = [1]
    var inline: (Medium, Medium, Medium, Medium, Medium, Medium, Medium, Medium)
    init(_ seed: Int) {
        inline = (
            Medium(seed), Medium(seed), Medium(seed), Medium(seed), Medium(seed), Medium(seed), Medium(seed),
            Medium(seed)
        )
    }
    var seed: Int { inline.0.seed == inline.7.seed ? inline.0.seed : Int.min }
}

@Suite("Engine: node memory")
struct NodeMemoryTests {
    /// Nodes of three value sizes and one to three inputs are made and dropped in random order
    /// (their blocks reused), observed or not; after each write every live node holds the
    /// value computed from scratch, and dropping everything frees the graph.
    @Test("nodes of every size, made and freed in any order, keep their values; the graph is freed", arguments: 0..<6)
    func madeAndFreedInAnyOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        weak var weakGraph: Graph?
        do {
            let graph = Graph()
            weakGraph = graph
            let inputs = (0..<3).map { graph.input($0) }
            var values = [0, 1, 2]
            // Each live node: its check against the inputs' values, and a connection if observed.
            var live: [(check: ([Int]) -> Bool, connection: Connection?)] = []
            for _ in 0..<600 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let a = Int.random(in: 0..<3, using: &random)
                    let b = Int.random(in: 0..<3, using: &random)
                    let offset = Int.random(in: 0..<100, using: &random)
                    let check: ([Int]) -> Bool
                    let observe = Bool.random(using: &random)
                    var connection: Connection?
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0:
                        let node = map2(inputs[a], inputs[b]) { $0 * 1000 + $1 + offset }
                        if observe { connection = node.observe { _ in } }
                        check = { node.value == $0[a] * 1000 + $0[b] + offset }
                    case 1:
                        let node = map2(inputs[a], inputs[b]) { Medium($0 * 1000 + $1 + offset) }
                        if observe { connection = node.observe { _ in } }
                        check = { node.value.seed == $0[a] * 1000 + $0[b] + offset }
                    default:
                        let node = inputs[a].map { Large($0 + offset) }
                        if observe { connection = node.observe { _ in } }
                        check = { node.value.seed == $0[a] + offset }
                    }
                    live.append((check, connection))
                case 5..<8 where !live.isEmpty:
                    let index = Int.random(in: 0..<live.count, using: &random)
                    live[index].connection?.disconnect()
                    live.remove(at: index)
                default:
                    let input = Int.random(in: 0..<3, using: &random)
                    values[input] = Int.random(in: 0..<50, using: &random)
                    inputs[input].write(values[input])
                    for entry in live { #expect(entry.check(values)) }
                }
            }
            for entry in live { #expect(entry.check(values)) }
            for entry in live { entry.connection?.disconnect() }
        }
        #expect(weakGraph == nil)
    }

    /// A map's transform is held type-erased by its node and handed back to code made where
    /// `map` was called. Called from generic code that is not specialized, with values that
    /// are not trivial and are passed indirectly, each kind of map computes, recomputes and
    /// throws as from specialized code.
    @Test("maps made from unspecialized generic code compute, recompute and throw")
    func mapsFromGenericCode() throws {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.input(["b"])
        let c = graph.input(3)
        let one = genericMap(a) { $0 + "!" }
        let two = genericMap2(a, b) { $0 + $1.joined() }
        let three = genericMap3(a, b, c) { first, second, count in
            if count < 0 { throw MapFailure() }
            return String(repeating: first, count: count) + second.joined()
        }
        var seen: [String] = []
        let connection = three.observe { seen.append($0) }
        #expect(one.value == "a!")
        #expect(two.value == "ab")
        #expect(seen == ["aaab"])
        graph.batch {
            a.write("x")
            b.write(["y", "z"])
        }
        #expect(one.value == "x!")
        #expect(two.value == "xyz")
        #expect(seen == ["aaab", "xxxyz"])
        c.write(-1)
        #expect(throws: MapFailure.self) { try three.get() }
        c.write(1)
        #expect(try three.get() == "xyz")
        connection.disconnect()
    }

    /// What a transform captures is released when its node is freed: for each kind of map,
    /// and for a chain of maps each capturing the node before it (released by the graph's
    /// loop, not by recursion).
    @Test("what a map's transform captures is released with its node")
    func capturesReleased() {
        weak var weakGraph: Graph?
        weak var weakCaptured: Captured?
        do {
            let graph = Graph()
            weakGraph = graph
            let captured = Captured()
            weakCaptured = captured
            let input = graph.input(1)
            let one = input.map { $0 + captured.offset }
            let two = map2(input, one) { $0 + $1 + captured.offset }
            let three = map3(input, one, two) { $0 + $1 + $2 + captured.offset }
            var chain: I<Int> = three
            for _ in 0..<10_000 {
                let previous = chain
                chain = previous.map { $0 + (previous.isInvalid ? 0 : 1) }
            }
            let connection = chain.observe { _ in }
            input.write(2)
            #expect(one.value == 12)
            #expect(two.value == 2 + 12 + 10)
            #expect(three.value == 2 + 12 + 24 + 10)
            #expect(chain.value == three.value + 10_000)
            connection.disconnect()
        }
        #expect(weakCaptured == nil)
        #expect(weakGraph == nil)
    }
}

private struct MapFailure: Error {}

private final class Captured {
    let offset = 10
}

@inline(never)
private func genericMap<A, Output>(_ a: I<A>, _ transform: @escaping (A) -> Output) -> I<Output> {
    a.map(transform)
}

@inline(never)
private func genericMap2<A, B, Output>(_ a: I<A>, _ b: I<B>, _ transform: @escaping (A, B) -> Output) -> I<Output> {
    map2(a, b, transform)
}

@inline(never)
private func genericMap3<A, B, C, Output>(
    _ a: I<A>, _ b: I<B>, _ c: I<C>, _ transform: @escaping (A, B, C) throws -> Output
) -> I<Output> {
    map3(a, b, c, transform)
}
