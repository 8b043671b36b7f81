import ReactiveCore
import Testing

/// Marble tests: inputs played from diagrams on virtual time, outputs recorded and compared
/// with diagrams.
///
/// ```swift
/// @Test func prefixStopsAfterTwo() {
///     let marbles = MarbleTest()
///     let input = Signal<String>()
///     marbles.play("-a-b-c-d", into: input.send)
///     let output = marbles.record(input.prefix(2))
///     marbles.run()
///     marbles.expect(output, "-a-b")
/// }
/// ```
///
/// Nothing happens until ``run(untilTick:)``: it sends the inputs' events from before time
/// zero (a `^` in their diagrams), subscribes the recordings due at time zero, then moves
/// the ``scheduler`` on, one ``tick`` per character. On one tick, disconnections come first,
/// then subscriptions, then the inputs' events, inputs in the order they were played. A test
/// uses one `MarbleTest`, from one isolation domain (a test function), and runs it once.
public final class MarbleTest {
    /// The scheduler the diagrams play on; give it to the operators under test.
    public let scheduler: TestScheduler
    /// How long one character of a diagram lasts.
    public let tick: Duration
    private let start: SchedulerInstant
    private var inputs: [(events: [MarbleDiagram.Event], send: (MarbleDiagram.Symbol) -> Void)] = []
    private var subscriptions: [(subscribe: Int, disconnect: Int?, connect: () -> Connection)] = []
    private var hasRun = false

    /// A test whose diagrams last `tick` per character, on `scheduler`.
    ///
    /// - Precondition: `tick` is positive.
    public init(tick: Duration = .seconds(1), scheduler: TestScheduler = TestScheduler()) {
        precondition(tick > .zero, "ReactiveTesting: a marble tick must be positive, got \(tick)")
        self.tick = tick
        self.scheduler = scheduler
        start = scheduler.now
    }

    /// The tick the scheduler's clock is at.
    public var currentTick: Int {
        Int(((scheduler.now - start) / tick).rounded(.down))
    }

    // MARK: Inputs

    /// Plays the values of `diagram`, whose names are the values, into `send`.
    ///
    /// - Precondition: `diagram` parses and has no ending (`|`, `#`, `~`): a values-only
    ///   input cannot end. Use ``play(_:values:failure:events:)`` for one that can.
    public func play(_ diagram: String, into send: @escaping (String) -> Void) {
        play(diagram, values: [:], into: send)
    }

    /// Plays the values of `diagram`, each name looked up in `values`, into `send`.
    ///
    /// - Precondition: `diagram` parses, has no ending, and names only values in `values`
    ///   (or, for `String` values, names that are their own values).
    public func play<Value>(_ diagram: String, values: [String: Value], into send: @escaping (Value) -> Void) {
        let parsed = Self.parse(diagram)
        precondition(
            !parsed.events.contains { [.finished, .failed, .interrupted, .disconnect].contains($0.symbol) },
            "ReactiveTesting: the diagram '\(diagram)' ends, but its input takes values only; play it with events:")
        let resolve = Self.resolver(values, diagram: diagram)
        add(parsed) { symbol in
            if case .value(let name) = symbol { send(resolve(name)) }
        }
    }

    /// Plays the events of `diagram` into `send`: values looked up in `values`, `|` as
    /// finished, `#` as failed with `failure`, `~` as interrupted.
    ///
    /// - Precondition: `diagram` parses, names only values in `values` (or, for `String`
    ///   values, names that are their own values), and has no `#` unless `failure` is given.
    public func play<Value, Failure: Error>(
        _ diagram: String, values: [String: Value] = [:], failure: Failure? = nil,
        events send: @escaping (StreamEvent<Value, Failure>) -> Void
    ) {
        let parsed = Self.parse(diagram)
        precondition(
            failure != nil || !parsed.events.contains { $0.symbol == .failed },
            "ReactiveTesting: the diagram '\(diagram)' fails (#): pass the error to send as failure:")
        let resolve = Self.resolver(values, diagram: diagram)
        add(parsed) { symbol in
            switch symbol {
            case .value(let name): send(.value(resolve(name)))
            case .finished: send(.completion(.finished))
            case .failed: send(.completion(.failed(failure!)))
            case .interrupted: send(.completion(.interrupted))
            case .disconnect: break
            }
        }
    }

    private func add(_ diagram: MarbleDiagram, send: @escaping (MarbleDiagram.Symbol) -> Void) {
        precondition(!hasRun, "ReactiveTesting: a MarbleTest plays its inputs before it runs, not after")
        inputs.append((diagram.events, send))
    }

    // MARK: Recordings

    /// Records the values `source` delivers, with the tick of each.
    ///
    /// `subscription` says when to subscribe (`^`, time zero by default) and, with `!`, when
    /// to disconnect: `"--^---!"` subscribes at tick 2 and disconnects at tick 6.
    public func record<Source: Subscribable>(
        _ source: Source, subscription: String = "^"
    ) -> MarbleRecording<Source.Value, Never> {
        let recording = MarbleRecording<Source.Value, Never>(test: self)
        addSubscription(subscription) {
            let sink = IsolatedSink<Source.Value> { recording.append(.value($0)) }
            return source.subscribe { sink($0) }
        }
        return recording
    }

    /// Records the values and the completion `stream` delivers, with the tick of each.
    ///
    /// `subscription` says when to subscribe and disconnect, as for ``record(_:subscription:)-(Source,_)``.
    public func record<Stream: CompletableSubscribable>(
        _ stream: Stream, subscription: String = "^"
    ) -> MarbleRecording<Stream.Value, Stream.Failure> {
        let recording = MarbleRecording<Stream.Value, Stream.Failure>(test: self)
        addSubscription(subscription) {
            let sink = IsolatedSink<StreamEvent<Stream.Value, Stream.Failure>> { recording.append($0) }
            return stream.subscribe(events: { sink($0) })
        }
        return recording
    }

    private func addSubscription(_ diagram: String, connect: @escaping () -> Connection) {
        precondition(!hasRun, "ReactiveTesting: a MarbleTest records before it runs, not after")
        let text = diagram.contains("^") ? diagram : "^" + diagram
        guard let parsed = try? MarbleDiagram(parsing: text),
            parsed.events.allSatisfy({ $0.symbol == .disconnect }), parsed.events.count <= 1
        else {
            preconditionFailure(
                "ReactiveTesting: the diagram '\(diagram)' is not a subscription diagram: ticks (-), one ^ to subscribe, one ! to disconnect"
            )
        }
        // The subscription is at the diagram's time zero, its ^: ticks before it count back.
        let offset = text.distance(from: text.startIndex, to: text.firstIndex(of: "^")!)
        let leading = text.prefix(offset).filter { $0 != " " }.count
        subscriptions.append((leading, parsed.events.first.map { $0.tick + leading }, connect))
    }

    // MARK: Running

    /// Runs the test: sends the inputs' events before time zero, subscribes the recordings
    /// due at time zero, then moves time on until `untilTick`, or, if `nil`, until no work
    /// is left on the scheduler.
    ///
    /// - Precondition: the test has not run yet.
    public func run(untilTick: Int? = nil) {
        precondition(!hasRun, "ReactiveTesting: a MarbleTest runs once")
        hasRun = true
        for input in inputs {
            for event in input.events where event.tick < 0 { input.send(event.symbol) }
        }
        var connections: [Int: Connection] = [:]
        var scheduled: [Connection] = []
        func schedule(_ at: Int, _ work: @escaping () -> Void) {
            scheduled.append(scheduler.schedule(at: start + tick * at, isolated: work))
        }
        for (index, subscription) in subscriptions.enumerated() {
            if let disconnect = subscription.disconnect {
                schedule(disconnect) { connections.removeValue(forKey: index)?.disconnect() }
            }
        }
        for (index, subscription) in subscriptions.enumerated() {
            if subscription.subscribe == 0 {
                connections[index] = subscription.connect()
            } else {
                schedule(subscription.subscribe) { connections[index] = subscription.connect() }
            }
        }
        for input in inputs {
            for event in input.events where event.tick >= 0 {
                schedule(event.tick) { input.send(event.symbol) }
            }
        }
        if let untilTick {
            scheduler.advance(to: start + tick * untilTick)
        } else {
            scheduler.run()
        }
        withExtendedLifetime((connections, scheduled)) {}
        // The inputs' senders and the recordings' subscribers are spent: let go of them, and of
        // whatever they capture (a stream that captures this test would otherwise keep it).
        inputs = []
        subscriptions = []
    }

    // MARK: Expectations

    /// Records an issue if `recording` differs from `expected`, showing both as diagrams;
    /// returns whether they match.
    ///
    /// Value names in `expected` are looked up in `values` (or, for `String` values, are
    /// their own values); a `#` matches any failure.
    @discardableResult
    public func expect<Value: Equatable, Failure: Error>(
        _ recording: MarbleRecording<Value, Failure>, _ expected: String, values: [String: Value] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let parsed = Self.parse(expected)
        let resolve = Self.resolver(values, diagram: expected)
        let actual = recording.events
        let matches =
            parsed.events.count == actual.count
            && zip(parsed.events, actual).allSatisfy { wanted, got in
                guard wanted.tick == got.tick else { return false }
                switch (wanted.symbol, got.event) {
                case (.value(let name), .value(let value)): return resolve(name) == value
                case (.finished, .completion(.finished)), (.failed, .completion(.failed)),
                    (.interrupted, .completion(.interrupted)):
                    return true
                default: return false
                }
            }
        if !matches {
            let names = recording.diagram(names: values)
            Issue.record(
                Comment(rawValue: "marbles differ\n  expected: \(parsed.text)\n  actual:   \(names.text)"),
                sourceLocation: sourceLocation)
        }
        return matches
    }

    // MARK: Helpers

    static func parse(_ diagram: String) -> MarbleDiagram {
        do {
            return try MarbleDiagram(parsing: diagram)
        } catch {
            preconditionFailure("ReactiveTesting: \(error)")
        }
    }

    static func resolver<Value>(_ values: [String: Value], diagram: String) -> (String) -> Value {
        { name in
            if let value = values[name] { return value }
            if let value = name as? Value { return value }
            preconditionFailure(
                "ReactiveTesting: the diagram '\(diagram)' names a value '\(name)' that values: does not have")
        }
    }
}

/// What a stream delivered during a ``MarbleTest``, with the tick of each event.
///
/// Recording is locked, so a thread-safe stream may deliver from any thread.
public final class MarbleRecording<Value, Failure: Error>: @unchecked Sendable {
    // `@unchecked`: the events are only reached under the lock; the test reads them once
    // it has run.
    private let recorded = LockedState<[(tick: Int, event: StreamEvent<Value, Failure>)]>([])
    private unowned let test: MarbleTest

    init(test: MarbleTest) {
        self.test = test
    }

    func append(_ event: StreamEvent<Value, Failure>) {
        let tick = test.currentTick
        recorded.withLock { $0.append((tick, event)) }
    }

    /// The events recorded, oldest first, each with its tick.
    public var events: [(tick: Int, event: StreamEvent<Value, Failure>)] {
        recorded.withLock { $0 }
    }

    /// The values recorded, oldest first.
    public var values: [Value] {
        events.compactMap { $0.event.value }
    }

    /// The completion recorded, if the stream ended.
    public var completion: Completion<Failure>? {
        events.last?.event.completion
    }

    /// The recording as a diagram, each value named by its description.
    public var diagram: MarbleDiagram {
        MarbleDiagram(
            rendering: events.map { MarbleDiagram.Event(tick: $0.tick, symbol: Self.symbol($0.event) { "\($0)" }) })
    }

    static func symbol(_ event: StreamEvent<Value, Failure>, name: (Value) -> String) -> MarbleDiagram.Symbol {
        switch event {
        case .value(let value): .value(name(value))
        case .completion(.finished): .finished
        case .completion(.failed): .failed
        case .completion(.interrupted): .interrupted
        }
    }
}

extension MarbleRecording where Value: Equatable {
    /// The recording as a diagram, each value named by its name in `names`, or else by its
    /// description.
    public func diagram(names: [String: Value]) -> MarbleDiagram {
        MarbleDiagram(
            rendering: events.map { entry in
                let symbol = Self.symbol(entry.event) { value in
                    names.first { $0.value == value }?.key ?? "\(value)"
                }
                return MarbleDiagram.Event(tick: entry.tick, symbol: symbol)
            })
    }
}
