import Incremental
import Testing

@Suite("Conformance: dynamic dependencies")
struct DynamicDepsConformanceTests {
    @Test("#12 active dep triggers, inactive dep does not")
    func activeDepTriggers() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.input("b")
        let condition = graph.input(true)
        var calls = 0
        let c = graph.computed {
            calls += 1
            return condition.value ? a.value : b.value
        }
        #expect(c.value == "a")
        #expect(calls == 1)
        b.write("bb")
        #expect(c.value == "a")
        #expect(calls == 1)
        a.write("aa")
        #expect(c.value == "aa")
        #expect(calls == 2)
    }

    @Test("#13 switching branches deactivates old deps")
    func switchingDeactivatesOldDeps() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.input("b")
        let condition = graph.input(true)
        var calls = 0
        let c = graph.computed {
            calls += 1
            return condition.value ? a.value : b.value
        }
        #expect(c.value == "a")
        condition.write(false)
        #expect(c.value == "b")
        calls = 0
        a.write("aa")
        #expect(c.value == "b")
        #expect(calls == 0)
        b.write("bb")
        #expect(c.value == "bb")
        #expect(calls == 1)
    }

    @Test("#14 new deps updated before dependee")
    func newDepsUpdatedFirst() {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input(10)
        let condition = graph.input(false)
        let c = graph.computed { a.value }
        let d = graph.computed { condition.value ? c.value : b.value }
        #expect(d.value == 10)
        condition.write(true)
        a.write(2)
        #expect(d.value == 2)
    }

    @Test("#16 lazy branch")
    func lazyBranch() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value }
        let c = graph.computed { a.value > 0 ? a.value : b.value }
        #expect(c.value == 0)
        a.write(1)
        #expect(c.value == 1)
        a.write(0)
        #expect(c.value == 0)
    }

    @Test("#165 computed dep cleanup doesn't delete sibling subscription")
    func cleanupKeepsSiblingSubscription() {
        withGraph { graph in
            let toggle = graph.input(true)
            let state = graph.input(1)
            let p = graph.computed { toggle.value ? state.value : 111 }
            let pp = graph.computed { state.value }
            graph.effect { _ = p.value }
            toggle.write(false)
            #expect(p.value == 111)
            state.write(2)
            #expect(pp.value == 2)
        }
    }

    @Test("#166 after dep removed via branch switch, re-subscribing works")
    func resubscribingWorks() {
        withGraph { graph in
            let flag = graph.input(true)
            let source = graph.input(1)
            let c = graph.computed { flag.value ? source.value : 0 }
            var seen = -1
            graph.effect { seen = c.value }
            #expect(seen == 1)
            flag.write(false)
            #expect(seen == 0)
            source.write(2)
            flag.write(true)
            #expect(seen == 2)
        }
    }

    @Test("#193 sequential dirty check: branch switch skips unreachable computed")
    func branchSwitchSkipsUnreachable() {
        let graph = Graph()
        var calls = 0
        let a = graph.input(Optional(1))
        let b = graph.computed { a.value }
        let c = graph.computed {
            calls += 1
            return b.value.map { $0 }
        }
        let d = graph.computed { b.value != nil ? c.value : 0 }
        _ = d.value
        #expect(calls == 1)
        a.write(nil)
        _ = d.value
        #expect(calls == 1)
    }

    @Test("#194 chained computed dirty reallocation via effect")
    func chainedReallocationViaEffect() {
        withGraph { graph in
            var seen = ""
            let items = graph.input([Int]?.none)
            let isLoaded = graph.computed { items.value != nil }
            let message = graph.computed { isLoaded.value ? "loaded" : "not loaded" }
            graph.effect { seen = message.value }
            #expect(seen == "not loaded")
            items.write([1, 2, 3])
            #expect(seen == "loaded")
            items.write([4, 5])
            #expect(seen == "loaded")
            items.write(nil)
            #expect(seen == "not loaded")
        }
    }

    @Test("#195 chained computed dirty reallocation via manual read")
    func chainedReallocationViaRead() {
        let graph = Graph()
        let items = graph.input([Int]?.none)
        let isLoaded = graph.computed { items.value != nil }
        let message = graph.computed { isLoaded.value ? "loaded" : "not loaded" }
        #expect(message.value == "not loaded")
        items.write([1, 2, 3])
        _ = isLoaded.value
        #expect(message.value == "loaded")
        items.write(nil)
        #expect(message.value == "not loaded")
    }

    @Test("#196 maybe-dirty diamond: first dep unmarked, second still triggers")
    func maybeDirtyDiamond() {
        let graph = Graph()
        var calls = 0
        let source1 = graph.input(0)
        let source2 = graph.input(0)
        let c1 = graph.computed { source1.value }
        let c2 = graph.computed { source1.value % 2 + source2.value }
        let c3 = graph.computed {
            calls += 1
            return c1.value + c2.value
        }
        _ = c3.value
        #expect(calls == 1)
        source1.write(2)
        _ = c3.value
        #expect(calls == 2)
        source2.write(1)
        _ = c3.value
        #expect(calls == 3)
    }

    @Test("#197 chained value-equality stops propagation across multiple writes")
    func equalityStopsAcrossWrites() {
        withGraph { graph in
            var calls = (c1: 0, c2: 0, effect: 0)
            let source = graph.input(0)
            let c1 = graph.computed {
                calls.c1 += 1
                return source.value % 2
            }
            let c2 = graph.computed {
                calls.c2 += 1
                return c1.value + 1
            }
            graph.effect {
                _ = c2.value
                calls.effect += 1
            }
            #expect(calls.effect == 1)
            calls = (0, 0, 0)
            source.write(2)
            source.write(4)
            source.write(6)
            #expect(calls.c1 >= 1)
            #expect(calls.c2 == 0)
            #expect(calls.effect == 0)
        }
    }

    @Test("#198 effect discovers new branch deps")
    func effectDiscoversNewDeps() {
        withGraph { graph in
            let condition = graph.input(false)
            let a = graph.input("value")
            var runs = 0
            var seen = ""
            graph.effect {
                runs += 1
                seen = condition.value ? a.value : "other"
            }
            #expect(seen == "other")
            a.write("Hi")
            #expect(runs == 1)
            condition.write(true)
            #expect(seen == "Hi")
            #expect(runs == 2)
            a.write("World")
            #expect(seen == "World")
            #expect(runs == 3)
        }
    }

    @Test("#199 effect ignores inactive branch dep")
    func effectIgnoresInactiveDep() {
        withGraph { graph in
            let condition = graph.input(true)
            let a = graph.input("value")
            var runs = 0
            var seen = ""
            graph.effect {
                runs += 1
                seen = condition.value ? a.value : "other"
            }
            #expect(seen == "value")
            condition.write(false)
            #expect(seen == "other")
            #expect(runs == 2)
            a.write("changed")
            #expect(seen == "other")
            #expect(runs == 2)
        }
    }

    @Test("#200 independent dep tracking across effects with dynamic deps")
    func independentTrackingAcrossEffects() {
        withGraph { graph in
            let a = graph.input(1)
            let b = graph.input(2)
            let c = graph.input(0)
            let out1 = graph.input(0)
            let out2 = graph.input(0)
            var runs = (fx1: 0, fx2: 0)
            graph.effect {
                runs.fx1 += 1
                var result = 0
                if c.value < 2 { result += a.value }
                if c.value > 1 { result += b.value }
                out1.write(result)
            }
            graph.effect {
                runs.fx2 += 1
                var result = 0
                if c.value > 1 { result += a.value }
                if c.value < 3 { result += b.value }
                result += out1.value
                out2.write(result)
            }
            #expect(out1.value == 1)
            #expect(out2.value == 3)
            runs = (0, 0)
            b.write(3)
            #expect(out1.value == 1)
            #expect(out2.value == 4)
            #expect(runs.fx1 == 0)
            #expect(runs.fx2 == 1)
            c.write(2)
            #expect(out1.value == 3)
            #expect(out2.value == 7)
        }
    }
}
