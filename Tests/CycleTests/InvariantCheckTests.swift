import ReactiveCore
import TestSupport
import Testing

@testable import Cycle

/// The loop's invariant checks (built in with `CYCLE_INTERNAL_CHECKS`) stop the process with
/// the invariant's name. The faults they catch in the loop itself are the mutants in
/// `.ci/mutants/cycle`; these tests show the checks report. Skipped without the flag; CI runs
/// them with it.
@Suite(
    "Loop: invariant checks",
    .enabled(if: CycleChecks.isEnabled, "the module is built without CYCLE_INTERNAL_CHECKS"))
struct CycleInvariantCheckTests {
    @Test("a closed inbox that still holds a message breaks C5")
    func closedInboxHoldsMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var state = Inbox<Int>.State()
            state.isClosed = true
            state.messages = [1]
            state.checkInvariants()
        }
        expectStandardError(of: result, contains: "Cycle internal check C5 failed")
    }

    /// A program whose driver reports at once while it is wired and again from inside every
    /// rendering: the reentrant case for C1 and C2.
    private struct Echo: SinkSourceConverting {
        let echoes: Int
        func start() -> (Int, [Int]) { (0, []) }
        func effectsFrom(events: EventStream<(Int, [Int])>) -> EventStream<[Int]> {
            events.map { event, models in models + [event] }
        }
        func eventsFrom(effects: EventStream<[Int]>) -> EventStream<Int> {
            let echoes = echoes
            return EventStream { sink in
                sink(-1)
                return effects.subscribe { models in
                    if let last = models.last, last >= 0, last < echoes { sink(last + 1) }
                }
            }
        }
    }

    @Test("a loop whose driver reports while wired and while rendering passes every check")
    func soundUsePasses() {
        let loop = CycleLoop(program: Echo(echoes: 50))
        #expect(loop.currentModels.first == 0)
        #expect(loop.currentModels.contains(-1))
        #expect(Array(loop.currentModels.filter { $0 >= 0 }) == Array(0...50))
        let processed = loop.processedEvents
        #expect(processed == 52)
        loop.dispose()
        loop.receive(999)
        #expect(loop.processedEvents == processed)
        #expect(!loop.currentModels.contains(999))
    }
}
