import TestSupport
import Testing

@testable import Incremental

/// The engine's invariant checks (built in with `INCREMENTAL_INTERNAL_CHECKS`) catch a graph
/// whose bookkeeping was damaged: each test damages one invariant by hand and expects the
/// check to stop the process with that invariant's name. Without the flag the checks are not
/// compiled, and these tests are skipped; CI runs them with the flag on.
@Suite(
    "Engine: invariant checks",
    .enabled(if: Graph._isCheckingInvariants, "the module is built without INCREMENTAL_INTERNAL_CHECKS"))
struct InvariantCheckTests {
    @Test("a reader entry removed behind the engine's back breaks I2")
    func unlinkedReader() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let input = graph.input(1)
            let doubled = input.map { $0 * 2 }
            let connection = doubled.observe { _ in }
            graph._checkInvariants()
            input.subs.removeLast()
            graph._checkInvariants()
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental internal check I2 failed")
    }

    @Test("an observer count that disagrees with the observers breaks I6")
    func miscountedObservers() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let doubled = graph.input(1).map { $0 * 2 }
            let connection = doubled.observe { _ in }
            doubled.observerCount += 1
            graph._checkInvariants()
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental internal check I6 failed")
    }

    @Test("a block freed while its node lives breaks I7")
    func blockFreedEarly() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let doubled = graph.input(1).map { $0 * 2 }
            graph.blocks.deallocate(doubled.block, sizeClass: doubled.blockClass)
            graph._checkInvariants()
        }
        expectStandardError(of: result, contains: "Incremental internal check I7 failed")
    }

    @Test("a node whose input changed, left unmarked inside a batch, breaks I9")
    func lostMark() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let graph = Graph()
            let input = graph.input(1)
            let doubled = input.map { $0 * 2 }
            let connection = doubled.observe { _ in }
            graph.batch {
                input.write(2)
                graph.flushDeferredPush()
                doubled.flags &= ~Flags.pending
                graph._checkInvariants()
            }
            _ = connection
        }
        expectStandardError(of: result, contains: "Incremental internal check I9 failed")
    }

    @Test("a sound graph passes every check through writes, batches, flatMaps and disconnects")
    func soundGraphPasses() {
        let graph = Graph()
        let flag = graph.input(true)
        let a = graph.input(1)
        let b = graph.input(2)
        let chosen = flag.flatMap { $0 ? a.map { $0 + 1 } : b.map { $0 * 10 } }
        var seen: [Int] = []
        let connection = chosen.observe { seen.append($0) }
        graph._checkInvariants()
        a.write(5)
        graph.batch {
            flag.write(false)
            graph._checkInvariants()
            b.write(3)
        }
        graph._checkInvariants()
        connection.disconnect()
        graph._checkInvariants()
        #expect(seen == [2, 6, 30])
    }
}
