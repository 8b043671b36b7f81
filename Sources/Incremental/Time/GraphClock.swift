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
/// matter with ``at(_:)``, ``after(_:)`` and ``stepFunction(initial:steps:)``, or read
/// ``now`` when you need it.
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

    // MARK: Writes due at an instant

    private struct Due {
        var writes: [Int: () -> Void] = [:]
        var timer: Connection?
    }

    private var due: [SchedulerInstant: Due] = [:]
    private var nextKey = 0

    /// Registers `write` to run at `instant`, together with every other write due then.
    private func register(at instant: SchedulerInstant, _ write: @escaping () -> Void) -> (SchedulerInstant, Int) {
        let key = nextKey
        nextKey += 1
        if due[instant] == nil {
            let timer = scheduler.schedule(at: instant, isolated: { [weak self] in self?.fire(at: instant) })
            due[instant] = Due(timer: timer)
        }
        due[instant]!.writes[key] = write
        return (instant, key)
    }

    /// Forgets a registered write; the instant's timer goes when its last write does.
    func unregister(_ registration: (SchedulerInstant, Int)) {
        let (instant, key) = registration
        due[instant]?.writes[key] = nil
        if due[instant]?.writes.isEmpty == true {
            due[instant]?.timer?.disconnect()
            due[instant] = nil
        }
    }

    /// Applies every write due at `instant` in one batch: one propagation for all of them.
    private func fire(at instant: SchedulerInstant) {
        guard let entry = due.removeValue(forKey: instant) else { return }
        graph.batch {
            for key in entry.writes.keys.sorted() { entry.writes[key]?() }
        }
    }
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
