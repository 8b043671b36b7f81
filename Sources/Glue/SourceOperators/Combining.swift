extension SourceType {
    /// A source that pairs the n-th value of this source with the n-th value of `other`.
    ///
    /// ```swift
    /// let pairs = requests.zip(responses)   // (request 1, response 1), (request 2, response 2), ...
    /// ```
    ///
    /// Values wait until their partner arrives, by ReactiveCore's `ZipStateMachine`; each
    /// subscription zips on its own. Sources have no completion, so a zip never ends on its
    /// own: values whose partner never comes wait until the subscription disconnects.
    @inlinable
    public func zip<Other: SourceType>(_ other: Other) -> CombinedSource<(Value, Other.Value)> {
        CombinedSource(.zip, inputs: pairInputs(other), build: Pair.pair)
    }

    /// A source that groups the n-th values of this source, `second` and `third`.
    @inlinable
    public func zip<Second: SourceType, Third: SourceType>(
        _ second: Second, _ third: Third
    ) -> CombinedSource<(Value, Second.Value, Third.Value)> {
        CombinedSource(.zip, inputs: tripleInputs(second, third), build: CombinationElement.triple)
    }

    /// A source that sends the latest values of this source and `other` together, each time
    /// either sends, once both have sent.
    ///
    /// ```swift
    /// let canSubmit = name.futureValues.combineLatest(password.futureValues)
    ///     .map { name, password in !name.isEmpty && password.count >= 8 }
    /// ```
    ///
    /// By ReactiveCore's `CombineLatestStateMachine`; each subscription combines on its own.
    @inlinable
    public func combineLatest<Other: SourceType>(_ other: Other) -> CombinedSource<(Value, Other.Value)> {
        CombinedSource(.combineLatest, inputs: pairInputs(other), build: Pair.pair)
    }

    /// A source that sends the latest values of this source, `second` and `third` together,
    /// each time one of them sends, once all three have sent.
    @inlinable
    public func combineLatest<Second: SourceType, Third: SourceType>(
        _ second: Second, _ third: Third
    ) -> CombinedSource<(Value, Second.Value, Third.Value)> {
        CombinedSource(.combineLatest, inputs: tripleInputs(second, third), build: CombinationElement.triple)
    }

    /// A source that sends each value of this source paired with the latest value of
    /// `other`; values that arrive before `other` has sent are dropped, and `other`'s values
    /// alone send nothing.
    ///
    /// ```swift
    /// let submissions = submitTaps.withLatestFrom(form.futureValues).map { _, form in form }
    /// ```
    @inlinable
    public func withLatestFrom<Other: SourceType>(_ other: Other) -> WithLatestFromSource<Self, Other> {
        WithLatestFromSource(base: self, other: other)
    }

    /// A source that sends the latest value of this source each time `trigger` sends, if this
    /// source sent one since the last time (Combine's and RxSwift's `sample`).
    ///
    /// ```swift
    /// let shown = positions.sample(on: frames)
    /// ```
    @inlinable
    public func sample<Trigger: SourceType>(on trigger: Trigger) -> SampledSource<Self, Trigger> {
        SampledSource(base: self, trigger: trigger)
    }

    @usableFromInline typealias Pair<Other> = CombinationElement<Value, Other, Void>

    @inlinable func pairInputs<Other: SourceType>(_ other: Other) -> [Source<Pair<Other.Value>>] {
        [map { .first($0) }.source, other.map { .second($0) }.source]
    }

    @inlinable func tripleInputs<Second: SourceType, Third: SourceType>(
        _ second: Second, _ third: Third
    ) -> [Source<CombinationElement<Value, Second.Value, Third.Value>>] {
        [map { .first($0) }.source, second.map { .second($0) }.source, third.map { .third($0) }.source]
    }
}

extension Source {
    /// A source that sends the n-th values of all `sources` together, as an array in the
    /// order of `sources`.
    ///
    /// - Precondition: `sources` is not empty.
    @inlinable
    public static func zip(_ sources: [Source<Value>]) -> CombinedSource<[Value]> {
        CombinedSource(
            .zip, inputs: sources.map { $0.map { CombinationElement<Value, Void, Void>.first($0) }.source },
            build: CombinationElement.array)
    }

    /// A source that sends the latest values of all `sources` together, as an array in the
    /// order of `sources`, each time one sends, once all have sent.
    ///
    /// - Precondition: `sources` is not empty.
    @inlinable
    public static func combineLatest(_ sources: [Source<Value>]) -> CombinedSource<[Value]> {
        CombinedSource(
            .combineLatest, inputs: sources.map { $0.map { CombinationElement<Value, Void, Void>.first($0) }.source },
            build: CombinationElement.array)
    }
}

/// A source that combines the values of several inputs; made by ``SourceType/zip(_:)``,
/// ``SourceType/combineLatest(_:)`` and their relatives.
///
/// Each subscription subscribes to every input, in order, and combines by ReactiveCore's
/// `ZipStateMachine` or `CombineLatestStateMachine`. What it sends goes through a ``Signal``
/// of the subscription's own: a value that a sink makes an input send is combined at once,
/// but its result is delivered after the current one, never nested.
public struct CombinedSource<Output>: SourceType {
    @usableFromInline
    enum Rule {
        case zip
        case combineLatest
    }

    @usableFromInline
    let subscribeImpl: (@escaping (Output) -> Void) -> Connection

    @inlinable
    init<First, Second, Third>(
        _ rule: Rule, inputs: [Source<CombinationElement<First, Second, Third>>],
        build: @escaping (((Int, CombinationElement<First, Second, Third>) -> Void) -> Void) -> Output
    ) {
        precondition(!inputs.isEmpty, "Glue: zip and combineLatest need at least one source")
        subscribeImpl = { sink in
            let output = Signal<Output>()
            let forwarding = output.subscribe(sink)
            let receive: (CombinationElement<First, Second, Third>, Int) -> Void
            switch rule {
            case .zip:
                let link = ZipLink(inputs: inputs.count, build: build, output: output)
                receive = link.receive
            case .combineLatest:
                let link = CombineLatestLink(inputs: inputs.count, build: build, output: output)
                receive = link.receive
            }
            let connections = inputs.enumerated().map { position, input in
                input.subscribe { receive($0, position) }
            }
            return Connection(isolated: {
                for connection in connections { connection.disconnect() }
                forwarding.disconnect()
            })
        }
    }

    /// Starts sending the combined values to `sink`.
    @inlinable
    public func subscribe(_ sink: @escaping (Output) -> Void) -> Connection {
        subscribeImpl(sink)
    }
}

@usableFromInline final class ZipLink<Element, Output> {
    @usableFromInline var machine: ZipStateMachine<Element>
    @usableFromInline
    let build: (((Int, Element) -> Void) -> Void) -> Output
    @usableFromInline
    let output: Signal<Output>

    @inlinable
    init(
        inputs: Int, build: @escaping (((Int, Element) -> Void) -> Void) -> Output, output: Signal<Output>
    ) {
        machine = ZipStateMachine(inputs: inputs)
        self.build = build
        self.output = output
    }

    @inlinable
    func receive(_ element: Element, from input: Int) {
        switch machine.receive(element, from: input) {
        case .emit, .emitAndFinish:
            output.send(build { visit in machine.popRow(visit) })
        case .none, .finish:
            break
        }
    }
}

@usableFromInline final class CombineLatestLink<Element, Output> {
    @usableFromInline var machine: CombineLatestStateMachine<Element>
    @usableFromInline
    let build: (((Int, Element) -> Void) -> Void) -> Output
    @usableFromInline
    let output: Signal<Output>

    @inlinable
    init(
        inputs: Int, build: @escaping (((Int, Element) -> Void) -> Void) -> Output, output: Signal<Output>
    ) {
        machine = CombineLatestStateMachine(inputs: inputs)
        self.build = build
        self.output = output
    }

    @inlinable
    func receive(_ element: Element, from input: Int) {
        switch machine.receive(element, from: input) {
        case .emit:
            output.send(build { visit in machine.forEachLatest(visit) })
        case .none, .finish:
            break
        }
    }
}

/// A source of each value paired with another source's latest; made by
/// ``SourceType/withLatestFrom(_:)``.
///
/// Each subscription subscribes to the other source first, so that a value it sends as it
/// is subscribed (an observable's current value) is there for this source's first value.
public struct WithLatestFromSource<Base: SourceType, Other: SourceType>: SourceType {
    @usableFromInline
    let base: Base
    @usableFromInline
    let other: Other

    @inlinable
    init(base: Base, other: Other) {
        self.base = base
        self.other = other
    }

    /// Starts sending pairs to `sink`.
    @inlinable
    public func subscribe(_ sink: @escaping ((Base.Value, Other.Value)) -> Void) -> Connection {
        var machine = LatestPairingStateMachine<Base.Value, Other.Value>()
        let otherConnection = other.subscribe { machine.otherSent($0) }
        let connection = base.subscribe { value in
            if let pair = machine.mainSent(value) { sink(pair) }
        }
        return Connection(isolated: {
            connection.disconnect()
            otherConnection.disconnect()
            machine.finish()
        })
    }
}

/// A source sampled by a trigger; made by ``SourceType/sample(on:)``.
public struct SampledSource<Base: SourceType, Trigger: SourceType>: SourceType {
    @usableFromInline
    let base: Base
    @usableFromInline
    let trigger: Trigger

    @inlinable
    init(base: Base, trigger: Trigger) {
        self.base = base
        self.trigger = trigger
    }

    /// Starts sending sampled values to `sink`.
    @inlinable
    public func subscribe(_ sink: @escaping (Base.Value) -> Void) -> Connection {
        var machine = LatestPairingStateMachine<Base.Value, Void>()
        let connection = base.subscribe { machine.hold($0) }
        let triggerConnection = trigger.subscribe { _ in
            if let value = machine.sample() { sink(value) }
        }
        return Connection(isolated: {
            triggerConnection.disconnect()
            connection.disconnect()
            machine.finish()
        })
    }
}
