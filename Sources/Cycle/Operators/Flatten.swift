extension EventStream {
    /// The values of the streams `transform` makes from each value, merged as they come;
    /// at most `maxConcurrent` inner streams run at once (`nil`: no limit), and values that
    /// arrive at the limit wait, in order, for one to finish.
    ///
    /// ```swift
    /// let pages = pageNumbers.flatMap(maxConcurrent: 2) { number in loader.page(number) }
    /// ```
    ///
    /// The end comes when this stream and every inner stream have finished. By ReactiveCore's
    /// `FlattenStateMachine`; inner values go out through a queue of the subscription's own,
    /// so a sink is never nested.
    ///
    /// - Precondition: `maxConcurrent`, if given, is at least 1.
    public func flatMap<Inner>(
        maxConcurrent: Int? = nil, _ transform: @escaping (Value) -> EventStream<Inner>
    ) -> EventStream<Inner> {
        flattened(.merge(maximum: maxConcurrent), transform)
    }

    /// The values of the streams `transform` makes from each value, one inner stream at a
    /// time: the next starts when the one before it finishes (xstream's `flattenSequentially`).
    ///
    /// ```swift
    /// let uploads = files.concatMap { file in uploader.upload(file) }
    /// ```
    public func concatMap<Inner>(_ transform: @escaping (Value) -> EventStream<Inner>) -> EventStream<Inner> {
        flattened(.concat, transform)
    }

    /// The values of the stream `transform` makes from the latest value only: a new value
    /// releases the inner stream before it at once, and a value it was still sending is
    /// dropped (`map` then `switchToLatest`).
    ///
    /// ```swift
    /// let results = queries.flatMapLatest { query in search.results(for: query) }
    /// ```
    public func flatMapLatest<Inner>(_ transform: @escaping (Value) -> EventStream<Inner>) -> EventStream<Inner> {
        flattened(.latest, transform)
    }

    private func flattened<Inner>(
        _ policy: FlattenStateMachine<Value>.Policy, _ transform: @escaping (Value) -> EventStream<Inner>
    ) -> EventStream<Inner> {
        // Checks the maximum where the operator is written.
        _ = FlattenStateMachine<Value>(policy)
        return EventStream<Inner>(subscribeEvents: { sink in
            let link = FlattenLink(policy: policy, transform: transform, sink: sink)
            return link.connect(self)
        })
    }
}

extension EventStream {
    /// The values of the latest inner stream: a new inner stream releases the one before it
    /// at once (Combine's `switchToLatest`, xstream's `flatten`).
    public func switchToLatest<Inner>() -> EventStream<Inner> where Value == EventStream<Inner> {
        flatMapLatest { $0 }
    }

    /// The same as ``switchToLatest()``: xstream's spelling.
    public func flatten<Inner>() -> EventStream<Inner> where Value == EventStream<Inner> {
        switchToLatest()
    }
}

/// One subscription of a flattened stream: the machine, and the inner subscriptions it runs.
private final class FlattenLink<Outer, Inner> {
    private var machine: FlattenStateMachine<Outer>
    private let transform: (Outer) -> EventStream<Inner>
    private let output = Broadcaster<StreamEvent<Inner, Never>>()
    private var forwarding: Connection?
    private var inners: [FlattenStateMachine<Outer>.InnerID: Connection] = [:]

    init(
        policy: FlattenStateMachine<Outer>.Policy, transform: @escaping (Outer) -> EventStream<Inner>,
        sink: @escaping (StreamEvent<Inner, Never>) -> Void
    ) {
        machine = FlattenStateMachine(policy)
        self.transform = transform
        forwarding = output.subscribe(sink)
    }

    func connect(_ outer: EventStream<Outer>) -> Connection {
        let upstream = outer.subscribe(events: { event in
            switch event {
            case .value(let value): self.apply(self.machine.outerSent(value))
            case .completion: self.apply(self.machine.outerFinished())
            }
        })
        return Connection(isolated: {
            upstream.disconnect()
            for id in self.machine.cancel() { self.inners.removeValue(forKey: id)?.disconnect() }
            self.forwarding?.disconnect()
        })
    }

    private func apply(_ action: FlattenStateMachine<Outer>.Action) {
        switch action {
        case .subscribe(let value, let id, let releasing):
            if let releasing { inners.removeValue(forKey: releasing)?.disconnect() }
            let connection = transform(value).subscribe(events: { event in self.inner(event, from: id) })
            // An inner stream that finished while being subscribed has already left the machine.
            if machine.innerMaySend(id) { inners[id] = connection } else { connection.disconnect() }
        case .finish:
            output.send(.completion(.finished))
        case .none:
            break
        }
    }

    private func inner(_ event: StreamEvent<Inner, Never>, from id: FlattenStateMachine<Outer>.InnerID) {
        switch event {
        case .value(let value):
            if machine.innerMaySend(id) { output.send(.value(value)) }
        case .completion:
            inners[id] = nil
            apply(machine.innerFinished(id))
        }
    }
}
