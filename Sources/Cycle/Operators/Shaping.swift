extension EventStream {
    /// `values` sent to each subscriber as it subscribes, then this stream's events.
    ///
    /// ```swift
    /// let queries = typed.prepend("")
    /// ```
    ///
    /// The values go out during `subscribe`, before this stream is subscribed.
    public func prepend(_ values: Value...) -> EventStream<Value> {
        prepend(contentsOf: values)
    }

    /// The elements of `values` sent to each subscriber as it subscribes, then this stream's
    /// events.
    public func prepend(contentsOf values: some Sequence<Value>) -> EventStream<Value> {
        let values = Array(values)
        return EventStream(subscribeEvents: { sink in
            for value in values { sink(.value(value)) }
            return subscribe(events: sink)
        })
    }

    /// The same as ``prepend(_:)``: xstream's spelling.
    public func startWith(_ value: Value) -> EventStream<Value> {
        prepend(value)
    }

    /// This stream's values, then, when it finishes, `values`, then the end.
    ///
    /// ```swift
    /// let log = steps.append("done")
    /// ```
    public func append(_ values: Value...) -> EventStream<Value> {
        append(contentsOf: values)
    }

    /// This stream's values, then, when it finishes, the elements of `values`, then the end.
    public func append(contentsOf values: some Sequence<Value>) -> EventStream<Value> {
        let values = Array(values)
        return EventStream(subscribeEvents: { sink in
            subscribe(events: { event in
                if case .completion = event {
                    for value in values { sink(.value(value)) }
                }
                sink(event)
            })
        })
    }

    /// Each value paired with the one before it; the first value only starts the pairs.
    ///
    /// ```swift
    /// let moves = positions.pairwise().map { from, to in to - from }
    /// ```
    public func pairwise() -> EventStream<(Value, Value)> {
        paired(initial: nil)
    }

    /// The same as ``pairwise()``: ReactiveSwift's spelling.
    public func combinePrevious() -> EventStream<(Value, Value)> {
        pairwise()
    }

    /// Each value paired with the one before it, the first value with `initial`.
    public func combinePrevious(_ initial: Value) -> EventStream<(Value, Value)> {
        paired(initial: initial)
    }

    private func paired(initial: Value?) -> EventStream<(Value, Value)> {
        EventStream<(Value, Value)>(subscribeEvents: { sink in
            var machine = PairwiseStateMachine(initial: initial)
            return subscribe(events: { event in
                switch event {
                case .value(let value): if let pair = machine.receive(value) { sink(.value(pair)) }
                case .completion(let completion): sink(.completion(completion))
                }
            })
        })
    }

    /// The values in arrays of `count`; when the stream finishes, the values gathered since
    /// the last array, if any, as a last, shorter one.
    ///
    /// ```swift
    /// let pages = rows.collect(50)
    /// ```
    ///
    /// - Precondition: `count` is at least 1.
    public func collect(_ count: Int) -> EventStream<[Value]> {
        precondition(count >= 1, "Cycle: collect(_:) needs a count of at least 1, got \(count)")
        return collected(count: count, every: count)
    }

    /// The values in arrays of `count`, a new array starting with every `every`-th value
    /// (RxJS's `bufferCount(count, every)`): with `every` below `count` the arrays overlap, a
    /// sliding window; with `every` above it, the values between arrays are in none. When
    /// the stream finishes, the arrays still open go out, oldest first, before the end.
    ///
    /// ```swift
    /// let windows = samples.collect(count: 3, every: 1)   // [1, 2, 3], [2, 3, 4], ..., [4]
    /// ```
    ///
    /// - Precondition: `count` and `every` are at least 1.
    public func collect(count: Int, every: Int) -> EventStream<[Value]> {
        precondition(count >= 1, "Cycle: collect(count:every:) needs a count of at least 1, got \(count)")
        precondition(every >= 1, "Cycle: collect(count:every:) needs an every of at least 1, got \(every)")
        return collected(count: count, every: every)
    }

    private func collected(count: Int, every: Int) -> EventStream<[Value]> {
        EventStream<[Value]>(subscribeEvents: { sink in
            var machine = CollectStateMachine<Value>(count: count, every: every)
            return subscribe(events: { event in
                switch event {
                case .value(let value):
                    if let batch = machine.receive(value) { sink(.value(batch)) }
                case .completion(let completion):
                    for rest in machine.finish() { sink(.value(rest)) }
                    sink(.completion(completion))
                }
            })
        })
    }

    /// Every value, in one array, when the stream finishes.
    public func collect() -> EventStream<[Value]> {
        reduced([]) { all, value in all.append(value) }
    }

    /// The last value, when the stream finishes (nothing if it sent none).
    public func last() -> EventStream<Value> {
        reduced(nil) { last, value in last = value }.compactMap { $0 }
    }

    /// The result of combining every value into `initial`, when the stream finishes.
    ///
    /// ```swift
    /// let total = purchases.reduce(0, +)
    /// ```
    public func reduce<Result>(
        _ initial: Result, _ next: @escaping (Result, Value) -> Result
    ) -> EventStream<Result> {
        reduced(initial) { result, value in result = next(result, value) }
    }

    /// `initial` updated by every value, sent once when the stream finishes, then the end:
    /// what `collect()`, `last()` and `reduce` share.
    private func reduced<Result>(
        _ initial: Result, _ update: @escaping (inout Result, Value) -> Void
    ) -> EventStream<Result> {
        EventStream<Result>(subscribeEvents: { sink in
            var result = initial
            return subscribe(events: { event in
                switch event {
                case .value(let value): update(&result, value)
                case .completion(let completion):
                    sink(.value(result))
                    sink(.completion(completion))
                }
            })
        })
    }

    /// The running result of combining each value into `initial`, one per value.
    ///
    /// ```swift
    /// let counts = clicks.scan(0) { count, _ in count + 1 }
    /// ```
    public func scan<Result>(
        _ initial: Result, _ next: @escaping (Result, Value) -> Result
    ) -> EventStream<Result> {
        EventStream<Result>(subscribeEvents: { sink in
            var result = initial
            return subscribe(events: { event in
                switch event {
                case .value(let value):
                    result = next(result, value)
                    sink(.value(result))
                case .completion(let completion):
                    sink(.completion(completion))
                }
            })
        })
    }

    /// `seed` as each subscriber subscribes, then the running result of combining each value
    /// into it: xstream's `fold`, the way a Cycle.js program keeps state in a stream.
    ///
    /// ```swift
    /// let count = increments.fold(0) { count, step in count + step }   // 0, then a total per step
    /// ```
    public func fold<Result>(_ seed: Result, _ next: @escaping (Result, Value) -> Result) -> EventStream<Result> {
        scan(seed, next).prepend(seed)
    }

    /// The values, less each one equivalent to the one before it (by `areEquivalent`).
    public func removeDuplicates(by areEquivalent: @escaping (Value, Value) -> Bool) -> EventStream<Value> {
        EventStream(subscribeEvents: { sink in
            var previous: Value?
            return subscribe(events: { event in
                if case .value(let value) = event {
                    if let previous, areEquivalent(previous, value) { return }
                    previous = value
                }
                sink(event)
            })
        })
    }
}

extension EventStream where Value: Equatable {
    /// The values, less each one equal to the one before it.
    public func removeDuplicates() -> EventStream<Value> {
        removeDuplicates(by: ==)
    }

    /// The same as ``removeDuplicates()``: xstream's spelling (`dropRepeats`).
    public func dropRepeats() -> EventStream<Value> {
        removeDuplicates()
    }
}
