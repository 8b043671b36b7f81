import TestSupport
import Testing

@testable import ReactiveCore

/// The shared mechanisms' invariant checks (built in with `REACTIVECORE_INTERNAL_CHECKS`) stop
/// the process with the invariant's name. The faults they catch in the mechanisms themselves
/// are the mutants in `.ci/mutants/reactivecore`; these tests damage the bookkeeping by hand to
/// show the checks report. Skipped without the flag; CI runs them with it.
@Suite(
    "Shared mechanisms: invariant checks",
    .enabled(if: ReactiveCoreChecks.isEnabled, "the module is built without REACTIVECORE_INTERNAL_CHECKS"))
struct ReactiveCoreInvariantCheckTests {
    @Test("a broadcaster whose sink count disagrees with its sinks breaks B5")
    func miscountedSinks() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let broadcaster = Broadcaster<Int>()
            _ = broadcaster.add { _ in }
            broadcaster.liveCount += 1
            broadcaster.send(1)
        }
        expectStandardError(of: result, contains: "ReactiveCore internal check B5 failed")
    }

    @Test("a broadcaster idle with accepted values undelivered breaks B1")
    func undeliveredValue() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let broadcaster = Broadcaster<Int>()
            broadcaster.accepted += 1
            _ = broadcaster.add { _ in }
        }
        expectStandardError(of: result, contains: "ReactiveCore internal check B1 failed")
    }

    @Test("an idle serial queue that holds an item breaks B6")
    func idleQueueHoldsItem() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = SerialQueue<Int>()
            queue.items.append(1)
            queue._checkInvariants()
        }
        expectStandardError(of: result, contains: "ReactiveCore internal check B6 failed")
    }

    @Test("sound use of every checked mechanism passes every check")
    func soundUsePasses() {
        var tree = PositionalTree<Int>()
        var reference: [Int] = []
        var queue = ScheduleQueue<Int>()
        var keys: [ScheduleQueue<Int>.Key] = []
        var generator = SeededGenerator(seed: 38)
        for step in 0..<2_000 {
            let index = Int.random(in: 0...reference.count, using: &generator)
            if reference.isEmpty || Bool.random(using: &generator) {
                tree.insert(step, at: index, marked: step.isMultiple(of: 3))
                reference.insert(step, at: index)
                keys.append(queue.insert(step, at: SchedulerInstant(offset: .seconds(step % 17))))
            } else {
                let at = min(index, reference.count - 1)
                #expect(tree.remove(at: at).element == reference.remove(at: at))
                _ = queue.remove(keys.remove(at: Int.random(in: keys.indices, using: &generator)))
            }
        }
        tree._checkInvariants()
        queue._checkInvariants()
        #expect(tree.array == reference)
        #expect(queue.count == keys.count)
    }

    @Test("a zip whose count of empty queues is off breaks S1")
    func zipMiscounted() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = ZipStateMachine<Int>(inputs: 2)
            machine.emptyQueues -= 1
            _ = machine.receive(1, from: 0)
        }
        expectStandardError(of: result, contains: "ReactiveCore internal check S1 failed")
    }

    @Test("a combination whose count of inputs without a value is off breaks S2")
    func combinationMiscounted() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = CombineLatestStateMachine<Int>(inputs: 2)
            machine.missing = 1
            _ = machine.receive(1, from: 1)
        }
        expectStandardError(of: result, contains: "ReactiveCore internal check S2 failed")
    }

    @Test("a merge that runs past its maximum breaks S3")
    func flattenOverfull() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = FlattenStateMachine<Int>(.concat)
            _ = machine.outerSent(1)
            machine.running.append(contentsOf: machine.running)
            machine._checkInvariants()
        }
        expectStandardError(of: result, contains: "ReactiveCore internal check S3 failed")
    }

    @Test("the stream machines pass their checks through random use")
    func streamMachinesStayConsistent() {
        var generator = SeededGenerator(seed: 39)
        var zip = ZipStateMachine<Int>(inputs: 3)
        var latest = CombineLatestStateMachine<Int>(inputs: 3)
        var flatten = FlattenStateMachine<Int>(.merge(maximum: 2))
        for step in 0..<2_000 {
            let input = Int.random(in: 0..<3, using: &generator)
            if zip.receive(step, from: input) != .none, !zip.isFinished { zip.popRow { _, _ in } }
            _ = latest.receive(step, from: input)
            if step % 97 == 0 { _ = zip.inputFinished(input) }
            if Bool.random(using: &generator) {
                _ = flatten.outerSent(step)
            } else if let id = flatten.runningInners.first {
                _ = flatten.innerFinished(id)
            }
        }
        zip._checkInvariants()
        latest._checkInvariants()
        flatten._checkInvariants()
        #expect(flatten.runningInners.count <= 2)
    }
}
