extension EventStream {
    /// Each value, and the end, `interval` after this stream sent it, in order.
    ///
    /// ```swift
    /// let echoes = clicks.delay(for: .milliseconds(200), scheduler: scheduler)
    /// ```
    ///
    /// The scheduler runs the delays in the loop's domain; disconnecting drops what still
    /// waits.
    ///
    /// - Precondition: `interval` is not negative.
    public func delay(for interval: Duration, scheduler: some Scheduler) -> EventStream<Value> {
        precondition(interval >= .zero, "Cycle: delay needs an interval of zero or more, got \(interval)")
        return EventStream(subscribeEvents: { sink in
            let pending = ScheduledWork()
            let upstream = subscribe(events: { event in
                pending.schedule(on: scheduler, at: scheduler.now + interval) { sink(event) }
            })
            return Connection(isolated: {
                upstream.disconnect()
                pending.cancelAll()
            })
        })
    }

    /// This stream's events until `interval` passes without a value (counted from the
    /// subscription, then from each value); then the end.
    ///
    /// ```swift
    /// let progress = updates.timeout(.seconds(30), scheduler: scheduler)
    /// ```
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(_ interval: Duration, scheduler: some Scheduler) -> EventStream<Value> {
        timedOut(interval, rule: .each, fallback: nil, scheduler: scheduler)
    }

    /// This stream's events, or the end if the first value does not come within `interval`
    /// of the subscription; once a value came, it never times out (RxJS's
    /// `timeout({ first })`).
    ///
    /// ```swift
    /// let answer = replies.timeout(first: .seconds(5), scheduler: scheduler)
    /// ```
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(first interval: Duration, scheduler: some Scheduler) -> EventStream<Value> {
        timedOut(interval, rule: .first, fallback: nil, scheduler: scheduler)
    }

    /// This stream's events until `interval` passes without a value; then this stream is
    /// released and `fallback`'s events follow, its end included (RxSwift's
    /// `timeout(_:other:scheduler:)`, RxJS's `timeout({ each, with })`).
    ///
    /// ```swift
    /// let prices = live.timeout(.seconds(10), scheduler: scheduler, switchingTo: cached)
    /// ```
    ///
    /// `fallback` is subscribed when the time runs out, in the timer's turn.
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        _ interval: Duration, scheduler: some Scheduler, switchingTo fallback: EventStream<Value>
    ) -> EventStream<Value> {
        timedOut(interval, rule: .each, fallback: fallback, scheduler: scheduler)
    }

    /// This stream's events, or, if the first value does not come within `interval` of the
    /// subscription, `fallback`'s events instead, this stream released (RxJS's
    /// `timeout({ first, with })`).
    ///
    /// - Precondition: `interval` is positive.
    public func timeout(
        first interval: Duration, scheduler: some Scheduler, switchingTo fallback: EventStream<Value>
    ) -> EventStream<Value> {
        timedOut(interval, rule: .first, fallback: fallback, scheduler: scheduler)
    }

    private func timedOut(
        _ interval: Duration, rule: TimeoutStateMachine.Rule, fallback: EventStream<Value>?, scheduler: some Scheduler
    ) -> EventStream<Value> {
        // Checks the interval where the operator is written.
        _ = TimeoutStateMachine(interval: interval)
        return EventStream(subscribeEvents: { sink in
            var machine = TimeoutStateMachine(interval: interval, rule: rule)
            let timer = TimerSlot()
            // This stream's subscription, and the fallback's once the time ran out.
            let upstream = TimerSlot()
            let fallbackConnection = TimerSlot()
            var hasEnded = false
            func timedOut() {
                guard let fallback else { return sink(.completion(.finished)) }
                upstream.connection?.disconnect()
                upstream.connection = nil
                let connection = fallback.subscribe(events: sink)
                // A subscriber that disconnected while the fallback was subscribed ended it.
                if hasEnded { connection.disconnect() } else { fallbackConnection.connection = connection }
            }
            func start(_ deadline: StreamTimer) {
                timer.connection = scheduler.schedule(
                    at: deadline.deadline,
                    isolated: {
                        guard machine.timerFired(deadline) else { return }
                        timer.connection = nil
                        timedOut()
                    })
            }
            start(machine.start(at: scheduler.now))
            let connection = subscribe(events: { event in
                guard !machine.isFinished else { return }
                switch event {
                case .value:
                    if let deadline = machine.receive(at: scheduler.now) {
                        start(deadline)
                    } else {
                        timer.connection = nil
                    }
                case .completion:
                    machine.finish()
                    timer.connection = nil
                }
                sink(event)
            })
            upstream.connection = connection
            return Connection(isolated: {
                hasEnded = true
                timer.connection = nil
                for slot in [upstream, fallbackConnection] {
                    slot.connection?.disconnect()
                    slot.connection = nil
                }
            })
        })
    }

    /// This stream's values in arrays: a window opens with the first value after the last
    /// array and closes `window` later, or as soon as it holds `maxCount` values; when the
    /// stream ends, the open window's values go out before the end.
    ///
    /// ```swift
    /// let batches = events.collect(for: .seconds(1), maxCount: 100, scheduler: scheduler)
    /// ```
    ///
    /// - Precondition: `window` is positive; `maxCount`, if given, is at least 1.
    public func collect(for window: Duration, maxCount: Int? = nil, scheduler: some Scheduler) -> EventStream<[Value]> {
        // Checks the window and the count where the operator is written.
        _ = WindowStateMachine<Value>(window: window, maxCount: maxCount)
        return EventStream<[Value]>(subscribeEvents: { sink in
            var machine = WindowStateMachine<Value>(window: window, maxCount: maxCount)
            let timer = TimerSlot()
            let upstream = subscribe(events: { event in
                switch event {
                case .value(let value):
                    switch machine.receive(value, at: scheduler.now) {
                    case .none:
                        break
                    case .startTimer(let deadline):
                        timer.connection = scheduler.schedule(
                            at: deadline.deadline,
                            isolated: {
                                if let values = machine.timerFired(deadline) { sink(.value(values)) }
                            })
                    case .emit(let values):
                        timer.connection = nil
                        sink(.value(values))
                    }
                case .completion(let completion):
                    timer.connection = nil
                    if let values = machine.finish() { sink(.value(values)) }
                    sink(.completion(completion))
                }
            })
            return Connection(isolated: {
                upstream.disconnect()
                timer.connection = nil
            })
        })
    }
}
