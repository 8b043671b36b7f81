import Cycle
import Glue
import Incremental
import ReactiveCore
import Resin
import SignalGraph
import Signals

/// How the list is shown: the filter and the order.
struct Settings: Equatable {
    var filter = Filter.all
    var order = Order.id
}

// MARK: SignalGraph

/// A dictionary storage of todos, then a sorting view (to an array), an array filtering view
/// and a mapping view, each fixed at creation; showing another filter or order tears the views
/// down and sets new ones up, as SignalGraph's teardown rule asks. (The seed's pipeline filters
/// the dictionary first; sorting first and filtering the sorted array shows the same list.)
final class SignalGraphTodos: TodoApp {
    private let todos = EditableDictionaryStorage<Int, Todo>()
    private var views:
        (
            DictionarySortingArrayStorage<Int, Todo>, ArrayFilteringArrayStorage<(key: Int, value: Todo)>,
            ArraySignalMapStorage<(key: Int, value: Todo), String>, StateHandler<[String], ArrayTransition<String>>
        )?
    private var settings = Settings()
    private var nextID = 1
    private let show: ([String]) -> Void

    init(show: @escaping ([String]) -> Void) {
        self.show = show
        setUpViews()
    }

    private func setUpViews() {
        let settings = settings
        let sorted = DictionarySortingArrayStorage<Int, Todo> { settings.order.isBefore($0.value, $1.value) }
        let visible = ArrayFilteringArrayStorage<(key: Int, value: Todo)> { settings.filter.includes($0.value) }
        let lines = ArraySignalMapStorage<(key: Int, value: Todo), String> { $0.value.line }
        let handler = StateHandler<[String], ArrayTransition<String>>(
            didInitiate: { [show] in show($0) }, didTransition: { [show, unowned lines] _ in show(lines.state) })
        todos.register(sorted)
        sorted.register(visible)
        visible.register(lines)
        lines.register(handler)
        views = (sorted, visible, lines, handler)
    }

    func tearDown() {
        guard let (sorted, visible, lines, handler) = views else { return }
        lines.deregister(handler)
        visible.deregister(lines)
        sorted.deregister(visible)
        todos.deregister(sorted)
        views = nil
    }

    func inspect() -> Inspection? { todos.inspect() }

    func perform(_ command: TodoCommand) {
        switch command {
        case .add(let title, let priority):
            todos[nextID] = Todo(id: nextID, title: title, priority: priority)
            nextID += 1
        case .setDone(let id, let done):
            if var todo = todos[id] {
                todo.done = done
                todos[id] = todo
            }
        case .remove(let id): todos.removeValue(forKey: id)
        case .show(let filter): rebuild { $0.filter = filter }
        case .sort(let order): rebuild { $0.order = order }
        }
    }

    private func rebuild(_ change: (inout Settings) -> Void) {
        tearDown()
        change(&settings)
        setUpViews()
    }
}

// MARK: Glue

/// A todo as Glue's users model one: an object whose `done` is a variable of its own, so
/// marking it done changes that variable alone.
final class GlueTodo: Hashable {
    /// The fields that never change.
    let todo: Todo
    let done: Glue.Variable<Bool>

    init(_ todo: Todo) {
        self.todo = todo
        done = Glue.Variable(todo.done)
    }

    /// How the list shows it, kept up to date with `done`.
    var line: MappedObservable<Glue.Variable<Bool>, String> {
        done.map { [todo] done in Todo(id: todo.id, title: todo.title, priority: todo.priority, done: done).line }
    }

    static func == (left: GlueTodo, right: GlueTodo) -> Bool { left === right }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A set of todo objects and Glue's observable collections: sorted → filtered on each
/// todo's `done` variable → mapped to each todo's line, which follows `done` too. Marking a
/// todo done changes its variable, and the filter and the map update that one todo in
/// O(log n); the order's closure is fixed, so a new filter or order derives a new pipeline.
final class GlueTodos: TodoApp {
    private let todos = SetVariable<GlueTodo>()
    private var byID: [Int: GlueTodo] = [:]
    private let settings = Glue.Variable(Settings())
    private var pipeline: ReactiveCore.Connection?
    private var settingsConnection: ReactiveCore.Connection?
    private var nextID = 1

    init(show: @escaping ([String]) -> Void) {
        let todos = todos
        settingsConnection = settings.subscribe { [unowned self] settings in
            pipeline?.disconnect()
            let filter = settings.filter
            pipeline = todos.sorted { settings.order.isBefore($0.todo, $1.todo) }
                .filter(observing: \.done) { done in filter == .all || (filter == .done) == done }
                .map(observing: \.line)
                .subscribe(show)
        }
    }

    func perform(_ command: TodoCommand) {
        switch command {
        case .add(let title, let priority):
            let todo = GlueTodo(Todo(id: nextID, title: title, priority: priority))
            nextID += 1
            byID[todo.todo.id] = todo
            todos.insert(todo)
        case .setDone(let id, let done):
            guard let todo = byID[id], todo.done.value != done else { return }
            todo.done.value = done
        case .remove(let id):
            if let old = byID.removeValue(forKey: id) { todos.remove(old) }
        case .show(let filter): settings.value.filter = filter
        case .sort(let order): settings.value.order = order
        }
    }

    func tearDown() {
        settingsConnection?.disconnect()
        pipeline?.disconnect()
    }

    func inspect() -> Inspection? { Inspection(paradigm: "Glue", merging: [todos.inspect(), settings.inspect()]) }
}

// MARK: Incremental

/// A dictionary input of todos and an input of settings; the list is a `flatMap` over the
/// settings into derived collections, so a new filter or order rebuilds the view inside the
/// graph and every other change is an edit.
final class IncrementalTodos: TodoApp {
    private let graph = Graph()
    private let todos: DictionaryInput<Int, Todo>
    private let settings: Input<Settings>
    private var shown: (any Inspectable)?
    private var connection: ReactiveCore.Connection?
    private var nextID = 1

    init(show: @escaping ([String]) -> Void) {
        todos = graph.dictionaryInput([:])
        settings = graph.input(Settings())
        let todos = todos
        let lines = settings.flatMap { settings in
            todos.filterEntries { settings.filter.includes($1) }
                .sortedEntries { settings.order.isBefore($0.value, $1.value) }
                .mapElements(\.value.line)
        }
        shown = lines
        connection = lines.observe { show($0.elements) }
    }

    func perform(_ command: TodoCommand) {
        switch command {
        case .add(let title, let priority):
            todos[nextID] = Todo(id: nextID, title: title, priority: priority)
            nextID += 1
        case .setDone(let id, let done):
            if var todo = todos[id] {
                todo.done = done
                todos[id] = todo
            }
        case .remove(let id): todos.removeValue(forKey: id)
        case .show(let filter): settings.modify { $0.filter = filter }
        case .sort(let order): settings.modify { $0.order = order }
        }
    }

    func tearDown() { connection?.disconnect() }

    func inspect() -> Inspection? { shown?.inspect() }
}

// MARK: Resin

struct PerformTodo: Action { var command: TodoCommand }

/// A store of `TodoState`; one reducer applies the commands; the lines are derived from the
/// state (recomputed when it changes).
final class ResinTodos: TodoApp {
    private let store = Store(initialState: TodoState(), scheduler: TestScheduler())
    private var connection: ReactiveCore.Connection?
    private let reducer: ReactiveCore.Connection

    init(show: @escaping ([String]) -> Void) {
        reducer = store.register(Reducer<TodoState, PerformTodo> { state, action in state.apply(action.command) })
        connection = store.state.map(\.lines).observe(show)
    }

    func perform(_ command: TodoCommand) { store.dispatch(PerformTodo(command: command)) }

    func tearDown() { connection?.disconnect() }

    func inspect() -> Inspection? { store.inspect() }
}

// MARK: Cycle

/// Shows the models' lines.
final class TodoScreen: Driver {
    let show: ([String]) -> Void
    init(show: @escaping ([String]) -> Void) { self.show = show }

    func rendered(_ models: EventStream<TodoState>) -> EventStream<Never> {
        EventStream { [show] _ in models.subscribe { show($0.lines) } }
    }
}

/// Commands are events; the reducer applies them to the state, the screen driver's model.
struct TodoProgram: SinkSourceConverting {
    enum DriverEvent {
        case started
        case command(TodoCommand)
    }

    let screen: TodoScreen

    func eventsFrom(effects: EventStream<TodoState>) -> EventStream<DriverEvent> {
        let rendered = screen.rendered(effects)
        return EventStream { _ in rendered.subscribe { _ in } }
    }

    func effectsFrom(events: EventStream<(DriverEvent, TodoState)>) -> EventStream<TodoState> {
        events.map { event, state in
            var state = state
            if case .command(let command) = event { state.apply(command) }
            return state
        }
    }

    func start() -> (DriverEvent, TodoState) { (.started, TodoState()) }
}

final class CycleTodos: TodoApp {
    private let loop: CycleLoop<TodoProgram>

    init(show: @escaping ([String]) -> Void) {
        loop = CycleLoop(program: TodoProgram(screen: TodoScreen(show: show)))
    }

    func perform(_ command: TodoCommand) { loop.receive(.command(command)) }

    func tearDown() { loop.dispose() }

    func inspect() -> Inspection? { loop.inspect() }
}

// MARK: Signals

/// A `Property` of the state; a `noDispatch()` chain maps it to lines and shows them.
final class SignalsTodos: TodoApp {
    private let state = Property(value: TodoState())
    private let chains = ObservableCollection()

    init(show: @escaping ([String]) -> Void) {
        // One thread, and the chain runs inline on it: `IsolatedSink`'s contract.
        let show = IsolatedSink(show)
        state.didSet.noDispatch().map(\.lines).then { show($0) }.append(to: chains)
    }

    func perform(_ command: TodoCommand) { state.modify { $0.apply(command) } }

    func tearDown() { chains.removeAll() }

    func inspect() -> Inspection? { state.inspect() }
}

// MARK: Baseline

/// A stored property whose `didSet` shows the lines.
final class BaselineTodos: TodoApp {
    private let show: ([String]) -> Void
    private var state = TodoState() {
        didSet { show(state.lines) }
    }

    init(show: @escaping ([String]) -> Void) {
        self.show = show
        show(state.lines)
    }

    func perform(_ command: TodoCommand) { state.apply(command) }

    func tearDown() {}

    func inspect() -> Inspection? { nil }
}

/// Every paradigm's todo list, by name.
@MainActor let todoApps: [(name: String, make: (@escaping ([String]) -> Void) -> any TodoApp)] = [
    ("SignalGraph", { SignalGraphTodos(show: $0) }),
    ("Glue", { GlueTodos(show: $0) }),
    ("Incremental", { IncrementalTodos(show: $0) }),
    ("Resin", { ResinTodos(show: $0) }),
    ("Cycle", { CycleTodos(show: $0) }),
    ("Signals", { SignalsTodos(show: $0) }),
    ("Baseline", { BaselineTodos(show: $0) }),
]
