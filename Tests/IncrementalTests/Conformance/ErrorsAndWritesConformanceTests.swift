import Incremental
import Testing

// A computed value's error is its state: `get()` rethrows it, and nodes that read it with
// `get()` hold it too. Effects cannot throw in Swift: where the suite's effect throws, the
// port's effect reads a failing computed value with `try?` or records its own failure.
@Suite("Conformance: error handling")
struct ErrorHandlingConformanceTests {
    @Test("#84 graph stays consistent after error in initial computed")
    func errorInInitialComputed() throws {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed {
            if a.value == 0 { throw Boom(message: "initial error") }
            return a.value
        }
        #expect(throws: Boom(message: "initial error")) { try b.get() }
        a.write(1)
        #expect(try b.get() == 1)
    }

    @Test("#89 effect cleanup reset when effect throws")
    func cleanupRunsBeforeFailingRun() {
        withGraph { graph in
            let a = graph.input(0)
            var cleaned = false
            var failures = 0
            graph.effect {
                if a.value == 1 {
                    failures += 1
                    return
                }
                graph.onCleanup { cleaned = true }
            }
            a.write(1)
            #expect(cleaned)
            #expect(failures == 1)
        }
    }

    @Test("#90 effect disposed when cleanup throws")
    func failingCleanupIsBounded() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            var cleanupFailures = 0
            graph.effect {
                runs += 1
                _ = a.value
                graph.onCleanup { cleanupFailures += 1 }
            }
            a.write(1)
            let runsAfterError = runs
            a.write(2)
            #expect(runs <= runsAfterError + 1)
            #expect(cleanupFailures == 2)
        }
    }

    @Test("#91 exception halts propagation but other branches remain intact")
    func otherBranchesIntact() throws {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(10)
        let bad = graph.computed {
            if a.value > 0 { throw Boom(message: "branch error") }
            return a.value
        }
        var calls = 0
        let good = graph.computed {
            calls += 1
            return b.value * 2
        }
        #expect(good.value == 20)
        a.write(1)
        #expect(throws: Boom.self) { try bad.get() }
        calls = 0
        b.write(20)
        #expect(good.value == 40)
        #expect(calls == 1)
    }

    @Test("#92 no stale scheduled updates left after exception")
    func noStaleUpdatesAfterError() throws {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed {
            if a.value == 1 { throw Boom(message: "stale error") }
            return a.value * 2
        }
        #expect(try b.get() == 0)
        a.write(1)
        #expect(throws: Boom(message: "stale error")) { try b.get() }
        a.write(2)
        #expect(try b.get() == 4)
        a.write(3)
        #expect(try b.get() == 6)
    }

    @Test("#154 batch throw: effects survive, graph consistent")
    func batchThrowKeepsEffects() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            #expect(throws: Boom.self) {
                try graph.batch { () throws(Boom) in
                    a.write(1)
                    throw Boom(message: "batch boom")
                }
            }
            #expect(runs == 2)
            a.write(2)
            #expect(runs == 3)
            #expect(a.value == 2)
        }
    }

    @Test("#155 errors cached when watched by effect (live caching)")
    func errorsCachedWhenWatched() throws {
        try withGraph { graph throws in
            let a = graph.input(0)
            var calls = 0
            let c = graph.computed {
                calls += 1
                if a.value == 0 { throw Boom(message: "live error") }
                return a.value
            }
            var effectError: Boom?
            graph.effect {
                do { _ = try c.get() } catch { effectError = error as? Boom }
            }
            #expect(effectError == Boom(message: "live error"))
            let callsAfter = calls
            _ = try? c.get()
            #expect(calls == callsAfter)
            a.write(1)
            #expect(try c.get() == 1)
        }
    }

    @Test("#177 skipped effects from failed flush not re-triggered by unrelated signal")
    func failedFlushDoesNotLeak() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            let c = graph.input(0)
            let d = graph.computed { c.value }
            let failing = graph.computed {
                if a.value == 2 { throw Boom(message: "effect2 error") }
                return a.value
            }
            graph.effect { _ = a.value }
            graph.effect { _ = try? failing.get() }
            var runs = 0
            graph.effect {
                _ = a.value
                _ = d.value
                runs += 1
            }
            a.write(2)
            runs = 0
            b.write(1)
            #expect(runs == 0)
        }
    }

    @Test("#211 computed error chain: downstream computed also throws")
    func errorChain() throws {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.computed {
            if a.value == 1 { throw Boom(message: "source error") }
            return a.value
        }
        let c = graph.computed { try b.get() * 2 }
        #expect(try c.get() == 0)
        a.write(1)
        #expect(throws: Boom(message: "source error")) { try c.get() }
        a.write(2)
        #expect(try b.get() == 2)
        #expect(try c.get() == 4)
    }

    @Test("#247 flush queue consistent after effect throw")
    func flushQueueConsistent() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            let failing = graph.computed {
                if a.value == 1 { throw Boom(message: "e2 error") }
                return a.value
            }
            var runs = 0
            graph.effect { _ = a.value }
            graph.effect { _ = try? failing.get() }
            graph.effect {
                _ = a.value
                runs += 1
            }
            graph.effect { _ = b.value }
            a.write(1)
            runs = 0
            b.write(1)
            #expect(runs == 0)
        }
    }

    @Test("#93 exception recovery in computed")
    func recoveryInBothDirections() throws {
        let graph = Graph()
        let a = graph.input(true)
        let b = graph.computed {
            if a.value { throw Boom(message: "fail") }
            return "ok"
        }
        #expect(throws: Boom(message: "fail")) { try b.get() }
        a.write(false)
        #expect(try b.get() == "ok")
        a.write(true)
        #expect(throws: Boom(message: "fail")) { try b.get() }
    }

    @Test("#85 graph stays consistent after error in computed re-evaluation")
    func errorInReevaluation() throws {
        let graph = Graph()
        let a = graph.input(1)
        let b = graph.computed {
            if a.value == 2 { throw Boom(message: "re-eval error") }
            return a.value
        }
        #expect(try b.get() == 1)
        a.write(2)
        #expect(throws: Boom(message: "re-eval error")) { try b.get() }
        a.write(3)
        #expect(try b.get() == 3)
    }

    @Test("#87 errors in one computed don't leak to unrelated dependents")
    func errorsDoNotLeak() throws {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(10)
        let bad = graph.computed {
            if a.value > 0 { throw Boom(message: "bad") }
            return a.value
        }
        let good = graph.computed { b.value * 2 }
        #expect(try good.get() == 20)
        a.write(1)
        #expect(throws: Boom(message: "bad")) { try bad.get() }
        #expect(try good.get() == 20)
        b.write(20)
        #expect(try good.get() == 40)
    }
}

// A write from inside a computed value's closure is applied after the computation under way
// (Incremental's rule for every closure): the closure still reads the old value, and the
// write then propagates like any other. The suite allows either this or a refusal for most
// of its cases; #179 expects the closure to read its own write, and is answered differently.
@Suite("Conformance: inner writes")
struct InnerWriteConformanceTests {
    @Test("#50 effect writes back to signal")
    func effectWritesBack() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            graph.effect { b.write(a.value * 2) }
            #expect(b.value == 0)
            a.write(5)
            #expect(b.value == 10)
        }
    }

    @Test("#51 effect cleanup modifying dependency does not retrigger")
    func cleanupWriteBounded() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                runs += 1
                _ = a.value
                graph.onCleanup { a.write(999) }
            }
            a.write(1)
            #expect(runs >= 2 && runs <= 3)
            #expect(a.value == 999)
        }
    }

    @Test("#52 computed writing to signal")
    func computedWritesSignal() {
        let graph = Graph()
        let a = graph.input(0)
        let side = graph.input(0)
        let c = graph.computed {
            let value = a.value
            side.write(value * 10)
            return value
        }
        _ = c.value
        #expect(side.value == 0)
    }

    @Test("#53 inner write: only final value observed")
    func finalValueObserved() {
        withGraph { graph in
            let a = graph.input(0)
            var values: [Int] = []
            graph.effect { values.append(a.value) }
            a.write(1)
            a.write(2)
            a.write(3)
            #expect(values.last == 3)
        }
    }

    @Test("#54 inner mutations propagate until changes settle")
    func innerMutationsSettle() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            graph.effect { if a.value > 0 && b.value == 0 { b.write(a.value) } }
            a.write(5)
            #expect(b.value == 5)
        }
    }

    @Test("#55 effect re-scheduled when writing signal before reading")
    func rescheduledAfterWrite() {
        withGraph { graph in
            let a = graph.input(0)
            var values: [Int] = []
            graph.effect { values.append(a.value) }
            a.write(1)
            #expect(values == [0, 1])
        }
    }

    @Test("#56 effect re-scheduled after reading from derived then writing")
    func rescheduledThroughDerived() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value }
            var values: [Int] = []
            graph.effect { values.append(b.value) }
            a.write(1)
            #expect(values == [0, 1])
        }
    }

    @Test("#112 computed side-effect doesn't affect sibling computeds")
    func sideEffectAndSibling() {
        let graph = Graph()
        let source = graph.input(0)
        let side = graph.input(0)
        let writer = graph.computed {
            let value = source.value
            side.write(value * 10)
            return value
        }
        _ = writer.value
        let reader = graph.computed { side.value }
        #expect(reader.value == 0)
        source.write(1)
        _ = writer.value
        #expect(reader.value == 10)
    }

    @Test("#114 inner write final value unchanged: no downstream notification")
    func innerWriteRevertsSilently() {
        withGraph { graph in
            let a = graph.input(0)
            var downstreamRuns = 0
            graph.effect { if a.value == 1 { a.write(0) } }
            let c = graph.computed { a.value }
            graph.effect {
                _ = c.value
                downstreamRuns += 1
            }
            a.write(1)
            #expect(a.value == 0)
            #expect(downstreamRuns <= 2)
        }
    }

    @Test("#133 listener writes back: second listener skipped if no net change")
    func secondListenerSeesSettled() {
        withGraph { graph in
            let a = graph.input(0)
            var second: [Int] = []
            graph.effect { if a.value == 1 { a.write(0) } }
            graph.effect { second.append(a.value) }
            a.write(1)
            #expect(a.value == 0)
            #expect(second.last == 0)
        }
    }

    @Test("#134 listener writes back: second listener gets final value")
    func secondListenerGetsFinal() {
        withGraph { graph in
            let a = graph.input(0)
            var second: [Int] = []
            graph.effect { if a.value == 1 { a.write(10) } }
            graph.effect { second.append(a.value) }
            a.write(1)
            #expect(a.value == 10)
            #expect(second.last == 10)
        }
    }

    @Test("#135 chained computed inner write: downstream only sees settled")
    func chainedInnerWrite() {
        let graph = Graph()
        let source = graph.input(0)
        let target = graph.input(0)
        let c1 = graph.computed {
            let value = source.value
            target.write(value * 10)
            return value
        }
        _ = c1.value
        let c2 = graph.computed { target.value }
        #expect(c2.value == 0)
        source.write(1)
        _ = c1.value
        #expect(target.value == 10)
        #expect(c2.value == 10)
    }

    @Test("#136 computed inner write unchanged: no downstream notification")
    func unchangedInnerWrite() {
        withGraph { graph in
            let source = graph.input(0)
            let side = graph.input(0)
            let c = graph.computed {
                let value = source.value
                side.write(0)
                return value
            }
            _ = c.value
            var runs = 0
            graph.effect {
                _ = side.value
                runs += 1
            }
            runs = 0
            source.write(1)
            _ = c.value
            #expect(runs == 0)
        }
    }

    @Test("#137 computed inner write changed: downstream notified")
    func changedInnerWrite() {
        let graph = Graph()
        let source = graph.input(0)
        let side = graph.input(0)
        let c = graph.computed {
            let value = source.value
            side.write(value * 100)
            return value
        }
        _ = c.value
        source.write(1)
        _ = c.value
        #expect(side.value == 100)
    }

    @Test("#138 independent computeds sharing source, one inner-writes")
    func sharedSourceInnerWrite() {
        let graph = Graph()
        let source = graph.input(0)
        let shared = graph.input(0)
        let writer = graph.computed {
            let value = source.value
            shared.write(value * 10)
            return value
        }
        _ = writer.value
        let reader = graph.computed { shared.value + 1 }
        #expect(shared.value == 0)
        #expect(reader.value == 1)
        source.write(2)
        _ = writer.value
        #expect(shared.value == 20)
        #expect(reader.value == 21)
    }

    @Test("#172 computed writing to own dep: never caches")
    func writingOwnDependency() {
        let graph = Graph()
        let a = graph.input(0)
        var calls = 0
        let c = graph.computed {
            calls += 1
            a.write(a.value + 1)
            return a.value
        }
        _ = c.value
        let callsAfterFirst = calls
        _ = c.value
        #expect(calls > callsAfterFirst)
    }

    @Test("#180 inner write through computed chain resets signal")
    func innerWriteThroughChain() {
        withGraph { graph in
            let s = graph.input(false)
            let c = graph.computed { s.value }
            var runs = 0
            graph.effect {
                runs += 1
                if c.value { s.write(false) }
            }
            #expect(runs == 1)
            s.write(true)
            #expect(s.value == false)
            #expect(runs == 3)
            s.write(true)
            #expect(s.value == false)
            #expect(runs == 5)
        }
    }

    // Difference: the write is applied after the computation, so the closure reads the
    // value from before it (the suite expects 2, then 3).
    @Test("#179 computed self-increment: intra-run read-after-write values correct")
    func selfIncrement() {
        let graph = Graph()
        let s = graph.input(1)
        let c = graph.computed {
            s.write(s.value + 1)
            return s.value
        }
        #expect(c.value == 1)
        #expect(s.value == 2)
        #expect(c.value == 2)
        #expect(s.value == 3)
    }

    @Test("#113 inner write convergence: converges or cycle-detects")
    func innerWriteConverges() {
        withGraph { graph in
            let counter = graph.input(0)
            var iterations = 0
            graph.effect {
                iterations += 1
                if counter.value < 5 { counter.write(counter.value + 1) }
            }
            #expect(counter.value == 5)
            #expect(iterations <= 6)
        }
    }

    @Test("#57 computed side effect triggers downstream")
    func sideEffectTriggersDownstream() {
        withGraph { graph in
            let source = graph.input(0)
            let side = graph.input(0)
            let c = graph.computed {
                let value = source.value
                side.write(value * 10)
                return value
            }
            var values: [Int] = []
            graph.effect { values.append(side.value) }
            _ = c.value
            #expect(side.value == 0)
            source.write(1)
            _ = c.value
            #expect(side.value == 10)
            #expect(values == [0, 10])
        }
    }

    @Test("#181 computed writes multiple signals: downstream sees consistent pair")
    func writesMultipleSignals() {
        let graph = Graph()
        let source = graph.input(0)
        let b = graph.input(0)
        let c = graph.input(0)
        let writer = graph.computed {
            let value = source.value
            b.write(value + 1)
            c.write(value + 2)
            return value
        }
        _ = writer.value
        let pair = graph.computed { "\(b.value),\(c.value)" }
        #expect(pair.value == "1,2")
        source.write(10)
        _ = writer.value
        #expect(pair.value == "11,12")
    }

    @Test("#182 computed side effect + batch: writes visible after flush")
    func sideEffectInBatch() {
        withGraph { graph in
            let source = graph.input(0)
            let side = graph.input(0)
            let c = graph.computed {
                let value = source.value
                side.write(value * 10)
                return value
            }
            _ = c.value
            var runs = 0
            graph.effect {
                _ = side.value
                runs += 1
            }
            runs = 0
            graph.batch {
                source.write(5)
                #expect(c.value == 5)
                #expect(side.value == 50)
            }
            #expect(runs == 1)
            #expect(side.value == 50)
        }
    }

    @Test("#183 branch switch stops computed side effect")
    func branchSwitchStopsSideEffect() {
        let graph = Graph()
        let flag = graph.input(true)
        let source = graph.input(0)
        let side = graph.input(-1)
        let writer = graph.computed {
            let value = source.value
            side.write(value)
            return value
        }
        _ = writer.value
        let branch = graph.computed { flag.value ? writer.value : 999 }
        #expect(branch.value == 0)
        #expect(side.value == 0)
        source.write(1)
        _ = branch.value
        #expect(side.value == 1)
        flag.write(false)
        #expect(branch.value == 999)
        source.write(2)
        _ = branch.value
        #expect(side.value == 1)
    }

    @Test("#184 nested computeds: outer reads inner, both have side effects")
    func nestedSideEffects() {
        let graph = Graph()
        let source = graph.input(0)
        let innerSide = graph.input(0)
        let outerSide = graph.input(0)
        let inner = graph.computed {
            let value = source.value
            innerSide.write(value * 10)
            return value + 1
        }
        let outer = graph.computed {
            let value = inner.value
            outerSide.write(value * 100)
            return value
        }
        _ = outer.value
        #expect(innerSide.value == 0)
        #expect(outerSide.value == 100)
        source.write(2)
        _ = outer.value
        #expect(innerSide.value == 20)
        #expect(outerSide.value == 300)
    }

    @Test("#185 computed side effect write visible despite later throw")
    func writeBeforeThrowApplies() {
        let graph = Graph()
        let source = graph.input(0)
        let side = graph.input(-1)
        let c = graph.computed {
            let value = source.value
            side.write(value * 10)
            if value > 0 { throw Boom(message: "intended") }
            return value
        }
        _ = try? c.get()
        #expect(side.value == 0)
        source.write(1)
        #expect(throws: Boom(message: "intended")) { try c.get() }
        #expect(side.value == 10)
    }

    @Test("#186 effect observes computed side-channel write during propagation")
    func effectSeesSideChannel() {
        withGraph { graph in
            let source = graph.input(0)
            let side = graph.input(0)
            let c = graph.computed {
                let value = source.value
                side.write(value)
                return value
            }
            _ = c.value
            var observed: [Int] = []
            graph.effect { observed.append(c.value + side.value) }
            #expect(observed.last == 0)
            source.write(5)
            #expect(observed.last == 10)
        }
    }

    @Test("#213 inner write during initial effect execution doesn't block future propagation")
    func innerWriteDuringFirstRun() {
        withGraph { graph in
            let s = graph.input(1)
            let c = graph.computed { s.value }
            graph.effect { if c.value > 0 { s.write(0) } }
            #expect(s.value == 0)
            s.write(2)
            #expect(s.value == 0)
            s.write(3)
            #expect(s.value == 0)
        }
    }

    @Test("#212 inner write through computed doesn't block future propagation")
    func innerWriteThroughComputed() {
        withGraph { graph in
            let s = graph.input(0)
            let c = graph.computed { s.value }
            graph.effect { if c.value > 0 { s.write(0) } }
            for value in 1...3 {
                s.write(value)
                #expect(s.value == 0)
            }
        }
    }

    @Test("#139 effect inner write re-schedules when dep changes during run")
    func innerWriteReschedules() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var log: [Int] = []
            var runs = 0
            graph.effect {
                log.append(a.value)
                runs += 1
                if a.value == 0 && b.value == 0 { b.write(1) }
            }
            #expect(b.value == 1)
            // The write took effect after the run, which then ran again, having read `b`.
            #expect(runs == 2)
            #expect(log == [0, 0])
        }
    }
}

@Suite("Conformance: nested effects")
struct NestedEffectsConformanceTests {
    @Test("#43 outer effect runs before inner effect")
    func outerBeforeInner() {
        withGraph { graph in
            var order: [String] = []
            let a = graph.input(0)
            graph.effect {
                order.append("outer")
                _ = a.value
                graph.effect {
                    order.append("inner")
                    _ = a.value
                }
            }
            #expect(order == ["outer", "inner"])
        }
    }

    @Test("#45 untracked inner effect does not subscribe to deps")
    func untrackedInnerEffect() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = (outer: 0, inner: 0)
            graph.effect {
                runs.outer += 1
                graph.untracked {
                    graph.effect {
                        _ = a.value
                        runs.inner += 1
                    }
                }
            }
            runs = (0, 0)
            a.write(1)
            #expect(runs == (0, 1))
        }
    }

    @Test("#46 duplicate subscribers don't cause duplicate notifications")
    func duplicateReads() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                _ = a.value
                runs += 1
            }
            a.write(1)
            #expect(runs == 2)
        }
    }

    @Test("#47 effect recursion handled on first execution")
    func recursionOnFirstRun() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                runs += 1
                if runs == 1 { a.write(1) }
                _ = a.value
            }
            #expect(runs <= 3)
            #expect(a.value == 1)
        }
    }

    @Test("#163 parent effect not triggered by child's own signal")
    func parentNotTriggeredByChildSignal() {
        withGraph { graph in
            let a = graph.input(0)
            var parentRuns = 0
            graph.effect {
                _ = a.value
                parentRuns += 1
                let child = graph.input(0)
                graph.effect { _ = child.value }
                child.write(1)
            }
            let runsAfterSetup = parentRuns
            a.write(1)
            #expect(parentRuns == runsAfterSetup + 1)
        }
    }

    @Test("#164 inner autorun created inside outer tracks own deps")
    func innerTracksOwnDeps() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = (outer: 0, inner: 0)
            graph.effect {
                _ = a.value
                runs.outer += 1
                graph.effect {
                    _ = b.value
                    runs.inner += 1
                }
            }
            runs = (0, 0)
            b.write(1)
            #expect(runs == (0, 1))
        }
    }

    @Test("#170 inner effect not triggered when computed dep resolves unchanged")
    func innerNotTriggeredByUnchanged() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value % 2 }
            var innerRuns = 0
            graph.effect {
                graph.effect {
                    _ = b.value
                    innerRuns += 1
                }
            }
            let initial = innerRuns
            a.write(2)
            #expect(innerRuns == initial)
        }
    }

    @Test("#209 three-level nested effect: cascading disposal")
    func cascadingDisposal() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = (middle: 0, inner: 0)
            let outer = graph.effect {
                _ = a.value
                graph.effect {
                    _ = a.value
                    runs.middle += 1
                    graph.effect {
                        _ = a.value
                        runs.inner += 1
                    }
                }
            }
            runs = (0, 0)
            outer.dispose()
            a.write(1)
            #expect(runs == (0, 0))
        }
    }

    @Test("#210 multiple inner effects all cleaned when outer re-runs")
    func innerEffectsCleanedOnRerun() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            let c = graph.input(0)
            var runs = (b: 0, c: 0)
            graph.effect {
                _ = a.value
                graph.effect {
                    _ = b.value
                    runs.b += 1
                }
                graph.effect {
                    _ = c.value
                    runs.c += 1
                }
            }
            a.write(1)
            runs = (0, 0)
            b.write(1)
            #expect(runs.b == 1)
            c.write(1)
            #expect(runs.c == 1)
        }
    }

    @Test("#48 nested effects depend on state of outer effects")
    func innerSeesOuterState() {
        withGraph { graph in
            let a = graph.input(0)
            var observed: [Int] = []
            graph.effect {
                let value = a.value
                graph.effect { observed.append(value) }
            }
            a.write(1)
            #expect(observed == [0, 1])
        }
    }

    @Test("#226 outer keeps responding to own deps after inner re-runs")
    func outerRespondsAfterInnerReruns() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = (outer: 0, inner: 0)
            graph.effect {
                _ = a.value
                runs.outer += 1
                graph.effect {
                    _ = b.value
                    runs.inner += 1
                }
            }
            #expect(runs == (1, 1))
            b.write(1)
            #expect(runs == (1, 2))
            a.write(1)
            #expect(runs.outer == 2)
        }
    }

    @Test("#227 outer responds after one of multiple sibling inners re-runs")
    func outerRespondsAfterSiblingReruns() {
        withGraph { graph in
            let a = graph.input(0)
            let b1 = graph.input(0)
            let b2 = graph.input(0)
            var runs = (outer: 0, inner1: 0, inner2: 0)
            graph.effect {
                _ = a.value
                runs.outer += 1
                graph.effect {
                    _ = b1.value
                    runs.inner1 += 1
                }
                graph.effect {
                    _ = b2.value
                    runs.inner2 += 1
                }
            }
            #expect(runs == (1, 1, 1))
            b1.write(1)
            #expect(runs == (1, 2, 1))
            a.write(1)
            #expect(runs.outer == 2)
        }
    }

    @Test("#228 outer responds after inner re-runs multiple times")
    func outerRespondsAfterManyInnerReruns() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = (outer: 0, inner: 0)
            graph.effect {
                _ = a.value
                runs.outer += 1
                graph.effect {
                    _ = b.value
                    runs.inner += 1
                }
            }
            for value in 1...3 { b.write(value) }
            #expect(runs == (1, 4))
            a.write(1)
            #expect(runs.outer == 2)
        }
    }

    @Test("#44 inner effect auto-cleaned when outer re-runs")
    func innerDisposedWhenOuterReruns() {
        withGraph { graph in
            let a = graph.input(0)
            var innerRuns = 0
            var innerCleanups = 0
            graph.effect {
                _ = a.value
                graph.effect {
                    _ = a.value
                    innerRuns += 1
                    graph.onCleanup { innerCleanups += 1 }
                }
            }
            #expect(innerRuns == 1)
            // Each outer run disposes the inner effect of its last run before making a new
            // one, which runs once: the old one never runs again.
            a.write(1)
            #expect(innerRuns == 2)
            #expect(innerCleanups == 1)
            a.write(2)
            #expect(innerRuns == 3)
            #expect(innerCleanups == 2)
        }
    }
}
