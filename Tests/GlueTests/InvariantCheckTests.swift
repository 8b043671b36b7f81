import TestSupport
import Testing

@testable import Glue

/// The engine's invariant checks (built in with `GLUE_INTERNAL_CHECKS`) stop the process with
/// the invariant's name. The faults they catch in the engine itself are the mutants in
/// `.ci/mutants/glue`; these tests show the checks report. Skipped without the flag; CI runs
/// them with it.
@Suite(
    "Engine: invariant checks",
    .enabled(if: GlueChecks.isEnabled, "the module is built without GLUE_INTERNAL_CHECKS"))
struct GlueInvariantCheckTests {
    @Test("an observable that ends a transaction it did not begin breaks G1")
    func unbegunEnd() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var wire = TransactionWire()
            wire.note(Update<ValueChange<Int>>.beginTransaction)
            wire.note(Update<ValueChange<Int>>.endTransaction)
            wire.note(Update<ValueChange<Int>>.endTransaction)
        }
        expectStandardError(of: result, contains: "Glue internal check G1 failed")
    }

    @Test("an observable that sends a change outside a transaction breaks G1")
    func changeOutside() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var wire = TransactionWire()
            wire.note(Update.change(ValueChange(from: 1, to: 2)))
        }
        expectStandardError(of: result, contains: "Glue internal check G1 failed")
    }

    @Test("views, joins and signals used soundly, reentrantly included, pass every check")
    func soundUsePasses() {
        var generator = SeededGenerator(seed: 38)
        let array = ArrayVariable([5, 3, 8])
        let even = array.filter { $0.isMultiple(of: 2) }
        let sorted = array.sorted(by: <)
        let tenfold = even.map { $0 * 10 }
        let total = Variable(0)
        let combined = total.combined(array.sum())
        var latest: [Int] = []
        let connections = [
            sorted.updates.subscribe { _ in latest = sorted.value },
            combined.values.subscribe { pair in
                // A handler that writes back during the delivery.
                if pair.0 < 0 { total.value = 0 }
            },
        ]
        for step in 0..<300 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: array.append(Int.random(in: 0..<20, using: &generator))
            case 1 where !array.value.isEmpty: array.remove(at: Int.random(in: array.value.indices, using: &generator))
            case 2 where !array.value.isEmpty: array[Int.random(in: array.value.indices, using: &generator)] = step % 20
            default:
                array.withTransaction {
                    array.append(step % 7)
                    total.value = -step
                }
            }
            even._checkInvariants()
        }
        #expect(even.value == array.value.filter { $0.isMultiple(of: 2) })
        #expect(sorted.value == array.value.sorted())
        #expect(latest == sorted.value)
        #expect(tenfold.value == even.value.map { $0 * 10 })
        #expect(total.value >= 0)
        for connection in connections { connection.disconnect() }
    }
}
