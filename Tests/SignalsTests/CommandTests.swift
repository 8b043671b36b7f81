import Dispatch
import Signals
import Synchronization
import TestSupport
import Testing

/// Holds executions until the test lets each go: an execution waits for one `open()` (unlike
/// TestSupport's `Gate`, which lets every waiter through once it opens).
private final class Turnstile: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    /// How many executions have reached the gate.
    let arrived = Atomic(0)

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    /// Waits until the test opens the gate once (or the waiting task is cancelled).
    func pass() async {
        arrived.add(1, ordering: .relaxed)
        for await _ in stream { return }
    }

    func open() { continuation.yield() }
}

private struct Refused: Error, Equatable {}

@Suite("Command: one execution at a time, with enabled and executing states")
struct CommandTests {
    @Test("apply runs the work: executing meanwhile, then the value, then not executing")
    func applies() async throws {
        let gate = Turnstile()
        let command = Command { (input: Int) in
            await gate.pass()
            return input * 2
        }
        let log = Log<String>()
        let observables = ObservableCollection()
        command.values.noDispatch().then { log.append("value \($0), executing \(command.isExecuting.value)") }
            .append(to: observables)
        command.isExecuting.didSet.noDispatch().then { log.append("executing \($0)") }.append(to: observables)
        #expect(command.isEnabled.value && !command.isExecuting.value)
        let task = command.apply(21)
        #expect(command.isExecuting.value && !command.isEnabled.value)
        gate.open()
        #expect(try await task.value == 42)
        #expect(!command.isExecuting.value && command.isEnabled.value)
        // The value comes while the command still executes, then executing turns false.
        #expect(log.all == ["executing false", "executing true", "value 42, executing true", "executing false"])
        observables.removeAll()
    }

    @Test("an apply while an execution runs, or while the condition is false, is refused and runs nothing")
    func refused() async throws {
        let gate = Turnstile()
        let condition = Property(value: true)
        let runs = Atomic(0)
        let command = Command(enabledIf: condition) { (input: Int) in
            runs.add(1, ordering: .relaxed)
            await gate.pass()
            return input
        }
        let errors = Log<String>()
        let observables = ObservableCollection()
        command.errors.noDispatch().then { errors.append("\($0)") }.append(to: observables)
        let first = command.apply(1)
        await #expect(throws: CommandError.disabled) { try await command.apply(2).value }
        gate.open()
        #expect(try await first.value == 1)
        condition.value = false
        #expect(!command.isEnabled.value)
        await #expect(throws: CommandError.disabled) { try await command.apply(3).value }
        condition.value = true
        #expect(command.isEnabled.value)
        let third = command.apply(4)
        gate.open()
        #expect(try await third.value == 4)
        #expect(runs.load(ordering: .relaxed) == 2)
        // A refusal is not an execution's error.
        #expect(errors.all.isEmpty)
        observables.removeAll()
    }

    @Test("an execution that throws sends its error, then the command is enabled again")
    func failure() async throws {
        let command = Command { (fail: Bool) in
            if fail { throw Refused() }
            return "done"
        }
        let errors = Log<Bool>()
        let observables = ObservableCollection()
        command.errors.noDispatch().then { errors.append($0 is Refused) }.append(to: observables)
        await #expect(throws: Refused.self) { try await command.apply(true).value }
        #expect(errors.all == [true])
        #expect(command.isEnabled.value)
        #expect(try await command.apply(false).value == "done")
        observables.removeAll()
    }

    @Test("cancelling the task cancels the execution; its error is sent, and the command is enabled again")
    func cancellation() async {
        let gate = Turnstile()
        let command = Command { (_: Void) in
            await gate.pass()
            try Task.checkCancellation()
            return 1
        }
        let errors = Log<Bool>()
        let observables = ObservableCollection()
        command.errors.noDispatch().then { errors.append($0 is CancellationError) }.append(to: observables)
        let task = command.apply()
        #expect(await eventually({ gate.arrived.load(ordering: .relaxed) == 1 }))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(errors.all == [true])
        #expect(!command.isExecuting.value)
        observables.removeAll()
    }

    @Test("a handler of the values that applies again inline is refused; one on the executing state's end is not")
    func reentrantApply() async throws {
        let inputs = Log<Int>()
        let command = Command { (input: Int) in
            inputs.append(input)
            return input
        }
        let fromValues = LockedState<Task<Int, any Error>?>(nil)
        let fromEnd = LockedState<Task<Int, any Error>?>(nil)
        let observables = ObservableCollection()
        command.values.noDispatch().then { value in
            if value == 1 { fromValues.withLock { $0 = command.apply(10) } }
        }.append(to: observables)
        command.isExecuting.didSet.noDispatch().then { executing in
            guard !executing, command.values.lastMessage == 1 else { return }
            fromEnd.withLock { task in if task == nil { task = command.apply(2) } }
        }.append(to: observables)
        #expect(try await command.apply(1).value == 1)
        let refused = try #require(fromValues.withLock { $0 })
        await #expect(throws: CommandError.disabled) { try await refused.value }
        let accepted = try #require(fromEnd.withLock { $0 })
        #expect(try await accepted.value == 2)
        #expect(inputs.all == [1, 2])
        observables.removeAll()
    }

    @Test("applies racing on many threads: exactly one starts while it runs, and every value is sent once")
    func racingApplies() async throws {
        for round in 0..<20 {
            let gate = Turnstile()
            let runs = Atomic(0)
            let command = Command { (input: Int) in
                runs.add(1, ordering: .relaxed)
                await gate.pass()
                return input
            }
            let values = Log<Int>()
            let observables = ObservableCollection()
            command.values.noDispatch().then { values.append($0) }.append(to: observables)
            let tasks = LockedState<[Task<Int, any Error>]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { lane in
                let task = command.apply(lane)
                tasks.withLock { $0.append(task) }
            }
            gate.open()
            var succeeded: [Int] = []
            var refused = 0
            for task in tasks.withLock({ $0 }) {
                do { succeeded.append(try await task.value) } catch {
                    refused += (error as? CommandError) == .disabled ? 1 : 0
                }
            }
            #expect(succeeded.count == 1 && refused == 7, "round \(round)")
            #expect(runs.load(ordering: .relaxed) == 1, "round \(round)")
            #expect(values.all == succeeded, "round \(round)")
            #expect(!command.isExecuting.value && command.isEnabled.value, "round \(round)")
            observables.removeAll()
        }
    }

    @Test("a command and its condition are freed once nothing holds them and no execution runs")
    func lifetime() async throws {
        weak var weakCommand: Command<Int, Int>?
        weak var weakCondition: Property<Bool>?
        let gate = Turnstile()
        var task: Task<Int, any Error>?
        do {
            let condition = Property(value: true)
            let command = Command(enabledIf: condition) { (input: Int) in
                await gate.pass()
                return input
            }
            weakCommand = command
            weakCondition = condition
            task = command.apply(7)
        }
        // The execution holds the command until it ends.
        #expect(weakCommand != nil)
        gate.open()
        #expect(try await task?.value == 7)
        task = nil
        #expect(await eventually({ weakCommand == nil }))
        #expect(weakCondition == nil)
    }
}
