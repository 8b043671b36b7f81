extension MessageSource {
    /// Pairs of this source's and `other`'s messages, in order: the first of each, then the
    /// second of each, and so on (Combine's `zip`).
    ///
    /// ```swift
    /// requests.fired.zip(responses.fired).then { request, response in log(request, response) }
    ///     .append(to: observables)
    /// ```
    ///
    /// A source that runs ahead has its messages queued until the other catches up (a
    /// replayed message counts). The pairs end when a source has finished and nothing of it
    /// is queued; any other end ends them at once.
    @inlinable
    public func zip<Other: Sendable>(_ other: MessageSource<Other>) -> StreamModifier<Message, (Message, Other)> {
        combined(.zip, second: other, third: MessageSource<Void>?.none, build: CombinationElement.pair)
    }

    /// Triples of this source's, `second`'s and `third`'s messages, in order.
    @inlinable
    public func zip<Second: Sendable, Third: Sendable>(
        _ second: MessageSource<Second>, _ third: MessageSource<Third>
    ) -> StreamModifier<Message, (Message, Second, Third)> {
        combined(.zip, second: second, third: third, build: CombinationElement.triple)
    }

    /// Triples of the latest messages of this source, `second` and `third`, once each has sent
    /// one, then whenever any sends (see ``combineLatest(_:)-swift.method`` for two).
    @inlinable
    public func combineLatest<Second: Sendable, Third: Sendable>(
        _ second: MessageSource<Second>, _ third: MessageSource<Third>
    ) -> StreamModifier<Message, (Message, Second, Third)> {
        combined(.combineLatest, second: second, third: third, build: CombinationElement.triple)
    }

    /// Arrays of the messages of `sources`, in order: the first of each, then the second of
    /// each (the order of `sources`).
    ///
    /// - Precondition: `sources` is not empty.
    public static func zip(_ sources: [MessageSource<Message>]) -> StreamModifier<Message, [Message]> {
        combined(.zip, sources)
    }

    /// Arrays of the latest messages of `sources`, once each has sent one, then whenever any
    /// sends.
    ///
    /// - Precondition: `sources` is not empty.
    public static func combineLatest(_ sources: [MessageSource<Message>]) -> StreamModifier<Message, [Message]> {
        combined(.combineLatest, sources)
    }

    /// Each message of this source paired with the latest message of `other`; messages that
    /// come before `other` has sent one are dropped (RxSwift's `withLatestFrom`).
    ///
    /// ```swift
    /// submit.fired.withLatestFrom(form.didSet).then { _, form in send(form) }.append(to: observables)
    /// ```
    ///
    /// Only this source's end ends the pairs: `other` ending keeps its latest message.
    @inlinable
    public func withLatestFrom<Other: Sendable>(
        _ other: MessageSource<Other>
    ) -> StreamModifier<Message, (Message, Other)> {
        let core = RuleCore.make(upstream: self, rule: LatestPairingStateMachine<Message, Other>()) {
            machine, event, outbox in
            switch event {
            case .value(let message): if let pair = machine.mainSent(message) { outbox.send(pair) }
            case .completion(let completion):
                machine.finish()
                outbox.end(completion)
            }
        }
        core.addSide(other, key: 0) { machine, event, _ in
            if case .value(let message) = event { machine.otherSent(message) }
        }
        return StreamModifier(upstream: self, core: core)
    }

    /// The latest message of this source each time `trigger` sends, if one came since the last
    /// sample (Combine's `sample`, RxSwift's `sample`).
    ///
    /// The samples end when either source ends.
    @inlinable
    public func sample<Trigger: Sendable>(on trigger: MessageSource<Trigger>) -> StreamModifier<Message, Message> {
        let core = RuleCore<Message, Message, _>.make(upstream: self, rule: LatestPairingStateMachine<Message, Void>())
        {
            machine, event, outbox in
            switch event {
            case .value(let message): machine.hold(message)
            case .completion(let completion):
                machine.finish()
                outbox.end(completion)
            }
        }
        core.addSide(trigger, key: 0) { machine, event, outbox in
            switch event {
            case .value: if let message = machine.sample() { outbox.send(message) }
            case .completion(let completion):
                machine.finish()
                outbox.end(completion)
            }
        }
        return StreamModifier(upstream: self, core: core)
    }

    /// The messages of every source in `sources`, each as it comes; the merge finishes when
    /// all have finished, and any other end ends it at once.
    ///
    /// - Precondition: `sources` is not empty.
    public static func merge(_ sources: [MessageSource<Message>]) -> StreamModifier<Message, Message> {
        precondition(!sources.isEmpty, "Signals: merge needs at least one source")
        let core = RuleCore.make(upstream: sources[0], rule: sources.count) { running, event, outbox in
            Self.mergeStep(&running, event, &outbox)
        }
        for (key, source) in sources.dropFirst().enumerated() {
            core.addSide(source, key: UInt64(key)) { running, event, outbox in
                Self.mergeStep(&running, event, &outbox)
            }
        }
        return StreamModifier(upstream: sources[0], core: core)
    }

    /// One step of a merge that has `running` sources left.
    private static func mergeStep(
        _ running: inout Int, _ event: StreamEvent<Message, any Error>, _ outbox: inout Outbox<Message>
    ) {
        switch event {
        case .value(let message): outbox.send(message)
        case .completion(.finished):
            running -= 1
            if running == 0 { outbox.end() }
        case .completion(let completion): outbox.end(completion)
        }
    }

    @inlinable
    func combined<Second: Sendable, Third: Sendable, Output: Sendable>(
        _ kind: CombinationRule<Message, Second, Third>.Kind, second: MessageSource<Second>,
        third: MessageSource<Third>?,
        build: @escaping @Sendable (((Int, CombinationElement<Message, Second, Third>) -> Void) -> Void) -> Output
    ) -> StreamModifier<Message, Output> {
        let inputs = third == nil ? 2 : 3
        let core = RuleCore.make(upstream: self, rule: CombinationRule<Message, Second, Third>(kind, inputs: inputs)) {
            rule, event, outbox in
            rule.step(event.map { .first($0) }, from: 0, build: build, into: &outbox)
        }
        core.addSide(second, key: 1) { rule, event, outbox in
            rule.step(event.map { .second($0) }, from: 1, build: build, into: &outbox)
        }
        if let third {
            core.addSide(third, key: 2) { rule, event, outbox in
                rule.step(event.map { .third($0) }, from: 2, build: build, into: &outbox)
            }
        }
        return StreamModifier(upstream: self, core: core)
    }

    private static func combined(
        _ kind: CombinationRule<Message, Void, Void>.Kind, _ sources: [MessageSource<Message>]
    ) -> StreamModifier<Message, [Message]> {
        precondition(!sources.isEmpty, "Signals: zip and combineLatest need at least one source")
        let build: @Sendable (((Int, CombinationElement<Message, Void, Void>) -> Void) -> Void) -> [Message] =
            CombinationElement.array
        let core = RuleCore.make(
            upstream: sources[0], rule: CombinationRule<Message, Void, Void>(kind, inputs: sources.count)
        ) {
            rule, event, outbox in
            rule.step(event.map { .first($0) }, from: 0, build: build, into: &outbox)
        }
        for (index, source) in sources.enumerated().dropFirst() {
            core.addSide(source, key: UInt64(index)) { rule, event, outbox in
                rule.step(event.map { .first($0) }, from: index, build: build, into: &outbox)
            }
        }
        return StreamModifier(upstream: sources[0], core: core)
    }
}

/// The rule of `zip` or `combineLatest` over up to three typed inputs (or many of one type):
/// ReactiveCore's machine and what it emits.
@usableFromInline
struct CombinationRule<First, Second, Third> {
    @usableFromInline typealias Element = CombinationElement<First, Second, Third>

    @usableFromInline
    enum Kind {
        case zip, combineLatest
    }

    @usableFromInline var zip: ZipStateMachine<Element>?
    @usableFromInline var latest: CombineLatestStateMachine<Element>?

    @inlinable
    init(_ kind: Kind, inputs: Int) {
        switch kind {
        case .zip: zip = ZipStateMachine(inputs: inputs)
        case .combineLatest: latest = CombineLatestStateMachine(inputs: inputs)
        }
    }

    /// Steps the machine with `event` of input `input`, sending the rows it makes.
    @inlinable
    mutating func step<Output>(
        _ event: StreamEvent<Element, any Error>, from input: Int,
        build: (((Int, Element) -> Void) -> Void) -> Output, into outbox: inout Outbox<Output>
    ) {
        switch event {
        case .value(let element):
            if zip != nil {
                switch zip!.receive(element, from: input) {
                case .emit: outbox.send(build { zip!.popRow($0) })
                case .emitAndFinish:
                    outbox.send(build { zip!.popRow($0) })
                    outbox.end()
                case .none, .finish: break
                }
            } else if latest!.receive(element, from: input) == .emit {
                outbox.send(build { latest!.forEachLatest($0) })
            }
        case .completion(.finished):
            let ends = zip != nil ? zip!.inputFinished(input) == .finish : latest!.inputFinished(input) == .finish
            if ends { outbox.end() }
        case .completion(let completion):
            zip?.cancel()
            latest?.cancel()
            outbox.end(completion)
        }
    }
}
