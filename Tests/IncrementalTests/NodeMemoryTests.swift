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
}
