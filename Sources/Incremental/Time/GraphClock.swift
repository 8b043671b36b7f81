/// Time as inputs of an incremental graph, driven by a `Scheduler` (Jane Street's clock).
///
/// Named `GraphClock`, not `Clock`, so that importing Incremental does not hide the standard
/// library's `Clock` protocol.
///
/// ```swift
/// let clock = GraphClock(graph: graph, scheduler: scheduler)
/// let isLate = clock.after(.seconds(30)).map { $0 == .after }
/// let price = clock.stepFunction(initial: 10, steps: [(start + .seconds(60), 12)])
/// ```
///
/// Each time-dependent value is an input the clock writes when its instant arrives, so
/// propagation stays glitch-free: everything that depends on time changes in the same
/// propagation. The scheduler runs that work in the graph's isolation domain: a
/// `TestScheduler` advanced from that domain, or a `DispatchScheduler` on the queue that is
/// the domain.
///
/// The clock has no continuously changing "now" node: a value that changed every instant
/// would recompute everything that reads it at every tick. Ask for the instants that
/// matter with ``at(_:)``, ``after(_:)``, ``stepFunction(initial:steps:)`` and
/// ``snapshot(_:at:before:)``, or read
/// ``now`` when you need it; ``watchNow()`` changes only at those instants, and
/// ``atIntervals(_:)`` makes them regular.
public final class GraphClock {
    /// The graph the clock's values belong to.
    public let graph: Graph
    /// The scheduler whose time the clock follows.
    public let scheduler: any Scheduler

    /// Creates a clock for `graph` on `scheduler`'s time.
    public init(graph: Graph, scheduler: some Scheduler) {
        self.graph = graph
        self.scheduler = scheduler
    }

    /// The scheduler's current time.
    public var now: SchedulerInstant { scheduler.now }

    /// Whether the clock is before or after an instant.
    public enum BeforeOrAfter: Equatable, Sendable {
        /// The instant has not arrived.
        case before
        /// The instant has arrived or passed.
        case after
    }

    /// `.before` until `instant`, `.after` from then on.
    public func at(_ instant: SchedulerInstant) -> I<BeforeOrAfter> {
        stepFunction(initial: BeforeOrAfter.before, steps: [(instant, .after)])
    }

    /// `.before` until `duration` from now, `.after` from then on.
    public func after(_ duration: Duration) -> I<BeforeOrAfter> {
        at(now + duration)
    }

    /// `initial` until the first step's instant, then each step's value from its instant
    /// on. Steps whose instant has passed apply at once, in order.
    ///
    /// - Precondition: `steps` are in increasing order of instant.
    public func stepFunction<Value>(initial: Value, steps: [(SchedulerInstant, Value)]) -> I<Value> {
        precondition(
            zip(steps, steps.dropFirst()).allSatisfy { $0.0 <= $1.0 },
            "GraphClock.stepFunction: the steps must be in increasing order of instant")
        let now = now
        let current = steps.last { $0.0 <= now }?.1 ?? initial
        let input = TimedInput(graph: graph, value: current, clock: self)
        for (instant, value) in steps where instant > now {
            input.keys.append(register(at: instant) { [weak input] in input?.write(value) })
        }
        return input
    }

    /// The value of a step function at the clock's time, where the step function is itself
    /// a value of the graph (Jane Street's `incremental_step_function`).
    ///
    /// ```swift
    /// let schedule = graph.input(StepFunction(initial: 10, steps: [(start + .seconds(60), 12)]))
    /// let price = clock.stepFunction(schedule)   // follows a new schedule as soon as it is written
    /// ```
    ///
    /// When `steps` changes, the new step function applies at once, from the clock's present
    /// time (steps already past apply at once), and the old one's timers are cancelled.
    ///
    /// - Precondition: Each step function's steps are in increasing order of instant.
    public func stepFunction<Value>(_ steps: I<StepFunction<Value>>) -> I<Value> {
        steps.flatMap { [unowned self] function in stepFunction(initial: function.initial, steps: function.steps) }
    }

    /// The clock's time as of the last instant it acted at (Jane Street's `watch_now`).
    ///
    /// ```swift
    /// let ticks = clock.atIntervals(.seconds(1))
    /// let now = clock.watchNow()                    // changes with every tick
    /// let elapsed = map(ticks, now) { _, now in start.duration(to: now) }
    /// ```
    ///
    /// The clock acts at the instants its values ask for (``at(_:)``, ``after(_:)``, step
    /// functions, ``atIntervals(_:)``, ``snapshot(_:at:before:)``): each time, in the same
    /// propagation as their changes, this value becomes that instant. Between them it keeps
    /// the last one: a value that changed at every instant would recompute everything that
    /// reads it at every tick.
    public func watchNow() -> I<SchedulerInstant> {
        let input = TimedInput(graph: graph, value: now, clock: self)
        nowWatchers.append(WeakTimedInput(input: input))
        return input
    }

    /// A value that changes at every multiple of `interval` after now: the number of
    /// intervals that have passed (Jane Street's `at_intervals`).
    ///
    /// ```swift
    /// let ticks = clock.atIntervals(.seconds(1))
    /// ```
    ///
    /// If the clock's scheduler passes several multiples at once, the count jumps to the
    /// number passed, in one change. The timers stop when the value is freed.
    ///
    /// - Precondition: `interval` is positive.
    public func atIntervals(_ interval: Duration) -> I<Int> {
        precondition(interval > .zero, "GraphClock.atIntervals: the interval must be positive")
        let base = now
        let input = TimedInput(graph: graph, value: 0, clock: self)
        scheduleTick(of: input, base: base, interval: interval, count: 0)
        return input
    }

    /// Registers the next tick of an `atIntervals` value: the first multiple of `interval`
    /// after both `count` intervals and the present time.
    private func scheduleTick(of input: TimedInput<Int>, base: SchedulerInstant, interval: Duration, count: Int) {
        let passed = Int(base.duration(to: now) / interval)
        let next = Swift.max(count, passed) + 1
        let instant = base + interval * next
        input.keys = [
            register(at: instant) { [weak self, weak input] in
                guard let self, let input else { return }
                // A scheduler that runs late may have passed more multiples than this one.
                let count = Swift.max(next, Int(base.duration(to: now) / interval))
                input.write(count)
                scheduleTick(of: input, base: base, interval: interval, count: count)
            }
        ]
    }

    /// `before` until `instant`, then the value `node` has then, for good (Jane Street's
    /// `snapshot`).
    ///
    /// ```swift
    /// let openingPrice = clock.snapshot(price, at: marketOpens, before: 0)
    /// ```
    ///
    /// At `instant`, `node` is read in the propagation of the clock's changes due then, after
    /// they apply, so it is current with them. `node` is needed at that instant only; the
    /// snapshot does not keep it necessary before or after. If `node` holds an error then, the
    /// snapshot holds it for good.
    ///
    /// - Precondition: `instant` is not before the clock's present time.
    public func snapshot<Value>(_ node: I<Value>, at instant: SchedulerInstant, before: Value) -> I<Value> {
        precondition(instant >= now, "GraphClock.snapshot: the instant is in the past")
        precondition(node.graph === graph, "GraphClock.snapshot: the node belongs to another graph")
        let taken = TimedInput<Result<Value, any Error>>(graph: graph, value: .success(before), clock: self)
        taken.setCutoff(.alwaysPropagate)
        let read: () -> Void = { [weak taken] in taken?.write(node.result) }
        taken.keys.append(register(at: instant, late: true, read))
        return taken.map { try $0.get() }.setCutoff(.alwaysPropagate)
    }

    // MARK: Writes due at an instant

    private struct Due {
        var writes: [Int: () -> Void] = [:]
        /// Writes that read the graph (snapshots): run after `writes`, in the same batch.
        var lateWrites: [Int: () -> Void] = [:]
        var timer: Connection?
    }

    private var due: [SchedulerInstant: Due] = [:]
    private var nextKey = 0
    /// The values of ``watchNow()``, written at every instant the clock acts at.
    private var nowWatchers: [WeakTimedInput] = []

    /// Registers `write` to run at `instant`, together with every other write due then;
    /// `late` ones run after the others.
    private func register(
        at instant: SchedulerInstant, late: Bool = false, _ write: @escaping () -> Void
    ) -> (SchedulerInstant, Int) {
        let key = nextKey
        nextKey += 1
        if due[instant] == nil {
            let timer = scheduler.schedule(at: instant, isolated: { [weak self] in self?.fire(at: instant) })
            due[instant] = Due(timer: timer)
        }
        if late {
            due[instant]!.lateWrites[key] = write
        } else {
            due[instant]!.writes[key] = write
        }
        return (instant, key)
    }

    /// Forgets a registered write; the instant's timer goes when its last write does.
    func unregister(_ registration: (SchedulerInstant, Int)) {
        let (instant, key) = registration
        due[instant]?.writes[key] = nil
        due[instant]?.lateWrites[key] = nil
        if due[instant].map({ $0.writes.isEmpty && $0.lateWrites.isEmpty }) == true {
            due[instant]?.timer?.disconnect()
            due[instant] = nil
        }
    }

    /// Applies every write due at `instant` in one batch: one propagation for all of them,
    /// with the ``watchNow()`` values set to `instant` and the snapshots taken last.
    private func fire(at instant: SchedulerInstant) {
        guard let entry = due.removeValue(forKey: instant) else { return }
        graph.batch {
            nowWatchers.removeAll { $0.input == nil }
            for watcher in nowWatchers { watcher.input?.write(instant) }
            for key in entry.writes.keys.sorted() { entry.writes[key]?() }
            for key in entry.lateWrites.keys.sorted() { entry.lateWrites[key]?() }
        }
    }
}

/// A step function as a value: `initial` until the first step's instant, then each step's
/// value from its instant on (see ``GraphClock/stepFunction(_:)``).
public struct StepFunction<Value> {
    /// The value before the first step.
    public var initial: Value
    /// The steps, in increasing order of instant.
    public var steps: [(SchedulerInstant, Value)]

    /// A step function with `initial` and `steps`.
    public init(initial: Value, steps: [(SchedulerInstant, Value)]) {
        self.initial = initial
        self.steps = steps
    }
}

/// A ``GraphClock/watchNow()`` value, held weakly by its clock.
private struct WeakTimedInput {
    weak var input: TimedInput<SchedulerInstant>?
}

/// An input written by a clock; releasing it unregisters its pending steps.
final class TimedInput<Value>: Input<Value> {
    let clock: GraphClock
    var keys: [(SchedulerInstant, Int)] = []

    init(graph: Graph, value: Value, clock: GraphClock) {
        self.clock = clock
        super.init(graph: graph, value: value)
    }

    deinit {
        for key in keys { clock.unregister(key) }
    }
}
