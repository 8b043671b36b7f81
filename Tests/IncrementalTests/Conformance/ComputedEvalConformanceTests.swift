import Incremental
import Testing

@Suite("Conformance: computed evaluation")
struct ComputedEvalConformanceTests {
    @Test("#18 cached — not re-evaluated if deps unchanged")
    func cached() {
        let graph = Graph()
        let a = graph.input(0)
        var calls = 0
        let b = graph.computed {
            calls += 1
            return a.value
        }
        #expect(b.value == 0)
        #expect(calls == 1)
        #expect(b.value == 0)
        #expect(calls == 1)
    }

    @Test("#19 returns updated value after dep change")
    func updatedAfterDepChange() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value * 2 }
        #expect(b.value == 0)
        a.write(1)
        #expect(b.value == 2)
        a.write(5)
        #expect(b.value == 10)
    }

    @Test("#21 chained computed dirty reallocation after trigger")
    func chainedDirtyReallocation() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(0)
        let c = graph.computed { a.value }
        let d = graph.computed { a.value == 0 ? b.value : c.value }
        #expect(d.value == 0)
        a.write(1)
        #expect(d.value == 1)
        b.write(10)
        #expect(d.value == 1)
    }

    @Test("#22 chained computed avoids redundant re-compute")
    func chainAvoidsRedundantRecompute() {
        let graph = Graph()
        let a = graph.input(0)
        var calls = (b: 0, c: 0, d: 0)
        let b = graph.computed {
            calls.b += 1
            return a.value
        }
        let c = graph.computed {
            calls.c += 1
            return b.value
        }
        let d = graph.computed {
            calls.d += 1
            return c.value
        }
        #expect(d.value == 0)
        calls = (0, 0, 0)
        a.write(1)
        #expect(d.value == 1)
        #expect(calls == (1, 1, 1))
    }

    @Test("#23 sync access of invalidated chained computed runs effect")
    func syncAccessRunsEffect() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value }
            let c = graph.computed { b.value }
            var runs = 0
            graph.effect {
                _ = c.value
                runs += 1
            }
            #expect(runs == 1)
            a.write(1)
            #expect(c.value == 1)
            #expect(runs == 2)
        }
    }

    @Test("#24 dependency evaluation order consistent with last access")
    func evaluationOrder() {
        let graph = Graph()
        var order: [String] = []
        let a = graph.input(0)
        let b = graph.computed {
            order.append("b")
            return a.value
        }
        let c = graph.computed {
            order.append("c")
            return a.value
        }
        _ = b.value
        _ = c.value
        order = []
        a.write(1)
        _ = b.value
        _ = c.value
        #expect(order == ["b", "c"])
    }

    @Test("#25 no re-compute if zero dependencies")
    func zeroDependencies() {
        let graph = Graph()
        var calls = 0
        let a = graph.computed {
            calls += 1
            return 42
        }
        #expect(a.value == 42)
        #expect(a.value == 42)
        #expect(calls == 1)
    }

    @Test("#26 computed remains live after losing all subscribers")
    func liveAfterLosingSubscribers() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value * 2 }
        graph.effect { _ = b.value }.dispose()
        a.write(5)
        #expect(b.value == 10)
        a.write(10)
        #expect(b.value == 20)
    }

    @Test("#145 undefined is a valid computed value (not uninitialized)")
    func nilIsAValue() {
        let graph = Graph()
        let a = graph.input(0)
        let c = graph.computed { a.value == 0 ? nil : a.value }
        #expect(c.value == nil)
        a.write(1)
        #expect(c.value == 1)
        a.write(0)
        #expect(c.value == nil)
    }

    @Test("#147 computed not recomputed in batch if dep reverts")
    func notRecomputedIfDepReverts() {
        let graph = Graph()
        let a = graph.input(0)
        var calls = 0
        let c = graph.computed {
            calls += 1
            return a.value
        }
        _ = c.value
        calls = 0
        graph.batch {
            a.write(5)
            a.write(0)
        }
        _ = c.value
        #expect(calls == 0)
    }

    @Test("#149 batch preserves correct evaluation order")
    func batchPreservesOrder() {
        withGraph { graph in
            var order: [String] = []
            let a = graph.input(0)
            let b = graph.computed {
                order.append("b")
                return a.value
            }
            let c = graph.computed {
                order.append("c")
                return b.value
            }
            graph.effect { _ = c.value }
            order = []
            graph.batch { a.write(1) }
            #expect(order == ["b", "c"])
        }
    }

    @Test("#115 signal creation inside computed is allowed")
    func inputMadeInsideComputed() {
        let graph = Graph()
        let a = graph.input(0)
        let c = graph.computed {
            let inner = graph.input(a.value * 10)
            return inner.value
        }
        #expect(c.value == 0)
        a.write(3)
        #expect(c.value == 30)
    }

    @Test("#27 downstream not re-evaluated unless value changed")
    func downstreamOnlyOnChange() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { min(10, max(0, a.value)) }
        var calls = 0
        let c = graph.computed {
            calls += 1
            return b.value
        }
        #expect(c.value == 0)
        calls = 0
        a.write(-1)
        #expect(c.value == 0)
        #expect(calls == 0)
        a.write(5)
        #expect(c.value == 5)
        #expect(calls == 1)
        a.write(11)
        #expect(c.value == 10)
        calls = 0
        a.write(20)
        #expect(c.value == 10)
        #expect(calls == 0)
    }

    @Test("#20 chained computed")
    func chainedComputed() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value + 1 }
        let c = graph.computed { b.value + 1 }
        let d = graph.computed { c.value + 1 }
        #expect(d.value == 3)
        a.write(10)
        #expect(d.value == 13)
    }

    @Test("#148 nested computed: outer not recalculated if inner returns same")
    func outerNotRecalculatedWhenInnerSame() {
        let graph = Graph()
        let a = graph.input(0)
        let inner = graph.computed { a.value > 0 ? 1 : 0 }
        var outerRuns = 0
        let outer = graph.computed {
            outerRuns += 1
            return inner.value
        }
        #expect(outer.value == 0)
        outerRuns = 0
        a.write(1)
        #expect(outer.value == 1)
        #expect(outerRuns == 1)
        outerRuns = 0
        a.write(2)
        #expect(outer.value == 1)
        #expect(outerRuns == 0)
    }
}
