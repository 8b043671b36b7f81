import TestSupport
import Testing

@testable import Signals

/// The engine's invariant checks (built in with `SIGNALS_INTERNAL_CHECKS`) stop the process
/// with the invariant's name. The faults they catch in the engine itself are the mutants in
/// `.ci/mutants/signals`; these tests show each kind of check reports. Skipped without the
/// flag; CI runs them with it.
@Suite(
    "Engine: invariant checks",
    .enabled(if: SignalsChecks.isEnabled, "the module is built without SIGNALS_INTERNAL_CHECKS"))
struct SignalsInvariantCheckTests {
    @Test("retired lists out of stamp order break S6")
    func retiredOutOfOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SignalsChecks.checkRetired([3, 2], epoch: 9)
        }
        expectStandardError(of: result, contains: "Signals internal check S6 failed")
    }

    @Test("a thread that unpins with a delivery under way breaks S7")
    func unpinnedWhileDelivering() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            SignalsChecks.checkUnpinned(activeDeliveries: 1, hasPending: false)
        }
        expectStandardError(of: result, contains: "Signals internal check S7 failed")
    }

    @Test("chains connected, fired and removed on several threads pass every check")
    func soundUsePasses() async {
        let signal = Signal<Int>()
        let log = Log<Int>()
        let collection = ObservableCollection()
        signal.fired.noDispatch().then { log.append($0) }.append(to: collection)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<200 {
                        let extra = ObservableCollection()
                        signal.fired.noDispatch().map { $0 + 1 }.then { _ in }.append(to: extra)
                        signal.fire(with: thread * 1_000 + index)
                        extra.removeAll()
                    }
                }
            }
        }
        #expect(log.all.count == 800)
        collection.removeAll()
    }
}
