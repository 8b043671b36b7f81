import Incremental
import Observation
import TestSupport
import Testing

private struct Cart: Equatable {
    var items: [Int]
    var coupon: String
}

@Suite("Incremental and the Swift ecosystem")
struct IncrementalInteropTests {
    @Test(
        "a derived value's observed value re-evaluates a view once per change, and keeps the node necessary while it lives"
    )
    func observedNode() {
        let graph = Graph()
        let cart = graph.input(Cart(items: [1, 2], coupon: ""))
        let total = cart.map { $0.items.reduce(0, +) }
        weak var weakObserved: ObservedValue<Int>?
        do {
            let observed = total.observed()
            weakObserved = observed
            #expect(total.isNecessary)
            var seen: [Int] = []
            let view = ViewEvaluation { seen.append(observed.value) }
            cart.write(Cart(items: [1, 2], coupon: "X"))
            #expect(!view.renderIfNeeded())
            cart.write(Cart(items: [1, 2, 3], coupon: "X"))
            #expect(view.renderIfNeeded())
            graph.batch {
                cart.write(Cart(items: [5], coupon: "X"))
                cart.write(Cart(items: [1, 2, 3], coupon: "X"))
            }
            #expect(!view.renderIfNeeded())
            #expect(seen == [3, 6])
        }
        #expect(weakObserved == nil)
        #expect(!total.isNecessary)
    }

    @Test("reading a member of an observed input tracks that member only")
    func observedMember() {
        let graph = Graph()
        let cart = graph.input(Cart(items: [], coupon: ""))
        let observed = cart.observed()
        let view = ViewEvaluation { _ = observed.coupon }
        cart.write(Cart(items: [1], coupon: ""))
        #expect(!view.renderIfNeeded())
        cart.write(Cart(items: [1], coupon: "SAVE"))
        #expect(view.renderIfNeeded())
    }

    @MainActor
    @Test("feed(from:) writes each element and propagates; after a disconnect nothing is written")
    func feedInput() async {
        let graph = Graph()
        let input = graph.input(0)
        let doubled = input.map { $0 * 2 }
        var seen: [Int] = []
        let observer = doubled.observe { seen.append($0) }
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        var ended = false
        let feeding = input.feed(from: stream, finished: { _ in ended = true })
        continuation.yield(1)
        continuation.yield(1)
        continuation.yield(2)
        #expect(await eventually { input.value == 2 })
        #expect(seen == [0, 2, 4])
        feeding.disconnect()
        continuation.yield(3)
        continuation.finish()
        await yieldTimes()
        #expect(input.value == 2)
        #expect(!ended)
        observer.disconnect()
    }

    @MainActor
    @Test("an observer that writes the fed input during a propagation is deferred to the next, as any write")
    func feedReentrant() async {
        let graph = Graph()
        let input = graph.input(0)
        var seen: [Int] = []
        let observer = input.observe { value in
            seen.append(value)
            if value == 1 { input.write(100) }
        }
        var ended = false
        let feeding = input.feed(
            from: AsyncStream { c in
                c.yield(1); c.yield(2); c.finish()
            }, finished: { _ in ended = true })
        #expect(await eventually { ended })
        #expect(seen == [0, 1, 100, 2])
        _ = (observer, feeding)
    }

    @Test("nodes and graphs describe themselves without bringing anything up to date")
    func debugDescriptions() {
        let graph = Graph()
        let input = graph.input(2)
        let squared = input.map { $0 * $0 }
        squared.debugName = "squared"
        #expect(squared.debugDescription == "squared<Int>(–, not necessary, observers: 0)")
        let observer = squared.observe { _ in }
        #expect(squared.debugDescription == "squared<Int>(4, necessary, observers: 1)")
        #expect(graph.debugDescription.hasPrefix("Graph(nodes: 2"))
        observer.disconnect()
    }

    @Test("a debug name is kept while set, for its node only, and can be cleared")
    func debugNames() {
        let graph = Graph()
        let input = graph.input(1)
        var doubled: I<Int>? = input.map { $0 * 2 }
        let tripled = input.map { $0 * 3 }
        #expect(doubled?.debugName == nil)
        doubled?.debugName = "doubled"
        tripled.debugName = "tripled"
        #expect(doubled?.debugName == "doubled")
        #expect(tripled.debugName == "tripled")
        tripled.debugName = nil
        #expect(tripled.debugName == nil)
        #expect(doubled?.debugName == "doubled")
        doubled = nil
        // Nodes made after a named one was freed (perhaps at its address) have no name.
        let others = (0..<20).map { offset in input.map { $0 + offset } }
        #expect(others.allSatisfy { $0.debugName == nil })
        #expect(!graph.dot([tripled]).contains("tripled"))
    }
}
