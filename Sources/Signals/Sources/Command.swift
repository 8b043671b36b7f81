/// Work that runs for one input at a time, with an enabled state and an executing state that
/// can be observed, and the values and errors of every execution sent to chains
/// (ReactiveSwift's `Action`, ReactiveCocoa's `RACCommand`; named so that it does not collide
/// with Resin's `Action` in a file that imports both).
///
/// ```swift
/// let isValid = form.map { $0.isComplete }
/// let submit = Command(enabledIf: isValid) { (form: Form) in try await api.submit(form) }
/// submit.values.then { receipt in show(receipt) }.append(to: observables)
/// submit.isEnabled.didSet.then { button.isEnabled = $0 }.append(to: observables)
/// submit.apply(form.value)
/// ```
///
/// ``apply(_:)`` starts an execution if the command is enabled: its condition holds and no
/// execution runs. The test and the start are one atomic step, so of the applies racing on many
/// threads exactly one starts; the others are refused with ``CommandError/disabled`` and run
/// nothing. An execution sends its value on ``values`` or its error on ``errors``, then
/// ``isExecuting`` turns false: a later execution's value never comes before an earlier
/// one's. An apply made while the value is being sent (from a handler that runs inline) is
/// refused; observe ``isExecuting``, or await the task of the previous apply, to chain
/// executions.
///
/// Every member is safe to use from any thread. The command holds its condition; an
/// execution holds the command until it ends.
public final class Command<Input: Sendable, Output: Sendable>: Sendable {
    /// Whether an execution runs.
    public let isExecuting: DerivedProperty<Bool>
    /// Whether ``apply(_:)`` would start an execution now: the condition holds and none runs.
    public let isEnabled: DerivedProperty<Bool>
    /// The value of each execution that succeeded, in the order the executions ran.
    public let values: Endpoint<Output>
    /// The error of each execution that threw (a cancelled execution's too), in order. An
    /// apply that was refused sends nothing here.
    public let errors: Endpoint<any Error>

    /// Whether an execution runs; changed only by ``apply(_:)`` (false to true, atomically
    /// with the test) and by the end of that execution (true to false).
    private let executing = Property(value: false)
    private let condition: DerivedProperty<Bool>
    private let work: @Sendable (Input) async throws -> Output

    /// A command that runs `execute` for each input it accepts, while `condition` is true.
    public init<Condition: PropertyProtocol<Bool>>(
        enabledIf condition: Condition, execute: @escaping @Sendable (Input) async throws -> Output
    ) {
        self.condition = DerivedProperty(condition)
        work = execute
        values = Endpoint()
        errors = Endpoint()
        isExecuting = DerivedProperty(executing)
        isEnabled = condition.combineLatest(executing).map { enabled, executing in enabled && !executing }
    }

    /// A command that is enabled whenever no execution runs.
    public convenience init(execute: @escaping @Sendable (Input) async throws -> Output) {
        self.init(enabledIf: Property(value: true), execute: execute)
    }

    /// Starts an execution for `input` if the command is enabled, and returns its task; if it
    /// is not, returns a task that throws ``CommandError/disabled`` and starts nothing.
    ///
    /// Cancelling the task cancels the execution (its work sees `Task.isCancelled`); what it
    /// throws then is sent on ``errors``.
    @discardableResult
    public func apply(_ input: Input) -> Task<Output, any Error> {
        // Read before the test, not under the executing state's lock: the condition's own
        // lock is then never taken inside it.
        let enabled = condition.value
        let started = executing.modify(sendingIf: { executing in
            guard enabled, !executing else { return false }
            executing = true
            return true
        })
        guard started else { return Task { throw CommandError.disabled } }
        return Task { [self] in
            do {
                let output = try await work(input)
                values.fire(output)
                executing.value = false
                return output
            } catch {
                errors.fire(error)
                executing.value = false
                throw error
            }
        }
    }
}

extension Command where Input == Void {
    /// Starts an execution if the command is enabled; see ``apply(_:)``.
    @discardableResult
    public func apply() -> Task<Output, any Error> {
        apply(())
    }
}

/// Why a ``Command`` refused to start.
public enum CommandError: Error, Equatable, Sendable {
    /// The command was disabled: its condition was false, or an execution was running.
    case disabled
}
