import Glue
import Incremental
import ReactiveCore
import SignalGraph
import Signals
import TestSupport
import Testing

/// The no-op cases of a bridge: a write of the value a source already holds, and a
/// transaction or batch that ends where it began. The bridge passes on whatever its source
/// sends; whether an equal value goes further is the target paradigm's rule (its cutoff).
@Suite("Bridges: writes of the same value and batches that revert")
struct NoOpBridgeTests {
    @Test("the same value written to a Glue variable reaches an Incremental input, whose cutoff stops it")
    func sameValueIntoIncremental() {
        let source = Variable(1)
        let graph = Graph()
        let input = graph.input(0)
        let bridge = source.drive(input)
        let doubled = input.map { $0 * 2 }
        var seen: [Int] = []
        let watch = doubled.observe { seen.append($0) }
        let propagations = graph.statistics.propagations
        source.value = 1
        source.value = 1
        #expect(seen == [2], "Incremental's observer is not told an equal value")
        #expect(graph.statistics.propagations <= propagations + 2, "at most one propagation per write, and none later")
        source.value = 3
        #expect(seen == [2, 6])
        watch.disconnect()
        bridge.disconnect()
    }

    @Test("the same value written to an Incremental input sends nothing to the Glue variable it drives")
    func sameValueFromIncremental() {
        let graph = Graph()
        let input = graph.input(4)
        let mirror = Variable(0)
        let bridge = input.drive(mirror)
        var changes: [ValueChange<Int>] = []
        let watch = mirror.changes.subscribe { changes.append($0) }
        input.write(4)
        #expect(changes.isEmpty, "Incremental does not propagate an equal write, so the bridge has nothing to send")
        input.write(5)
        #expect(changes.map(\.new) == [5])
        watch.disconnect()
        bridge.disconnect()
    }

    @Test("the same value set on a Signals property reaches an Incremental input, whose cutoff stops it")
    func sameValueFromSignals() {
        let property = Property(value: 7)
        let graph = Graph()
        let input = graph.input(0)
        let bridge = property.driveOnWritingThread(input)
        var seen: [Int] = []
        let watch = input.observe { seen.append($0) }
        property.value = 7
        #expect(seen == [7])
        #expect(property.value == 7 && input.value == 7)
        watch.disconnect()
        bridge.disconnect()
    }

    @Test("an Incremental batch that writes an input and writes it back sends the Glue variable it drives nothing")
    func revertingIncrementalBatch() {
        let graph = Graph()
        let input = graph.input(1)
        let label = input.map { "#\($0)" }
        let mirror = Variable("")
        let bridge = label.drive(mirror)
        #expect(mirror.value == "#1")
        var changes: [ValueChange<String>] = []
        let watch = mirror.changes.subscribe { changes.append($0) }
        graph.batch {
            input.write(5)
            input.write(1)
        }
        #expect(changes.isEmpty, "the batch ended where it began: nothing changed, nothing is sent")
        #expect(mirror.value == "#1")
        watch.disconnect()
        bridge.disconnect()
    }

    @Test(
        "a Glue transaction that appends and removes the same element reaches Incremental as one batch; the sum's observer is not told"
    )
    func revertingGlueTransaction() {
        let rows = ArrayVariable([1, 2, 3])
        let graph = Graph()
        let input = graph.arrayInput([Int]())
        let bridge = rows.drive(input)
        let sum = input.map { $0.elements.reduce(0, +) }
        var sums: [Int] = []
        let watch = sum.observe { sums.append($0) }
        let propagations = graph.statistics.propagations
        rows.withTransaction {
            rows.append(4)
            rows.remove(at: 3)
        }
        #expect(input.value.elements == [1, 2, 3])
        #expect(sums == [6], "the sum is unchanged, so its observer is not told")
        #expect(graph.statistics.propagations <= propagations + 1, "one batch for the transaction")
        rows.append(4)
        #expect(sums == [6, 10])
        watch.disconnect()
        bridge.disconnect()
    }

    @Test("a Glue transaction that changes an element and changes it back leaves a SignalGraph storage equal to it")
    func revertingGlueTransactionIntoSignalGraph() {
        let rows = ArrayVariable(["a", "b"])
        let mirror = EditableArrayStorage<String>()
        let bridge = rows.drive(mirror)
        let log = SignalLog(mirror)
        rows.withTransaction {
            rows[0] = "x"
            rows[0] = "a"
        }
        #expect(mirror.state == ["a", "b"])
        #expect(log.initiations == 0, "edits, not a reset")
        #expect(log.signals.count <= 1, "at most one transition for the transaction")
        bridge.disconnect()
    }
}
