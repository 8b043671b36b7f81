extension EventStream {
    /// The n-th value of this stream paired with the n-th value of `other`; the end comes
    /// when one of them has finished and every value it sent is paired.
    ///
    /// ```swift
    /// let pairs = requests.zip(responses)
    /// ```
    ///
    /// By ReactiveCore's `ZipStateMachine`; each subscription zips on its own.
    public func zip<Other>(_ other: EventStream<Other>) -> EventStream<(Value, Other)> {
        Combination.stream(.zip, [asFirst(), other.asSecond()], build: CombinationElement.pair)
    }

    /// The n-th values of this stream, `second` and `third`, together.
    public func zip<Second, Third>(
        _ second: EventStream<Second>, _ third: EventStream<Third>
    ) -> EventStream<(Value, Second, Third)> {
        Combination.stream(.zip, [asFirst(), second.asSecond(), third.asThird()], build: CombinationElement.triple)
    }

    /// The latest values of this stream and `other` together, each time either sends, once
    /// both have sent; the end comes when both have finished, or when one finishes without
    /// ever sending.
    ///
    /// ```swift
    /// let canSubmit = names.combineLatest(passwords).map { name, password in !name.isEmpty && !password.isEmpty }
    /// ```
    public func combineLatest<Other>(_ other: EventStream<Other>) -> EventStream<(Value, Other)> {
        Combination.stream(.combineLatest, [asFirst(), other.asSecond()], build: CombinationElement.pair)
    }

    /// The latest values of this stream, `second` and `third` together, each time one sends,
    /// once all three have sent.
    public func combineLatest<Second, Third>(
        _ second: EventStream<Second>, _ third: EventStream<Third>
    ) -> EventStream<(Value, Second, Third)> {
        Combination.stream(
            .combineLatest, [asFirst(), second.asSecond(), third.asThird()], build: CombinationElement.triple)
    }

    /// The n-th values of all `streams` together, as arrays in the order of `streams`.
    ///
    /// - Precondition: `streams` is not empty.
    public static func zip(_ streams: [EventStream<Value>]) -> EventStream<[Value]> {
        Combination.stream(.zip, streams.map { $0.asFirst() }, build: CombinationElement.array)
    }

    /// The latest values of all `streams` together, as arrays in the order of `streams`, each
    /// time one sends, once all have sent.
    ///
    /// - Precondition: `streams` is not empty.
    public static func combineLatest(_ streams: [EventStream<Value>]) -> EventStream<[Value]> {
        Combination.stream(.combineLatest, streams.map { $0.asFirst() }, build: CombinationElement.array)
    }

    /// Each value paired with the latest value of `other`; values before `other` has sent
    /// are dropped, `other`'s values alone send nothing, and the end comes with this stream's.
    ///
    /// ```swift
    /// let submissions = submitTaps.withLatestFrom(form)
    /// ```
    ///
    /// `other` is subscribed first, so a value it sends as it is subscribed (a `startWith`)
    /// is there for this stream's first value.
    public func withLatestFrom<Other>(_ other: EventStream<Other>) -> EventStream<(Value, Other)> {
        EventStream<(Value, Other)>(subscribeEvents: { sink in
            var machine = LatestPairingStateMachine<Value, Other>()
            let otherConnection = other.subscribe { machine.otherSent($0) }
            let connection = subscribe(events: { event in
                switch event {
                case .value(let value):
                    if let pair = machine.mainSent(value) { sink(.value(pair)) }
                case .completion(let completion):
                    machine.finish()
                    sink(.completion(completion))
                }
            })
            return Connection(isolated: {
                connection.disconnect()
                otherConnection.disconnect()
            })
        })
    }

    /// The same as ``withLatestFrom(_:)``: xstream's `sampleCombine`.
    public func sampleCombine<Other>(_ other: EventStream<Other>) -> EventStream<(Value, Other)> {
        withLatestFrom(other)
    }

    /// The latest value of this stream each time `trigger` sends, if one came since the last
    /// time; the end comes when this stream or the trigger finishes.
    ///
    /// ```swift
    /// let shown = positions.sample(on: frames)
    /// ```
    public func sample<Trigger>(on trigger: EventStream<Trigger>) -> EventStream<Value> {
        EventStream(subscribeEvents: { sink in
            var machine = LatestPairingStateMachine<Value, Void>()
            func end(_ completion: Completion<Never>) {
                guard !machine.isFinished else { return }
                machine.finish()
                sink(.completion(completion))
            }
            let connection = subscribe(events: { event in
                switch event {
                case .value(let value): machine.hold(value)
                case .completion(let completion): end(completion)
                }
            })
            let triggerConnection = trigger.subscribe(events: { event in
                switch event {
                case .value: if let value = machine.sample() { sink(.value(value)) }
                case .completion(let completion): end(completion)
                }
            })
            return Connection(isolated: {
                triggerConnection.disconnect()
                connection.disconnect()
            })
        })
    }

    /// This stream's events, each value tagged as a combination's first input.
    fileprivate func asFirst<Second, Third>() -> EventStream<CombinationElement<Value, Second, Third>> {
        map { .first($0) }
    }

    /// This stream's events, each value tagged as a combination's second input.
    fileprivate func asSecond<First, Third>() -> EventStream<CombinationElement<First, Value, Third>> {
        map { .second($0) }
    }

    /// This stream's events, each value tagged as a combination's third input.
    fileprivate func asThird<First, Second>() -> EventStream<CombinationElement<First, Second, Value>> {
        map { .third($0) }
    }
}

/// The combining operators' shared work: a machine per subscription, fed by every input
/// (tagged by place), delivering through a `Broadcaster` so that a value a sink makes an
/// input send is combined at once and delivered after the current one, never nested.
private enum Combination {
    typealias Element = CombinationElement

    enum Rule {
        case zip, combineLatest
    }

    static func stream<First, Second, Third, Output>(
        _ rule: Rule, _ inputs: [EventStream<Element<First, Second, Third>>],
        build: @escaping (((Int, Element<First, Second, Third>) -> Void) -> Void) -> Output
    ) -> EventStream<Output> {
        precondition(!inputs.isEmpty, "Cycle: zip and combineLatest need at least one stream")
        return EventStream<Output>(subscribeEvents: { sink in
            let output = Broadcaster<StreamEvent<Output, Never>>()
            let forwarding = output.subscribe(sink)
            var zip = rule == .zip ? ZipStateMachine<Element<First, Second, Third>>(inputs: inputs.count) : nil
            var latest =
                rule == .combineLatest
                ? CombineLatestStateMachine<Element<First, Second, Third>>(inputs: inputs.count) : nil
            func receive(_ event: StreamEvent<Element<First, Second, Third>, Never>, from input: Int) {
                switch (event, rule) {
                case (.value(let element), .zip):
                    switch zip!.receive(element, from: input) {
                    case .emit: output.send(.value(build { zip!.popRow($0) }))
                    case .emitAndFinish:
                        output.send(.value(build { zip!.popRow($0) }))
                        output.send(.completion(.finished))
                    case .none, .finish: break
                    }
                case (.value(let element), .combineLatest):
                    if latest!.receive(element, from: input) == .emit {
                        output.send(.value(build { latest!.forEachLatest($0) }))
                    }
                case (.completion, .zip):
                    if zip!.inputFinished(input) == .finish { output.send(.completion(.finished)) }
                case (.completion, .combineLatest):
                    if latest!.inputFinished(input) == .finish { output.send(.completion(.finished)) }
                }
            }
            let connections = inputs.enumerated().map { input, stream in
                stream.subscribe(events: { receive($0, from: input) })
            }
            return Connection(isolated: {
                for connection in connections { connection.disconnect() }
                forwarding.disconnect()
            })
        })
    }
}
