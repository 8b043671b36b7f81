extension MessageSource {
    /// The messages of the sources `transform` makes of each message, merged as they come
    /// (Combine's `flatMap`); with `maxConcurrent`, at most that many inner sources are
    /// connected at once, and the messages that would start more wait in order.
    ///
    /// ```swift
    /// ids.fired.flatMap { id in loader.load(id).fired }.then { show($0) }.append(to: observables)
    /// ```
    ///
    /// An inner source is connected in the turn of the message that made it (its last
    /// message, if any, is replayed then) and released when it ends. The chain finishes when
    /// this source and every inner source have finished; a failure of any ends it at once.
    ///
    /// - Precondition: `maxConcurrent` is positive, if given.
    @inlinable
    public func flatMap<Output: Sendable>(
        maxConcurrent: Int? = nil, _ transform: @escaping @Sendable (Message) -> MessageSource<Output>
    ) -> StreamModifier<Message, Output> {
        flattened(.merge(maximum: maxConcurrent), transform)
    }

    /// The messages of the sources `transform` makes of each message, one source at a time:
    /// the next is connected when the one before it finishes (RxSwift's `concatMap`).
    @inlinable
    public func concatMap<Output: Sendable>(
        _ transform: @escaping @Sendable (Message) -> MessageSource<Output>
    ) -> StreamModifier<Message, Output> {
        flattened(.merge(maximum: 1), transform)
    }

    /// The messages of the source `transform` made of the latest message: a new message
    /// releases the previous inner source at once, before the new one is connected (RxSwift's
    /// `flatMapLatest`).
    ///
    /// ```swift
    /// query.didSet.flatMapLatest { text in backend.search(text).fired }
    ///     .then { results in show(results) }
    ///     .append(to: observables)
    /// ```
    ///
    ///     query:    -a-----b--------
    ///     a's:       --A1-----A2        A2 comes after b: a's source was released
    ///     b's:              ---B1--
    ///     results:  ---A1-------B1--
    ///
    /// A message the previous inner source sends while it is being switched away from (from
    /// another thread, or from a handler) is dropped. The chain finishes when this source has
    /// finished and the latest inner source has too.
    @inlinable
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Message) -> MessageSource<Output>
    ) -> StreamModifier<Message, Output> {
        flattened(.latest, transform)
    }

    /// The messages of the latest source this source sent: the same as
    /// `flatMapLatest` over sources with no transform (Combine's
    /// `switchToLatest`).
    @inlinable
    public func switchToLatest<Inner: Sendable>() -> StreamModifier<Message, Inner>
    where Message == MessageSource<Inner> {
        flattened(.latest) { $0 }
    }

    @inlinable
    func flattened<Output: Sendable>(
        _ policy: FlattenStateMachine<Message>.Policy,
        _ transform: @escaping @Sendable (Message) -> MessageSource<Output>
    ) -> StreamModifier<Message, Output> {
        StreamModifier(upstream: self, core: FlattenCore.make(upstream: self, policy: policy, transform: transform))
    }
}

/// The work of the flattening operators: ReactiveCore's `FlattenStateMachine`, with one
/// input connected per running inner source, keyed by its number.
///
/// Made through ``make(upstream:policy:transform:)``, inlined where the operator is called,
/// so that its steps are compiled for the chain's types (see ``StreamCore/step(_:)``).
@usableFromInline
final class FlattenCore<Message: Sendable, Output: Sendable>: StreamCore<
    Message, Output, FlattenStateMachine<Message>
>, @unchecked Sendable
{
    // `@unchecked` as for `Relay`: the machine is behind the core's lock; `transform` is a
    // `let` of a `Sendable` type.
    @usableFromInline let transform: @Sendable (Message) -> MessageSource<Output>
    /// The entry of every inner source's input, made once.
    @usableFromInline let innerEntry: SideEntry

    @usableFromInline
    init(
        upstream: MessageSource<Message>, policy: FlattenStateMachine<Message>.Policy,
        transform: @escaping @Sendable (Message) -> MessageSource<Output>, entry: @escaping Entry,
        innerEntry: @escaping SideEntry
    ) {
        self.transform = transform
        self.innerEntry = innerEntry
        super.init(upstream: upstream, rule: FlattenStateMachine(policy), entry: entry)
    }

    @inlinable
    static func make(
        upstream: MessageSource<Message>, policy: FlattenStateMachine<Message>.Policy,
        transform: @escaping @Sendable (Message) -> MessageSource<Output>
    ) -> FlattenCore {
        FlattenCore(
            upstream: upstream, policy: policy, transform: transform,
            entry: entry { core, message, _ in
                // Only a `FlattenCore` is made with this entry.
                let core = unsafeDowncast(core, to: FlattenCore.self)
                core.step { machine, outbox in core.apply(machine.outerSent(message), to: &outbox) }
            },
            innerEntry: sideEntry(of: Output.self) { core, machine, key, event, outbox in
                // Only a `FlattenCore` makes inputs with this entry.
                let core = unsafeDowncast(core, to: FlattenCore.self)
                core.receiveInner(&machine, event, from: FlattenInnerID(number: key), outbox: &outbox)
            })
    }

    override func handle(
        _ machine: inout FlattenStateMachine<Message>, _ event: StreamEvent<Message, any Error>,
        _ outbox: inout Outbox<Output>
    ) {
        switch event {
        case .value(let message): apply(machine.outerSent(message), to: &outbox)
        case .completion(.finished): apply(machine.outerFinished(), to: &outbox)
        case .completion(let completion): Self.cancel(&machine, ending: completion, outbox: &outbox)
        }
    }

    /// Carries out the machine's action: an inner source to connect (the transform runs
    /// outside the lock, in its turn), after releasing the one it replaces.
    @inlinable
    final func apply(_ action: FlattenStateMachine<Message>.Action, to outbox: inout Outbox<Output>) {
        switch action {
        case .none: break
        case .finish: outbox.end()
        case .subscribe(let message, let id, let releasing):
            // The one it replaces is released now as far as the rule goes (its messages are
            // dropped from here), and disconnected in its turn, before the next connects.
            outbox.run { [self] in
                if let releasing { releaseSide(key: releasing.number) }
                connectSide(transform(message), key: id.number, entry: innerEntry)
            }
        }
    }

    @inlinable
    final func receiveInner(
        _ machine: inout FlattenStateMachine<Message>, _ event: StreamEvent<Output, any Error>,
        from id: FlattenInnerID, outbox: inout Outbox<Output>
    ) {
        guard machine.innerMaySend(id) else { return }
        switch event {
        case .value(let message): outbox.send(message)
        case .completion(.finished):
            outbox.run { [self] in releaseSide(key: id.number) }
            apply(machine.innerFinished(id), to: &outbox)
        case .completion(let completion): Self.cancel(&machine, ending: completion, outbox: &outbox)
        }
    }

    /// Ends at once: every inner source is released with the operator.
    @inlinable
    static func cancel(
        _ machine: inout FlattenStateMachine<Message>, ending completion: Completion<any Error>,
        outbox: inout Outbox<Output>
    ) {
        _ = machine.cancel()
        outbox.end(completion)
    }
}
