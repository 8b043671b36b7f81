import TestSupport
import Testing

@testable import Resin

/// The engine's invariant checks (built in with `RESIN_INTERNAL_CHECKS`) stop the process with
/// the invariant's name. The faults they catch in the engine itself are the mutants in
/// `.ci/mutants/resin`; these tests show the checks report. Skipped without the flag; CI runs
/// them with it.
@Suite(
    "Engine: invariant checks",
    .enabled(if: Engine._isCheckingInvariants, "the module is built without RESIN_INTERNAL_CHECKS"))
struct ResinInvariantCheckTests {
    @Test("registrations whose tokens are out of order break R1")
    func tokensOutOfOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let list = RegistrationList<Int>()
            list.append(1, token: 5)
            list.append(2, token: 3)
            list._checkInvariants(below: 10)
        }
        expectStandardError(of: result, contains: "Resin internal check R1 failed")
    }
}
