import Dispatch
import Signals
import TestSupport
import Testing

@Suite("Property: reading itself while it changes")
struct PropertySelfAccessTests {
    @Test("reading or writing a property inside its own modify is a precondition failure, not a deadlock")
    func selfAccessInsideModify() async {
        let read = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = Property(value: 1)
            property.modify { $0 += property.value }
        }
        expectStandardError(of: read, contains: "Signals: a Property was read or written inside its own modify(_:)")
        let write = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = Property(value: 1)
            property.modify { _ in property.value = 3 }
        }
        expectStandardError(of: write, contains: "Signals: a Property was read or written inside its own modify(_:)")
    }

    @Test("another property, and the same one from other threads, may be used inside modify")
    func otherAccessInsideModify() {
        let first = Property(value: 1)
        let second = Property(value: 10)
        first.modify { $0 += second.value }
        #expect(first.value == 11)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 {
                first.modify { $0 += 1 }
                _ = first.value
            }
        }
        #expect(first.value == 4_011)
        // The value read before `modify`, used inside it: the supported spelling.
        let step = first.value
        first.modify { $0 += step }
        #expect(first.value == 8_022)
    }
}
