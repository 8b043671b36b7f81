import Dispatch

/// A timer that fires once, after a delay: a time-triggered `Signal<Void>`.
///
/// ```swift
/// let timer = OnceOnlyTimer()
/// timer.fired.then { print("Waited for 10 seconds.") }.append(to: observables)
/// timer.fire(after: .seconds(10))
/// ```
///
/// Each ``fire(after:)`` invalidates the pending one first. Time comes from a `Scheduler`:
/// real time by default, a `TestScheduler` in tests.
public final class OnceOnlyTimer: Sendable {
    /// The endpoint modifiers connect to.
    public let fired = Endpoint<Void>()
    private let scheduler: any Scheduler
    /// The pending firing and its number; a firing clears it only if no later one replaced it.
    private let pending = LockedState<(connection: Connection?, generation: Int)>((nil, 0))

    /// A timer on `scheduler`'s time.
    public init(scheduler: some Scheduler = DispatchScheduler(queue: .global())) {
        self.scheduler = scheduler
    }

    /// Fires once, `delay` from now; cancels the pending firing, if any.
    public func fire(after delay: Duration) {
        let generation = pending.withLock { pending in
            pending.generation += 1
            return pending.generation
        }
        let connection = scheduler.schedule(after: delay) { [weak self] in
            guard let self else { return }
            // Pinned before the check: a wait for deliveries under way after `invalidate()`
            // covers a firing that passed it (the lock orders the two).
            DeliveryContext.pinned {
                let isCurrent = pending.withLock { pending in
                    guard pending.generation == generation else { return false }
                    pending.connection = nil
                    return true
                }
                if isCurrent { fired.fire(()) }
            }
        }
        let previous = pending.withLock { pending -> Connection? in
            guard pending.generation == generation else { return connection }
            defer { pending.connection = connection }
            return pending.connection
        }
        previous?.disconnect()
    }

    /// Cancels the pending firing, if any.
    public func invalidate() {
        let previous = pending.withLock { pending in
            pending.generation += 1
            defer { pending.connection = nil }
            return pending.connection
        }
        previous?.disconnect()
    }

    /// Whether a firing is pending.
    public var isPending: Bool {
        pending.withLock { $0.connection != nil }
    }
}

/// A timer that fires at every interval while active: a time-triggered `Signal<Void>`.
///
/// ```swift
/// let timer = PeriodicTimer(interval: .seconds(10))
/// timer.fired.then { print("Timer has been triggered") }.append(to: observables)
/// timer.activate()
/// ```
public final class PeriodicTimer: Sendable {
    /// The endpoint modifiers connect to.
    public let fired = Endpoint<Void>()
    /// The time between firings.
    public let interval: Duration
    private let scheduler: any Scheduler
    /// The running timer's connection, and a count of activations and invalidations: a tick
    /// fires only if no other came since its activation.
    private let repeating = LockedState<(connection: Connection?, generation: Int)>((nil, 0))

    /// A timer that fires every `interval` on `scheduler`'s time once activated.
    ///
    /// - Precondition: `interval` is greater than zero.
    public init(interval: Duration, scheduler: some Scheduler = DispatchScheduler(queue: .global())) {
        precondition(interval > .zero, "PeriodicTimer needs a positive interval, got \(interval)")
        self.interval = interval
        self.scheduler = scheduler
    }

    /// Starts firing every interval, the first one interval from now; restarts if active.
    public func activate() {
        let (fired, repeating) = (fired, repeating)
        let generation = repeating.withLock { state in
            state.generation += 1
            return state.generation
        }
        let connection = scheduler.schedule(every: interval) {
            // Pinned before the check, as `OnceOnlyTimer`'s firing is.
            DeliveryContext.pinned {
                if repeating.withLock({ $0.generation == generation }) { fired.fire(()) }
            }
        }
        let previous = repeating.withLock { state -> Connection? in
            guard state.generation == generation else { return connection }
            defer { state.connection = connection }
            return state.connection
        }
        previous?.disconnect()
    }

    /// Stops firing: no tick fires after this returns. A tick already firing on another thread
    /// may still be delivering; ``ObservableCollection/waitForDeliveriesUnderWay()`` waits for it.
    public func invalidate() {
        repeating.withLock { state -> Connection? in
            state.generation += 1
            defer { state.connection = nil }
            return state.connection
        }?.disconnect()
    }

    /// Whether the timer is firing.
    public var isActive: Bool {
        repeating.withLock { $0.connection?.isConnected ?? false }
    }
}
