import Incremental
import Testing

@Suite("Conformance: equality")
struct EqualityConformanceTests {
    @Test("#28 same primitive value — no propagation")
    func samePrimitiveValue() {
        let graph = Graph()
        let a = graph.input(1)
        var calls = 0
        let c = graph.computed {
            calls += 1
            return a.value
        }
        #expect(c.value == 1)
        a.write(1)
        #expect(c.value == 1)
        #expect(calls == 1)
    }

    @Test("#34 pruning stops at first unchanged node")
    func pruningStopsAtUnchangedNode() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value > 0 ? 1 : 0 }
        var calls = (c: 0, d: 0)
        let c = graph.computed {
            calls.c += 1
            return b.value
        }
        let d = graph.computed {
            calls.d += 1
            return c.value
        }
        #expect(d.value == 0)
        a.write(1)
        #expect(d.value == 1)
        calls = (0, 0)
        a.write(2)
        #expect(d.value == 1)
        #expect(calls == (0, 0))
    }

    @Test("#169 live pruning: effect not re-run when intermediate computed returns same")
    func livePruning() {
        withGraph { graph in
            let s = graph.input(0)
            let c1 = graph.computed { s.value }
            let c2 = graph.computed {
                _ = c1.value
                return 5
            }
            var runs = 0
            graph.effect {
                _ = c2.value
                runs += 1
            }
            s.write(1)
            s.write(2)
            #expect(runs == 1)
        }
    }

    @Test("#32 computed same result — no downstream propagation")
    func computedSameResultStopsPropagation() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed {
            _ = a.value
            return "foo"
        }
        var cRuns = 0
        let c = graph.computed {
            cRuns += 1
            return b.value
        }
        #expect(c.value == "foo")
        #expect(cRuns == 1)
        a.write("aa")
        #expect(c.value == "foo")
        #expect(cRuns == 1)
    }
}

@Suite("Conformance: graph propagation")
struct GraphPropagationConformanceTests {
    @Test("#1 diamond")
    func diamond() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed { a.value }
        let c = graph.computed { a.value }
        var calls = 0
        let d = graph.computed {
            calls += 1
            return b.value + " " + c.value
        }
        #expect(d.value == "a a")
        a.write("aa")
        #expect(d.value == "aa aa")
        #expect(calls == 2)
    }

    @Test("#2 diamond + tail")
    func diamondWithTail() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed { a.value }
        let c = graph.computed { a.value }
        let d = graph.computed { b.value + " " + c.value }
        var calls = 0
        let e = graph.computed {
            calls += 1
            return d.value
        }
        #expect(e.value == "a a")
        a.write("aa")
        #expect(e.value == "aa aa")
        #expect(calls == 2)
    }

    @Test("#3 jagged diamond + tails")
    func jaggedDiamond() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed { a.value }
        let c = graph.computed { a.value }
        let d = graph.computed { c.value }
        var calls = (e: 0, f: 0, g: 0)
        let e = graph.computed {
            calls.e += 1
            return b.value + " " + d.value
        }
        let f = graph.computed {
            calls.f += 1
            return e.value
        }
        let g = graph.computed {
            calls.g += 1
            return e.value
        }
        #expect(f.value == "a a")
        #expect(g.value == "a a")
        calls = (0, 0, 0)
        a.write("b")
        #expect(e.value == "b b")
        #expect(f.value == "b b")
        #expect(g.value == "b b")
        #expect(calls == (1, 1, 1))
    }

    @Test("#4 asymmetric diamond (different path lengths)")
    func asymmetricDiamond() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed { a.value }
        let c = graph.computed { a.value }
        let d = graph.computed { c.value }
        var calls = 0
        let e = graph.computed {
            calls += 1
            return b.value + " " + d.value
        }
        #expect(e.value == "a a")
        a.write("b")
        #expect(e.value == "b b")
        #expect(calls == 2)
    }

    @Test("#5 drop A→B→A updates")
    func dropABA() {
        let graph = Graph()
        let a = graph.input(2)
        let b = graph.computed { a.value - 1 }
        let c = graph.computed { a.value + b.value }
        var calls = 0
        let d = graph.computed {
            calls += 1
            return "d: \(c.value)"
        }
        #expect(d.value == "d: 3")
        a.write(4)
        #expect(d.value == "d: 7")
        #expect(calls == 2)
    }

    @Test("#6 one unchanged dep does not block update from changed dep")
    func unchangedDepDoesNotBlock() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed { a.value }
        let c = graph.computed {
            _ = a.value
            return "c"
        }
        var calls = 0
        let d = graph.computed {
            calls += 1
            return b.value + " " + c.value
        }
        #expect(d.value == "a c")
        calls = 0
        a.write("aa")
        #expect(d.value == "aa c")
        #expect(calls == 1)
    }

    @Test("#7 unchanged computed values stop propagation to downstream")
    func unchangedValuesStopPropagation() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed {
            _ = a.value
            return "b"
        }
        let c = graph.computed {
            _ = a.value
            return "c"
        }
        var calls = 0
        let d = graph.computed {
            calls += 1
            return b.value + " " + c.value
        }
        #expect(d.value == "b c")
        calls = 0
        a.write("aa")
        #expect(d.value == "b c")
        #expect(calls == 0)
    }

    @Test("#8 topological order")
    func topologicalOrder() {
        let graph = Graph()
        let a = graph.input(0)
        var order: [String] = []
        let b = graph.computed {
            let value = a.value
            order.append("b")
            return value
        }
        let c = graph.computed {
            let value = a.value
            order.append("c")
            return value
        }
        let d = graph.computed {
            let value = b.value + c.value
            order.append("d")
            return value
        }
        #expect(d.value == 0)
        order = []
        a.write(1)
        #expect(d.value == 2)
        #expect(order == ["b", "c", "d"])
    }

    @Test("#9 linear convergence")
    func linearConvergence() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value }
        var calls = (c: 0, d: 0)
        let c = graph.computed {
            calls.c += 1
            return a.value + b.value
        }
        let d = graph.computed {
            calls.d += 1
            return a.value + c.value
        }
        #expect(d.value == 0)
        calls = (0, 0)
        a.write(1)
        #expect(d.value == 3)
        #expect(calls == (1, 1))
    }

    @Test("#10 exponential convergence")
    func exponentialConvergence() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value }
        var calls = (c: 0, d: 0, e: 0)
        let c = graph.computed {
            calls.c += 1
            return b.value + a.value
        }
        let d = graph.computed {
            calls.d += 1
            return c.value + b.value
        }
        let e = graph.computed {
            calls.e += 1
            return d.value + c.value
        }
        #expect(e.value == 0)
        calls = (0, 0, 0)
        a.write(1)
        #expect(e.value == 5)
        #expect(calls == (1, 1, 1))
    }

    @Test("#116 other listeners still notified after one disposes")
    func otherListenersNotified() {
        withGraph { graph in
            let a = graph.input(0)
            let c = graph.computed { a.value * 2 }
            var runs = (first: 0, second: 0)
            let first = graph.effect {
                _ = c.value
                runs.first += 1
            }
            graph.effect {
                _ = c.value
                runs.second += 1
            }
            first.dispose()
            a.write(1)
            #expect(runs == (1, 2))
            a.write(2)
            #expect(runs == (1, 3))
        }
    }

    @Test("#157 three-way diamond: sub updates when two of three deps unmark")
    func threeWayDiamond() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed { a.value }
        let c = graph.computed {
            _ = a.value
            return "c"
        }
        let d = graph.computed {
            _ = a.value
            return "d"
        }
        var calls = 0
        let e = graph.computed {
            calls += 1
            return b.value + " " + c.value + " " + d.value
        }
        #expect(e.value == "a c d")
        calls = 0
        a.write("aa")
        #expect(e.value == "aa c d")
        #expect(calls == 1)
    }

    @Test("#187 effect disposal deactivates upstream computed")
    func disposalDeactivatesUpstream() {
        withGraph { graph in
            let a = graph.input("a")
            var calls = (b: 0, c: 0)
            let b = graph.computed {
                calls.b += 1
                return a.value
            }
            let c = graph.computed {
                calls.c += 1
                return b.value
            }
            let d = graph.computed { a.value }
            var result = ""
            let effect = graph.effect { result = c.value }
            #expect(result == "a")
            #expect(d.value == "a")
            calls = (0, 0)
            effect.dispose()
            a.write("aa")
            #expect(calls == (0, 0))
            #expect(d.value == "aa")
            #expect(!b.isNecessary)
        }
    }

    @Test("#188 batch + dynamic deps: unnecessary recompute avoided")
    func batchDynamicDeps() {
        let graph = Graph()
        var calls = 0
        let a = graph.input(0)
        let b = graph.input(0)
        let c = graph.computed {
            _ = b.value
            calls += 1
            return 0
        }
        let d = graph.computed { a.value == 0 ? c.value : 1 }
        _ = d.value
        #expect(calls == 1)
        graph.batch {
            b.write(1)
            a.write(1)
        }
        _ = d.value
        #expect(calls == 1)
    }

    @Test("#189 multi-signal change: topological ordering preserved")
    func multiSignalChange() {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input(1)
        let c = graph.input(1)
        var calls = 0
        let d = graph.computed {
            calls += 1
            return c.value
        }
        let e = graph.computed { a.value > 0 ? b.value + d.value : b.value }
        _ = e.value
        calls = 0
        a.write(2)
        b.write(2)
        c.write(2)
        _ = e.value
        #expect(calls == 1)
        calls = 0
        a.write(-1)
        b.write(-1)
        c.write(-1)
        _ = e.value
        #expect(calls == 0)
    }

    @Test("#190 computed notifies newly-subscribed effect after prior read")
    func newEffectAfterRead() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value }
            let c = graph.computed { b.value }
            _ = c.value
            var runs = 0
            graph.effect {
                _ = c.value
                runs += 1
            }
            a.write(1)
            #expect(runs == 2)
        }
    }

    @Test("#191 effect sees latest computed value when subscribing after source change")
    func effectSeesLatest() {
        withGraph { graph in
            let s = graph.input(0)
            let c = graph.computed { s.value }
            _ = c.value
            s.write(1)
            var seen: Int?
            graph.effect { seen = c.value }
            #expect(seen == 1)
        }
    }

    @Test("#192 effect not re-run when computed dep value unchanged")
    func effectNotRerunOnUnchanged() {
        withGraph { graph in
            let s = graph.input(0)
            let c = graph.computed {
                _ = s.value
                return 0
            }
            var runs = 0
            graph.effect {
                _ = c.value
                runs += 1
            }
            s.write(1)
            #expect(runs == 1)
        }
    }

    @Test("#204 multi-source fan-in")
    func multiSourceFanIn() {
        withGraph { graph in
            let a = graph.input(1)
            let b = graph.input(10)
            var calls = (c: 0, effect: 0)
            let c = graph.computed {
                calls.c += 1
                return a.value + b.value
            }
            graph.effect {
                _ = c.value
                calls.effect += 1
            }
            #expect(c.value == 11)
            calls = (0, 0)
            graph.batch {
                a.write(2)
                b.write(20)
            }
            #expect(c.value == 22)
            #expect(calls == (1, 1))
        }
    }

    @Test("#205 multi-source cross-diamond")
    func crossDiamond() {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.input(10)
        var calls = (c: 0, d: 0, e: 0)
        let c = graph.computed {
            calls.c += 1
            return a.value + b.value
        }
        let d = graph.computed {
            calls.d += 1
            return a.value * b.value
        }
        let e = graph.computed {
            calls.e += 1
            return c.value + d.value
        }
        #expect(e.value == 21)
        calls = (0, 0, 0)
        a.write(2)
        b.write(20)
        #expect(e.value == 62)
        #expect(calls == (1, 1, 1))
    }

    @Test("#206 stacked diamonds")
    func stackedDiamonds() {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.computed { a.value }
        let c = graph.computed { a.value }
        var calls = (d: 0, g: 0)
        let d = graph.computed {
            calls.d += 1
            return b.value + c.value
        }
        let e = graph.computed { d.value }
        let f = graph.computed { d.value }
        let g = graph.computed {
            calls.g += 1
            return e.value + f.value
        }
        #expect(g.value == 4)
        calls = (0, 0)
        a.write(2)
        #expect(g.value == 8)
        #expect(calls == (1, 1))
    }

    @Test("#207 wide fan-out: all effects fire once")
    func wideFanOut() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = Array(repeating: 0, count: 6)
            for index in 0..<6 {
                let c = graph.computed { a.value + index }
                graph.effect {
                    _ = c.value
                    runs[index] += 1
                }
            }
            #expect(runs == Array(repeating: 1, count: 6))
            a.write(1)
            #expect(runs == Array(repeating: 2, count: 6))
            a.write(2)
            #expect(runs == Array(repeating: 3, count: 6))
        }
    }

    @Test("#208 deep asymmetric join (depth 3 vs 1)")
    func deepAsymmetricJoin() {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.computed { a.value }
        let c = graph.computed { b.value }
        let d = graph.computed { c.value }
        let e = graph.computed { a.value }
        var calls = 0
        let f = graph.computed {
            calls += 1
            return d.value + e.value
        }
        #expect(f.value == 2)
        calls = 0
        a.write(2)
        #expect(f.value == 4)
        #expect(calls == 1)
    }

    @Test("#11 computed chain depth")
    func computedChainDepth() {
        let graph = Graph()
        let a = graph.input(0)
        var runs = 0
        let b = graph.computed { a.value }
        let c = graph.computed { b.value }
        let d = graph.computed { c.value }
        let e = graph.computed {
            runs += 1
            return d.value
        }
        #expect(e.value == 0)
        a.write(1)
        #expect(e.value == 1)
        a.write(2)
        #expect(e.value == 2)
        #expect(runs == 3)
    }
}

@Suite("Conformance: stale evaluation")
struct StaleEvaluationConformanceTests {
    @Test("#94 stale invocation does not trigger pending computations")
    func staleInvocation() {
        let graph = Graph()
        let a = graph.input(0)
        var calls = (b: 0, d: 0)
        let b = graph.computed {
            calls.b += 1
            return a.value
        }
        let c = graph.computed {
            _ = a.value
            return "c"
        }
        let d = graph.computed {
            calls.d += 1
            return "\(b.value) \(c.value)"
        }
        #expect(d.value == "0 c")
        calls = (0, 0)
        a.write(1)
        #expect(d.value == "1 c")
        #expect(calls == (1, 1))
    }

    @Test("#95 stale computations evaluated before their dependees")
    func staleBeforeDependees() {
        let graph = Graph()
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
        #expect(c.value == 0)
        order = []
        a.write(1)
        #expect(c.value == 1)
        #expect(order == ["b", "c"])
    }

    @Test("#158 stale chained computed accessed after update: values fresh")
    func chainFresh() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value + 1 }
        let c = graph.computed { b.value + 1 }
        let d = graph.computed { c.value + 1 }
        #expect(d.value == 3)
        a.write(10)
        #expect(b.value == 11)
        #expect(c.value == 12)
        #expect(d.value == 13)
    }

    @Test("#159 pending computation created after dirty signal still updates")
    func createdAfterDirtySignal() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value * 2 }
        a.write(5)
        let c = graph.computed { b.value + 1 }
        #expect(c.value == 11)
        a.write(10)
        #expect(c.value == 21)
    }

    @Test("#97 flags indirectly updated during dirty-checking")
    func indirectFlags() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value }
        let c = graph.computed { b.value }
        let d = graph.computed { a.value + c.value }
        #expect(d.value == 0)
        a.write(1)
        #expect(d.value == 2)
    }

    @Test("#96 downstream correctly marked stale on dep change")
    func downstreamMarkedStale() {
        let graph = Graph()
        let a = graph.input("a")
        let b = graph.computed { a.value }
        let c = graph.computed { b.value }
        let d = graph.computed { c.value }
        #expect(d.value == "a")
        a.write("b")
        #expect(d.value == "b")
        a.write("c")
        #expect(d.value == "c")
    }
}

@Suite("Conformance: memory")
struct MemoryConformanceTests {
    @Test("#99 computed collectable by GC if nothing listening")
    func computedFreedWhenUnreferenced() {
        let graph = Graph()
        let a = graph.input(0)
        weak var weakComputed: I<Int>?
        do {
            let c = graph.computed { a.value * 2 }
            #expect(c.value == 0)
            weakComputed = c
        }
        #expect(weakComputed == nil)
        #expect(graph.nodeCount == 1)
        a.write(5)
        #expect(a.value == 5)
    }

    @Test("#160 consumer links cleaned after losing all listeners")
    func linksCleanedAfterListenersGo() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value * 2 }
            var runs = 0
            let first = graph.effect {
                _ = b.value
                runs += 1
            }
            let second = graph.effect { _ = b.value }
            a.write(1)
            #expect(runs == 2)
            first.dispose()
            second.dispose()
            #expect(!b.isNecessary)
            a.write(2)
            #expect(runs == 2)
            #expect(b.value == 4)
        }
    }

    @Test("#161 multi-level computed cleanup after all listeners removed")
    func multiLevelCleanup() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value + 1 }
            let c = graph.computed { b.value + 1 }
            let d = graph.computed { c.value + 1 }
            var runs = 0
            let effect = graph.effect {
                _ = d.value
                runs += 1
            }
            a.write(1)
            #expect(runs == 2)
            effect.dispose()
            #expect(![b, c, d].contains { $0.isNecessary })
            a.write(2)
            #expect(runs == 2)
            #expect(d.value == 5)
        }
    }

    @Test("#98 subscriptions cleared when all subscribers removed")
    func subscriptionsClearedWithLastSubscriber() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            let effect = graph.effect {
                _ = a.value
                runs += 1
            }
            a.write(1)
            #expect(runs == 2)
            #expect(a.isNecessary)
            effect.dispose()
            #expect(!a.isNecessary)
            a.write(2)
            a.write(3)
            #expect(runs == 2)
        }
    }

    @Test("#101 disposed effect graph links fully cleaned up")
    func disposedEffectLinksCleaned() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value * 2 }
            var runs = 0
            let nodesBefore = graph.nodeCount
            do {
                let effect = graph.effect {
                    _ = b.value
                    runs += 1
                }
                #expect(graph.nodeCount == nodesBefore + 1)
                effect.dispose()
            }
            // Disposed, and its handle gone: the effect's node is freed, and its links with it.
            #expect(graph.nodeCount == nodesBefore)
            #expect(!b.isNecessary)
            #expect(!a.isNecessary)
            a.write(1)
            a.write(2)
            #expect(runs == 1)
            #expect(b.value == 4)
        }
    }
}

@Suite("Conformance: untracked")
struct UntrackedConformanceTests {
    @Test("#75 untracked read in effect does not create dependency")
    func untrackedInEffect() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                _ = graph.untracked { b.value }
                runs += 1
            }
            a.write(1)
            #expect(runs == 2)
            b.write(1)
            #expect(runs == 2)
        }
    }

    @Test("#76 untracked read in computed does not create dependency")
    func untrackedInComputed() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(10)
        let c = graph.computed { a.value + graph.untracked { b.value } }
        #expect(c.value == 10)
        a.write(1)
        #expect(c.value == 11)
        b.write(20)
        #expect(c.value == 11)
    }

    @Test("#117 untracked read of stale computed returns fresh value")
    func untrackedReadIsFresh() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed { a.value * 2 }
        #expect(b.value == 0)
        a.write(5)
        #expect(graph.untracked { b.value } == 10)
    }

    @Test("#118 untracked transitively doesn't track through nested deps")
    func untrackedTransitively() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value * 2 }
            var runs = 0
            graph.effect {
                _ = graph.untracked { b.value }
                runs += 1
            }
            a.write(1)
            a.write(2)
            #expect(runs == 1)
        }
    }

    @Test("#156 untracked write inside effect doesn't throw")
    func untrackedWriteInEffect() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            graph.effect {
                _ = a.value
                graph.untracked { b.write(a.value * 10) }
            }
            #expect(b.value == 0)
            a.write(1)
            #expect(b.value == 10)
        }
    }

    @Test("#77 nested untracked inside effect still blocks tracking")
    func untrackedBlockInsideEffect() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = 0
            graph.effect {
                graph.untracked {
                    _ = a.value
                    _ = b.value
                }
                runs += 1
            }
            a.write(1)
            b.write(1)
            #expect(runs == 1)
            #expect(!a.isNecessary && !b.isNecessary)
        }
    }
}
