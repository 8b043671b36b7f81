import Incremental
import TestSupport
import Testing

// Incremental treats a cycle as a programming error: a computed value that reads itself,
// directly or through others, stops with a precondition failure, which Swift cannot catch
// (the suite lets a framework throw or recover). Effects that keep writing what they read
// stop at `Graph.feedbackLimit` propagations in a row, also with a precondition failure.
@Suite("Conformance: cycle detection")
struct CycleDetectionConformanceTests {
    @Test("#61 indirect cycle through effects")
    func indirectCycleThroughEffects() {
        withGraph { graph in
            let a = graph.input(0)
            var iterations = 0
            graph.effect {
                let value = a.value
                if iterations < 100 { a.write(value + 1) }
                iterations += 1
            }
            #expect(iterations <= 200)
            #expect(a.value == 100)
        }
    }

    @Test("#63 cycle from modifying a branch (dynamic cycle creation)")
    func dynamicCycleThroughEffect() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let condition = graph.input(false)
            let a = graph.input(0)
            graph.effect {
                if condition.value { a.write(a.value + 1) } else { _ = a.value }
            }
            condition.write(true)
        }
        expectStandardError(of: result, contains: "Incremental: observers kept writing inputs for 100 propagations")
    }

    @Test("#150 dynamic cycle: computed pair becomes cyclic on condition change")
    func computedPairBecomesCyclic() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let condition = graph.input(false)
            var aReference: I<Int>?
            let b = graph.computed { condition.value ? aReference?.value ?? 0 : 0 }
            let a = graph.computed { b.value }
            aReference = a
            _ = a.value
            condition.write(true)
            _ = a.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle")
    }

    @Test("#151 self-reference via untracked: cycle still detected")
    func selfReferenceThroughUntracked() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            var selfReference: I<Int>?
            let c = graph.computed { graph.untracked { (selfReference?.value ?? 0) + 1 } }
            selfReference = c
            _ = c.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle")
    }

    @Test("#152 conditional computed becomes recursive on flag change")
    func conditionalSelfCycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let flag = graph.input(false)
            var selfReference: I<Int>?
            let c = graph.computed { flag.value ? (selfReference?.value ?? 0) + 1 : 0 }
            selfReference = c
            _ = c.value
            flag.write(true)
            _ = c.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a computed value reads its own value")
    }

    // Difference: the cycle cannot be caught, so the computed cannot recover from it.
    @Test("#153 computed self-dep recovery after catching cycle error")
    func selfDependencyIsFatal() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let a = graph.input(0)
            var selfReference: I<Int>?
            let c = graph.computed { a.value == 0 ? selfReference?.value ?? -1 : a.value }
            selfReference = c
            _ = c.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a computed value reads its own value")
    }

    @Test("#64 max iteration limit reached")
    func pingPongStopsAtFeedbackLimit() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let a = graph.input(0)
            let b = graph.input(0)
            graph.effect { if a.value < 100 { b.write(a.value) } }
            graph.effect { if b.value < 100 { a.write(b.value + 1) } }
        }
        expectStandardError(of: result, contains: "Incremental: observers kept writing inputs for 100 propagations")
    }

    @Test("#64 max iteration limit reached (converging within a raised limit)")
    func pingPongConvergesWithinRaisedLimit() {
        withGraph { graph in
            graph.feedbackLimit = 1_000
            let a = graph.input(0)
            let b = graph.input(0)
            var iterations = 0
            graph.effect {
                iterations += 1
                if a.value < 100 { b.write(a.value) }
            }
            graph.effect { if b.value < 100 { a.write(b.value + 1) } }
            #expect(iterations <= 300)
            #expect(a.value == 100)
        }
    }

    @Test("#58 detect trivial cycle (A↔B)")
    func trivialCycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            var aReference: I<Int>?
            let b = graph.computed { aReference?.value ?? 0 }
            let a = graph.computed { b.value }
            aReference = a
            _ = a.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a computed value reads its own value")
    }

    @Test("#59 detect deep cycle (A→B→C→…→A)")
    func deepCycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            var aReference: I<Int>?
            let c = graph.computed { aReference?.value ?? 0 }
            let b = graph.computed { c.value }
            let a = graph.computed { b.value }
            aReference = a
            _ = a.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a computed value reads its own value")
    }

    @Test("#60 computed depending on itself")
    func computedReadsItself() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            var selfReference: I<Int>?
            let c = graph.computed { (selfReference?.value ?? 0) + 1 }
            selfReference = c
            _ = c.value
        }
        expectStandardError(of: result, contains: "Incremental: a cycle: a computed value reads its own value")
    }
}
