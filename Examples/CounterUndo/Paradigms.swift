import Cycle
import Glue
import Incremental
import ReactiveCore
import Resin
import SignalGraph
import Signals

// MARK: Glue

/// A `Variable` holds the history; a subscription shows it.
final class GlueCounter: CounterApp {
    private let history = Glue.Variable(CounterHistory())
    private var connection: ReactiveCore.Connection?

    init(show: @escaping (String) -> Void) {
        connection = history.map(\.display).subscribe(show)
    }

    func perform(_ command: Command) {
        var next = history.value
        next.apply(command)
        history.value = next
    }

    func tearDown() { connection?.disconnect() }

    func inspect() -> Inspection? { history.inspect() }
}

// MARK: Incremental

/// An input holds the history; the display is a derived value, observed.
final class IncrementalCounter: CounterApp {
    private let graph = Graph()
    private let history: Input<CounterHistory>
    private var shown: I<String>?
    private var connection: ReactiveCore.Connection?

    init(show: @escaping (String) -> Void) {
        history = graph.input(CounterHistory())
        let display = history.map(\.display)
        shown = display
        connection = display.observe(show)
    }

    func perform(_ command: Command) {
        history.modify { $0.apply(command) }
    }

    func tearDown() { connection?.disconnect() }

    func inspect() -> Inspection? { shown?.inspect() }
}

// MARK: Resin

/// Each command is an action of the counter feature.
extension Command: Action {}

/// A store typed by the counter's commands: one reducer keeps the history, a focused observer
/// shows it, and `send(.increment)` names a command with a leading dot.
final class ResinCounter: CounterApp {
    private let store: FeatureStore<CounterHistory, Command>
    private var connection: ReactiveCore.Connection?

    init(show: @escaping (String) -> Void) {
        store = FeatureStore(
            initialState: CounterHistory(),
            reducer: Reducer { history, command in history.apply(command) },
            scheduler: TestScheduler())
        connection = store.state.map(\.display).observe(show)
    }

    func perform(_ command: Command) { store.send(command) }

    func tearDown() { connection?.disconnect() }

    func inspect() -> Inspection? { store.store.inspect() }
}

// MARK: Cycle

/// Shows the models' display.
final class CounterScreen: Driver {
    let show: (String) -> Void
    init(show: @escaping (String) -> Void) { self.show = show }

    func rendered(_ models: EventStream<CounterHistory>) -> EventStream<Never> {
        EventStream { [show] _ in models.subscribe { show($0.display) } }
    }
}

/// Commands are events; the reducer applies them to the history, which is the screen's model.
struct CounterProgram: SinkSourceConverting {
    enum DriverEvent {
        case started
        case command(Command)
    }

    let screen: CounterScreen

    func eventsFrom(effects: EventStream<CounterHistory>) -> EventStream<DriverEvent> {
        let rendered = screen.rendered(effects)
        return EventStream { _ in rendered.subscribe { _ in } }
    }

    func effectsFrom(events: EventStream<(DriverEvent, CounterHistory)>) -> EventStream<CounterHistory> {
        events.map { event, history in
            var history = history
            if case .command(let command) = event { history.apply(command) }
            return history
        }
    }

    func start() -> (DriverEvent, CounterHistory) { (.started, CounterHistory()) }
}

final class CycleCounter: CounterApp {
    private let loop: CycleLoop<CounterProgram>

    init(show: @escaping (String) -> Void) {
        loop = CycleLoop(program: CounterProgram(screen: CounterScreen(show: show)))
    }

    func perform(_ command: Command) { loop.receive(.command(command)) }

    func tearDown() { loop.dispose() }

    func inspect() -> Inspection? { loop.inspect() }
}

// MARK: Signals

/// A `Property` holds the history; a `noDispatch()` chain shows it (on this thread).
final class SignalsCounter: CounterApp {
    private let history = Property(value: CounterHistory())
    private let chains = ObservableCollection()

    init(show: @escaping (String) -> Void) {
        // One thread, and the chain runs inline on it: `IsolatedSink`'s contract.
        let show = IsolatedSink(show)
        history.didSet.noDispatch().map(\.display).then { show($0) }.append(to: chains)
    }

    func perform(_ command: Command) {
        history.modify { $0.apply(command) }
    }

    func tearDown() { chains.removeAll() }

    func inspect() -> Inspection? { history.inspect() }
}

// MARK: SignalGraph

/// An editable value storage holds the history; a state handler shows it. Torn down by hand.
final class SignalGraphCounter: CounterApp {
    private let history = EditableValueStorage(CounterHistory())
    private let handler: StateHandler<CounterHistory, CounterHistory>

    init(show: @escaping (String) -> Void) {
        handler = StateHandler(didInitiate: { show($0.display) }, didTransition: { show($0.display) })
        history.register(handler)
    }

    func perform(_ command: Command) {
        var next = history.state
        next.apply(command)
        history.state = next
    }

    func tearDown() { history.deregister(handler) }

    func inspect() -> Inspection? { history.inspect() }
}

// MARK: Baseline

/// A stored property whose `didSet` shows it.
final class BaselineCounter: CounterApp {
    private let show: (String) -> Void
    private var history = CounterHistory() {
        didSet { show(history.display) }
    }

    init(show: @escaping (String) -> Void) {
        self.show = show
        show(history.display)
    }

    func perform(_ command: Command) { history.apply(command) }

    func tearDown() {}

    func inspect() -> Inspection? { nil }
}

extension CounterHistory {
    mutating func apply(_ command: Command) {
        switch command {
        case .increment: change(by: 1)
        case .decrement: change(by: -1)
        case .undo: undo()
        case .redo: redo()
        }
    }
}

/// Every paradigm's counter, by name.
@MainActor let counterApps: [(name: String, make: (@escaping (String) -> Void) -> any CounterApp)] = [
    ("SignalGraph", { SignalGraphCounter(show: $0) }),
    ("Glue", { GlueCounter(show: $0) }),
    ("Incremental", { IncrementalCounter(show: $0) }),
    ("Resin", { ResinCounter(show: $0) }),
    ("Cycle", { CycleCounter(show: $0) }),
    ("Signals", { SignalsCounter(show: $0) }),
    ("Baseline", { BaselineCounter(show: $0) }),
]
