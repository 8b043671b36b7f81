import Incremental
import TestSupport
import Testing

@Suite("Auto-tracking")
struct AutoTrackingTests {
    @Test("computed values and explicit nodes read each other in one graph")
    func interoperatesWithExplicitNodes() {
        let graph = Graph()
        let price = graph.input(10)
        let quantity = graph.input(2)
        let useDiscount = graph.input(false)
        let total = map2(price, quantity) { $0 * $1 }
        let discounted = graph.computed { useDiscount.value ? total.value * 9 / 10 : total.value }
        let shown = discounted.map { "\($0) €" }
        let chosen = useDiscount.flatMap { $0 ? discounted : total }
        var seen: [String] = []
        let connection = shown.observe { seen.append($0) }
        let chosenConnection = chosen.observe { _ in }
        useDiscount.write(true)
        quantity.write(10)
        #expect(seen == ["20 €", "18 €", "90 €"])
        #expect(chosen.value == 90)
        connection.disconnect()
        chosenConnection.disconnect()
        #expect(!discounted.isNecessary)
    }

    @Test("a computed value that stops reading a node lets it go, and it is freed")
    func droppedInputIsFreed() {
        let graph = Graph()
        let flag = graph.input(true)
        let source = graph.input(1)
        weak var weakDoubled: I<Int>?
        var doubled: I<Int>? = source.map { $0 * 2 }
        weakDoubled = doubled
        let reader = graph.computed { flag.value ? doubled?.value ?? 0 : -1 }
        let effect = graph.effect { _ = reader.value }
        #expect(weakDoubled?.isNecessary == true)
        doubled = nil
        #expect(weakDoubled != nil)
        flag.write(false)
        #expect(weakDoubled == nil)
        #expect(reader.value == -1)
        effect.dispose()
        // The flag, the source, the reader and the effect's node (its handle is alive).
        #expect(graph.nodeCount == 4)
    }

    @Test("a branch not taken is neither computed nor connected")
    func branchNotTakenIsDisconnected() {
        let graph = Graph()
        let useLeft = graph.input(true)
        let left = graph.input(1)
        let right = graph.input(2)
        var rightRuns = 0
        let rightDoubled = graph.computed {
            rightRuns += 1
            return right.value * 2
        }
        let chosen = graph.computed { useLeft.value ? left.value : rightDoubled.value }
        let effect = graph.effect { _ = chosen.value }
        #expect(!rightDoubled.isNecessary)
        right.write(3)
        #expect(rightRuns == 0)
        useLeft.write(false)
        #expect(rightRuns == 1)
        #expect(rightDoubled.isNecessary)
        graph.batch {
            useLeft.write(true)
            right.write(4)
        }
        #expect(rightRuns == 1)
        #expect(!rightDoubled.isNecessary)
        effect.dispose()
    }

    @Test("an effect's writes propagate after it returns; effects it reaches run in the same propagation")
    func reentrantWritesFromAnEffect() {
        let graph = Graph()
        let celsius = graph.input(0.0)
        let fahrenheit = graph.input(32.0)
        var log: [String] = []
        let scope = graph.effectScope {
            graph.effect {
                let value = celsius.value
                fahrenheit.write(value * 9 / 5 + 32)
                log.append("wrote \(fahrenheit.value)")
            }
            graph.effect { log.append("sees \(celsius.value) °C = \(fahrenheit.value) °F") }
        }
        log = []
        celsius.write(100)
        #expect(log == ["wrote 212.0", "sees 100.0 °C = 212.0 °F"])
        scope.dispose()
    }

    @Test("an effect that disposes another effect the same write reached keeps it from running")
    func disposingAQueuedEffect() {
        let graph = Graph()
        let a = graph.input(0)
        var secondRuns = 0
        var second: RunningEffect?
        let first = graph.effect { if a.value == 1 { second?.dispose() } }
        second = graph.effect {
            _ = a.value
            secondRuns += 1
        }
        a.write(1)
        #expect(secondRuns == 1)
        #expect(second?.isDisposed == true)
        first.dispose()
    }

    @Test("an effect disposed during its own run finishes the run, runs its cleanups once and is freed")
    func disposedDuringOwnRun() {
        let graph = Graph()
        let a = graph.input(0)
        var log: [String] = []
        var handle: RunningEffect?
        weak var weakHandle: RunningEffect?
        handle = graph.effect {
            let value = a.value
            graph.onCleanup { log.append("cleanup \(value)") }
            if value == 1 { handle?.dispose() }
            log.append("ran \(value)")
        }
        weakHandle = handle
        a.write(1)
        #expect(log == ["ran 0", "cleanup 0", "ran 1", "cleanup 1"])
        a.write(2)
        #expect(log.count == 4)
        handle = nil
        #expect(weakHandle == nil)
        #expect(graph.nodeCount == 1)
    }

    @Test("effects and scopes made during a run belong to it; a scope owns what its run makes")
    func ownership() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(0)
        var innerRuns = 0
        var innerScopes: [EffectScope] = []
        let outer = graph.effect {
            _ = a.value
            innerScopes.append(
                graph.effectScope {
                    graph.effect {
                        _ = b.value
                        innerRuns += 1
                    }
                })
        }
        a.write(1)
        #expect(innerScopes.map(\.isDisposed) == [true, false])
        b.write(1)
        #expect(innerRuns == 3)
        let scope = graph.effectScope()
        scope.run { graph.effect { _ = b.value } }
        outer.dispose()
        #expect(innerScopes.allSatisfy { $0.isDisposed })
        b.write(2)
        #expect(innerRuns == 3)
        scope.dispose()
        #expect(!b.isNecessary)
    }

    @Test("no-op writes and reverting batches run no effect and recompute nothing")
    func noOpWrites() {
        let graph = Graph()
        let a = graph.input(1)
        var computations = 0
        let doubled = graph.computed {
            computations += 1
            return a.value * 2
        }
        var runs = 0
        let effect = graph.effect {
            _ = doubled.value
            runs += 1
        }
        a.write(1)
        graph.batch {
            a.write(5)
            a.write(1)
        }
        #expect(computations == 1)
        #expect(runs == 1)
        effect.dispose()
    }

    @Test("an observer added during an effect's run is no input of the effect")
    func observerInsideEffectIsUntracked() {
        let graph = Graph()
        let a = graph.input(0)
        let b = graph.input(0)
        var runs = 0
        var connections: [Connection] = []
        let effect = graph.effect {
            _ = a.value
            runs += 1
            connections.append(b.observe { _ in })
        }
        b.write(1)
        #expect(runs == 1)
        effect.dispose()
        connections.forEach { $0.disconnect() }
    }

    @Test("isTracking is true inside computed values and effects only")
    func isTracking() {
        let graph = Graph()
        var inside: [Bool] = []
        let value = graph.computed {
            inside.append(graph.isTracking)
            inside.append(graph.untracked { graph.isTracking })
            return 0
        }
        _ = value.value
        let effect = graph.effect { inside.append(graph.isTracking) }
        #expect(inside == [true, false, true])
        #expect(!graph.isTracking)
        effect.dispose()
    }

    @Test("an effect disposed by a computed value while the propagation pulls it lets go of its inputs")
    func disposedDuringItsPull() {
        weak var weakGraph: Graph?
        weak var weakComputed: I<Int>?
        do {
            let graph = Graph()
            weakGraph = graph
            let source = graph.input(0)
            var disposed: RunningEffect?
            let value = graph.computed {
                if source.value == 1 { disposed?.dispose() }
                return source.value
            }
            weakComputed = value
            disposed = graph.effect { _ = value.value }
            let other = graph.effect { _ = value.value }
            source.write(1)
            #expect(disposed?.isDisposed == true)
            other.dispose()
            // The computed value's closure holds the disposed effect, which held the value
            // through its edge (until the walk under way ended) and its body: no cycle is left.
        }
        #expect(weakComputed == nil)
        #expect(weakGraph == nil)
    }

    @Test("disposing every effect frees the graph")
    func graphFreed() {
        weak var weakGraph: Graph?
        do {
            let graph = Graph()
            weakGraph = graph
            let a = graph.input(0)
            let doubled = graph.computed { a.value * 2 }
            let scope = graph.effectScope {
                graph.effect { _ = doubled.value }
                graph.effect { graph.effect { _ = a.value } }
            }
            a.write(1)
            scope.dispose()
        }
        #expect(weakGraph == nil)
    }

    @Test("an effect made inside a computed closure is a precondition failure")
    func effectInsideComputed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let value = graph.computed {
                graph.effect {}
                return 0
            }
            _ = value.value
        }
        expectStandardError(of: result, contains: "Incremental: effect was called while the graph was recomputing")
    }

    @Test("a computed value that reads a node of another graph is a precondition failure")
    func readAcrossGraphs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let other = Graph().input(1)
            let graph = Graph()
            let value = graph.computed { other.value }
            _ = value.value
        }
        expectStandardError(
            of: result, contains: "Incremental: a computed value or effect read a node of another graph")
    }

    @Test("running a disposed scope is a precondition failure")
    func runDisposedScope() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scope = Graph().effectScope()
            scope.dispose()
            let body: () -> Void = {}
            scope.run(body)
        }
        expectStandardError(
            of: result, contains: "Incremental: EffectScope.run was called after the scope was disposed")
    }
}
