extension SourceType {
    /// A source that sends each value `interval` after this source sent it, in order.
    ///
    /// ```swift
    /// let echoes = clicks.delay(for: .milliseconds(200), scheduler: scheduler)
    /// ```
    ///
    /// The scheduler runs the delays in Glue's isolation domain; disconnecting drops the values
    /// still waiting.
    ///
    /// - Precondition: `interval` is not negative.
    public func delay(for interval: Duration, scheduler: some Scheduler) -> DelayedSource<Self> {
        DelayedSource(base: self, interval: interval, scheduler: scheduler)
    }

    /// A source that sends this source's values until `interval` passes without one
    /// (counted from the subscription, then from each value); then it stops and releases its
    /// subscription to this source.
    ///
    /// ```swift
    /// let progress = updates.timeout(.seconds(30), scheduler: scheduler)
    /// ```
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(_ interval: Duration, scheduler: some Scheduler) -> TimeoutSource<Self> {
        TimeoutSource(base: self, interval: interval, rule: .each, fallback: nil, scheduler: scheduler)
    }

    /// A source that sends this source's values, and stops (releasing its subscription to
    /// this source) if the first one does not come within `interval` of the subscription;
    /// once a value came, it never times out (RxJS's `timeout({ first })`).
    ///
    /// ```swift
    /// let answer = replies.timeout(first: .seconds(5), scheduler: scheduler)
    /// ```
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(first interval: Duration, scheduler: some Scheduler) -> TimeoutSource<Self> {
        TimeoutSource(base: self, interval: interval, rule: .first, fallback: nil, scheduler: scheduler)
    }

    /// A source that sends this source's values until `interval` passes without one, then
    /// releases this source and sends `fallback`'s values instead (RxSwift's
    /// `timeout(_:other:scheduler:)`, RxJS's `timeout({ each, with })`).
    ///
    /// ```swift
    /// let prices = live.timeout(.seconds(10), scheduler: scheduler, switchingTo: cached)
    /// ```
    ///
    /// `fallback` is subscribed when the time runs out, in the timer's turn, and stays
    /// subscribed until the subscription disconnects.
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        _ interval: Duration, scheduler: some Scheduler, switchingTo fallback: some SourceType<Value>
    ) -> TimeoutSource<Self> {
        TimeoutSource(base: self, interval: interval, rule: .each, fallback: fallback.source, scheduler: scheduler)
    }

    /// A source that sends this source's values, or, if the first one does not come within
    /// `interval` of the subscription, releases this source and sends `fallback`'s values
    /// instead (RxJS's `timeout({ first, with })`).
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        first interval: Duration, scheduler: some Scheduler, switchingTo fallback: some SourceType<Value>
    ) -> TimeoutSource<Self> {
        TimeoutSource(base: self, interval: interval, rule: .first, fallback: fallback.source, scheduler: scheduler)
    }

    /// A source that sends this source's values in arrays: a window opens with the first
    /// value after the last array and closes `window` later, or as soon as it holds
    /// `maxCount` values (Combine's `collect(.byTime)` and `.byTimeOrCount`).
    ///
    /// ```swift
    /// let batches = events.collect(for: .seconds(1), maxCount: 100, scheduler: scheduler)
    /// ```
    ///
    /// No array is empty; values in an open window when the subscription disconnects are
    /// dropped.
    ///
    /// - Precondition: `window` is positive; `maxCount`, if given, is at least 1.
    public func collect(for window: Duration, maxCount: Int? = nil, scheduler: some Scheduler) -> WindowedSource<Self> {
        WindowedSource(base: self, window: window, maxCount: maxCount, scheduler: scheduler)
    }
}

/// A source of delayed values; made by ``SourceType/delay(for:scheduler:)``.
public struct DelayedSource<Base: SourceType>: SourceType {
    let base: Base
    /// How long each value waits.
    public let interval: Duration
    let scheduler: any Scheduler

    init(base: Base, interval: Duration, scheduler: some Scheduler) {
        precondition(interval >= .zero, "Glue: delay needs an interval of zero or more, got \(interval)")
        self.base = base
        self.interval = interval
        self.scheduler = scheduler
    }

    /// Starts sending the delayed values to `sink`.
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        let pending = ScheduledWork()
        let upstream = base.subscribe { [interval, scheduler] value in
            pending.schedule(on: scheduler, at: scheduler.now + interval) { sink(value) }
        }
        return Connection(isolated: {
            upstream.disconnect()
            pending.cancelAll()
        })
    }
}

/// A source that stops, or switches to a fallback, when its base is silent too long; made
/// by ``SourceType/timeout(_:scheduler:)``, ``SourceType/timeout(first:scheduler:)`` and their
/// `switchingTo:` forms.
///
/// Each subscription times on its own, by ReactiveCore's `TimeoutStateMachine`.
public struct TimeoutSource<Base: SourceType>: SourceType {
    let base: Base
    /// How long the base may be silent.
    public let interval: Duration
    /// Which silence counts: before any value (`.first`), or between any two (`.each`).
    public let rule: TimeoutStateMachine.Rule
    let fallback: Source<Base.Value>?
    let scheduler: any Scheduler

    init(
        base: Base, interval: Duration, rule: TimeoutStateMachine.Rule, fallback: Source<Base.Value>?,
        scheduler: some Scheduler
    ) {
        // Checks the interval where the operator is written.
        _ = TimeoutStateMachine(interval: interval)
        self.base = base
        self.interval = interval
        self.rule = rule
        self.fallback = fallback
        self.scheduler = scheduler
    }

    /// Starts sending values to `sink` until the base is silent for the interval (then the
    /// fallback's, if there is one).
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        let link = TimeoutLink(
            machine: TimeoutStateMachine(interval: interval, rule: rule), fallback: fallback, scheduler: scheduler,
            sink: sink)
        let connection = Connection(isolated: { link.end() })
        link.connection.set(connection)
        link.connect(base)
        return connection
    }
}

private final class TimeoutLink<Value> {
    private var machine: TimeoutStateMachine
    private let fallback: Source<Value>?
    private let scheduler: any Scheduler
    private let sink: (Value) -> Void
    private var upstream: Connection?
    private var fallbackConnection: Connection?
    private var timer: Connection?
    private var hasEnded = false
    /// The subscriber's connection, disconnected at the timeout so that it reports the stop.
    /// Its action (``end()``) releases it first.
    var connection = SelfConnection()

    init(
        machine: TimeoutStateMachine, fallback: Source<Value>?, scheduler: any Scheduler,
        sink: @escaping (Value) -> Void
    ) {
        self.machine = machine
        self.fallback = fallback
        self.scheduler = scheduler
        self.sink = sink
    }

    func connect(_ base: some SourceType<Value>) {
        start(machine.start(at: scheduler.now))
        let connection = base.subscribe { value in
            // Assigning releases the connection of the timer replaced, which cancels it.
            self.timer = self.machine.receive(at: self.scheduler.now).map(self.schedule)
            if !self.machine.isFinished { self.sink(value) }
        }
        if machine.isFinished { connection.disconnect() } else { upstream = connection }
    }

    private func start(_ timer: StreamTimer) {
        self.timer = schedule(timer)
    }

    private func schedule(_ timer: StreamTimer) -> Connection {
        scheduler.schedule(
            at: timer.deadline,
            isolated: { [weak self] in
                guard let self, self.machine.timerFired(timer) else { return }
                self.timedOut()
            })
    }

    private func timedOut() {
        timer = nil
        guard let fallback else {
            if let connection = connection.take() { connection.disconnect() } else { end() }
            return
        }
        let released = upstream
        upstream = nil
        released?.disconnect()
        let connection = fallback.subscribe { self.sink($0) }
        // A sink that disconnected while the fallback was subscribed ended the link already.
        if hasEnded { connection.disconnect() } else { fallbackConnection = connection }
    }

    func end() {
        hasEnded = true
        connection.release()
        machine.finish()
        timer = nil
        let connections = [upstream, fallbackConnection]
        upstream = nil
        fallbackConnection = nil
        for connection in connections { connection?.disconnect() }
    }
}

/// A source of arrays gathered over time windows; made by
/// ``SourceType/collect(for:maxCount:scheduler:)``.
public struct WindowedSource<Base: SourceType>: SourceType {
    let base: Base
    /// How long a window stays open.
    public let window: Duration
    /// The most values a window holds, if limited.
    public let maxCount: Int?
    let scheduler: any Scheduler

    init(base: Base, window: Duration, maxCount: Int?, scheduler: some Scheduler) {
        // Checks the window and the count where the operator is written.
        _ = WindowStateMachine<Base.Value>(window: window, maxCount: maxCount)
        self.base = base
        self.window = window
        self.maxCount = maxCount
        self.scheduler = scheduler
    }

    /// Starts sending arrays to `sink`; each subscription gathers on its own.
    public func subscribe(_ sink: @escaping ([Base.Value]) -> Void) -> Connection {
        var machine = WindowStateMachine<Base.Value>(window: window, maxCount: maxCount)
        let timer = TimerSlot()
        let scheduler = scheduler
        let upstream = base.subscribe { value in
            switch machine.receive(value, at: scheduler.now) {
            case .none:
                break
            case .startTimer(let window):
                timer.connection = scheduler.schedule(
                    at: window.deadline,
                    isolated: {
                        if let values = machine.timerFired(window) { sink(values) }
                    })
            case .emit(let values):
                timer.connection = nil
                sink(values)
            }
        }
        return Connection(isolated: {
            upstream.disconnect()
            timer.connection = nil
        })
    }
}
