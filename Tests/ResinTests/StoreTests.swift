import Resin
import TestSupport
import Testing

struct Foo: Equatable { var count = 0 }
struct Bar: Equatable { var text = "" }
struct AppState: Equatable {
    var foo = Foo()
    var bar = Bar()
    var log: [String] = []
}

struct Increment: Action, Equatable { var by = 1 }
struct Append: Action, Equatable { var text: String }
struct Note: Action, Equatable { var line: String }
struct Unknown: Action {}

@Suite("Store")
struct StoreTests {
    @Test("the seed's shape: one app state, components focused on Foo and Bar")
    func seedShape() {
        let registrations = Connector()
        let store = Store(initialState: AppState(), scheduler: TestScheduler())
        let foo = store.focus(\.foo)
        let bar = store.focus(\.bar)
        registrations += foo.register(Reducer<Foo, Increment> { state, action in state.count += action.by })
        registrations += bar.register(Reducer<Bar, Append> { state, action in state.text += action.text })
        var seen: [AppState] = []
        let connection = store.state.observe { seen.append($0) }
        store.dispatch(Increment(by: 2))
        store.dispatch(Append(text: "hi"))
        #expect(seen.map(\.foo.count) == [0, 2, 2])
        #expect(seen.last?.bar.text == "hi")
        _ = connection
    }

    @Test("several reducers for one action type run in registration order")
    func reducerOrder() {
        let registrations = Connector()
        let store = Store(initialState: AppState(), scheduler: TestScheduler())
        registrations += store.register(
            Reducer<AppState, Note> { state, note in state.log.append("first \(note.line)") })
        registrations += store.focus(\.foo).register(Reducer<Foo, Note> { state, _ in state.count += 1 })
        registrations += store.register(
            Reducer<AppState, Note> { state, note in state.log.append("second \(note.line)") })
        store.dispatch(Note(line: "x"))
        #expect(store.state.value.log == ["first x", "second x"])
        #expect(store.state.value.foo.count == 1)
    }

    @Test("an action dispatched while another is processed is queued, FIFO, never dropped")
    func queuedDispatch() {
        let registrations = Connector()
        let store = Store(initialState: AppState(), scheduler: TestScheduler())
        registrations += store.register(Reducer<AppState, Note> { state, note in state.log.append(note.line) })
        registrations += store.register(
            Middleware<AppState>.on(Note.self) { note, context in
                if note.line == "a" {
                    context.dispatch(Note(line: "b"))
                    context.dispatch(Note(line: "c"))
                }
            })
        var observed: [[String]] = []
        let connection = store.state.map(\.log).observe { log in
            observed.append(log)
            if log == ["a", "b", "c"] { store.dispatch(Note(line: "from observer")) }
        }
        store.dispatch(Note(line: "a"))
        #expect(store.state.value.log == ["a", "b", "c", "from observer"])
        #expect(observed.first == [] && observed.count == 5)
        _ = connection
    }

    @Test("middleware can replace or swallow an action, and sees the state of its store")
    func middlewareDecisions() {
        let registrations = Connector()
        let store = Store(initialState: AppState(), scheduler: TestScheduler())
        registrations += store.register(Reducer<AppState, Note> { state, note in state.log.append(note.line) })
        var seenCounts: [Int] = []
        registrations += store.focus(\.foo).register(
            Middleware<Foo> { action, context in
                seenCounts.append(context.state.count)
                return .pass
            })
        registrations += store.register(
            Middleware<AppState> { action, _ in
                guard let note = action as? Note else { return .pass }
                if note.line == "secret" { return .swallow }
                if note.line == "shout" { return .replace(Note(line: "SHOUT")) }
                return .pass
            })
        store.dispatch(Note(line: "secret"))
        store.dispatch(Note(line: "shout"))
        #expect(store.state.value.log == ["SHOUT"])
        #expect(seenCounts == [0, 0])
    }

    @Test("unhandled actions go to the hook, not to stdout, and change nothing")
    func unhandled() {
        let store = Store(initialState: AppState(), scheduler: TestScheduler())
        var unhandled: [String] = []
        store.focus(\.bar).unhandledActionHandler = { unhandled.append("\(type(of: $0))") }
        store.dispatch(Unknown())
        #expect(unhandled == ["Unknown"])
        #expect(store.state.value == AppState())
    }

    @Test("focusing twice gives the same store; observers of one part are not woken by another")
    func focusIsolation() {
        let registrations = Connector()
        let store = Store(initialState: AppState(), scheduler: TestScheduler())
        let foo = store.focus(\.foo)
        #expect(foo === store.focus(\.foo))
        registrations += foo.register(Reducer<Foo, Increment> { state, action in state.count += action.by })
        registrations += store.focus(\.bar).register(
            Reducer<Bar, Append> { state, action in state.text += action.text })
        var fooWakes = 0
        var barWakes = 0
        let connections = [
            foo.state.observe { _ in fooWakes += 1 }, store.focus(\.bar).state.observe { _ in barWakes += 1 },
        ]
        store.dispatch(Increment())
        store.dispatch(Increment())
        store.dispatch(Append(text: "x"))
        #expect(fooWakes == 3)
        #expect(barWakes == 2)
        _ = connections
    }

    @Test("a change at the root reaches focused observers; a focused change reaches the root")
    func ancestorsAndDescendants() {
        let registrations = Connector()
        struct Inner: Equatable { var value = 0 }
        struct Outer: Equatable { var inner = Inner() }
        struct Root: Equatable { var outer = Outer() }
        struct Set: Action { var value: Int }
        struct Bump: Action {}
        let store = Store(initialState: Root(), scheduler: TestScheduler())
        let inner = store.focus(\.outer).focus(\.inner)
        registrations += store.register(Reducer<Root, Set> { state, action in state.outer.inner.value = action.value })
        registrations += inner.register(Reducer<Inner, Bump> { state, _ in state.value += 1 })
        var innerSeen: [Int] = []
        var rootSeen: [Int] = []
        let connections = [
            inner.state.observe { innerSeen.append($0.value) },
            store.state.observe { rootSeen.append($0.outer.inner.value) },
        ]
        store.dispatch(Set(value: 5))
        store.dispatch(Bump())
        #expect(innerSeen == [0, 5, 6])
        #expect(rootSeen == [0, 5, 6])
        #expect(store.focus(\.outer).state.value.inner.value == 6)
        _ = connections
    }

    @Test("optional parts and collection elements focus as optional states")
    func optionalAndElementFocus() {
        let registrations = Connector()
        struct Todo: Identifiable, Equatable { let id: Int; var done = false }
        struct State: Equatable {
            var selected: Todo?
            var todos: [Todo] = [Todo(id: 1), Todo(id: 2)]
            var tags: [String: Int] = [:]
        }
        struct Toggle: Action {}
        let store = Store(initialState: State(), scheduler: TestScheduler())
        registrations += store.focus(\.selected).register(
            presentOnly: Reducer<Todo, Toggle> { todo, _ in todo.done.toggle() })
        registrations += store.focus(\.todos[id: 2]).register(
            presentOnly: Reducer<Todo, Toggle> { todo, _ in todo.done.toggle() })
        registrations += store.focus(\.tags["swift"]).register(
            Reducer<Int?, Toggle> { count, _ in count = (count ?? 0) + 1 })
        store.dispatch(Toggle())
        #expect(store.state.value.selected == nil)
        #expect(store.state.value.todos == [Todo(id: 1), Todo(id: 2, done: true)])
        #expect(store.state.value.tags == ["swift": 1])
        #expect(store.focus(\.todos[id: 2]).state.value?.done == true)
    }

    @Test("a dispatch that changes one of 1,000 keyed parts wakes one observer, at the cost of 10")
    func focusedCostDoesNotGrow() {
        let small = runParts(10, keyed: true)
        let large = runParts(1_000, keyed: true)
        #expect(small.wakes == 1 && large.wakes == 1)
        #expect(small.recomputations == large.recomputations)
        #expect(small.refreshes == 2 && large.refreshes == 2)  // the part and the root
    }

    @Test("through a subscript key path, the parts beside the changed one are refreshed but not woken")
    func subscriptFociRefreshTheirNeighbours() {
        let small = runParts(10, keyed: false)
        let large = runParts(1_000, keyed: false)
        #expect(small.wakes == 1 && large.wakes == 1)
        #expect(small.refreshes == 11 && large.refreshes == 1_001)
    }

    /// A store of `parts` observed values, one of which an action changes.
    private func runParts(_ parts: Int, keyed: Bool) -> (wakes: Int, recomputations: Int, refreshes: Int) {
        let registrations = Connector()
        struct Parts: Equatable { var values: [Int: Int] }
        struct Bump: Action {}
        let store = Store(
            initialState: Parts(values: Dictionary(uniqueKeysWithValues: (0..<parts).map { ($0, 0) })),
            scheduler: TestScheduler())
        func part(_ key: Int) -> Store<Int?> { keyed ? store.focus(\.values, key: key) : store.focus(\.values[key]) }
        var wakes = 0
        var connections: [Connection] = []
        for key in 0..<parts {
            connections.append(part(key).state.observe { _ in wakes += 1 })
        }
        registrations += part(7).register(Reducer<Int?, Bump> { value, _ in value! += 1 })
        wakes = 0
        store.dispatch(Bump())
        #expect(store.state.value.values[7] == 1)
        return (wakes, store.state.graph.statistics.lastRecomputations, store.lastRefreshCountForTesting)
    }

    @Test("foci of a part and of a part inside it stay in step, whichever one an action goes through")
    func overlappingFoci() {
        let registrations = Connector()
        struct Settings: Equatable { var dark = false; var size = 1 }
        struct State: Equatable { var settings = Settings(); var other = 0 }
        struct Grow: Action {}
        struct Darken: Action {}
        let store = Store(initialState: State(), scheduler: TestScheduler())
        registrations += store.focus(\.settings).register(Reducer<Settings, Grow> { settings, _ in settings.size += 1 })
        registrations += store.focus(\.settings.dark).register(Reducer<Bool, Darken> { dark, _ in dark = true })
        var sizes: [Int] = []
        var settings: [Settings] = []
        var others = 0
        let connections = [
            store.focus(\.settings.size).state.observe { sizes.append($0) },
            store.focus(\.settings).state.observe { settings.append($0) },
            store.focus(\.other).state.observe { _ in others += 1 },
        ]
        store.dispatch(Grow())
        store.dispatch(Darken())
        #expect(sizes == [1, 2])
        #expect(settings == [Settings(), Settings(size: 2), Settings(dark: true, size: 2)])
        #expect(others == 1)
        #expect(store.lastRefreshCountForTesting == 3)  // settings.dark, settings, the root
        _ = connections
    }

    @Test("an element focus that changes its element's id is a precondition failure")
    func elementIdentityChanges() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Todo: Identifiable, Equatable { var id: Int }
            struct State: Equatable { var todos = [Todo(id: 1)] }
            struct Renumber: Action {}
            let store = Store(initialState: State(), scheduler: TestScheduler())
            let renumber = store.focus(\.todos, id: 1).register(
                presentOnly: Reducer<Todo, Renumber> { todo, _ in todo.id = 2 })
            store.dispatch(Renumber())
            _ = renumber
        }
        expectStandardError(
            of: result, contains: "Resin: a reducer changed the id of the element it focuses on, from 1 to 2")
    }

    @Test("a store, its focused stores, their observers and running effects are freed")
    func freed() {
        let registrations = Connector()
        weak var weakStore: Store<AppState>?
        weak var weakFocus: Store<Foo>?
        weak var weakEngine: AnyObject?
        weak var weakGraph: AnyObject?
        weak var weakRootState: I<AppState>?
        weak var weakFocusState: I<Foo>?
        do {
            let store = Store(initialState: AppState(), scheduler: TestScheduler())
            let foo = store.focus(\.foo)
            registrations += foo.register(Reducer<Foo, Increment> { state, action in state.count += action.by })
            registrations += store.register(
                Middleware<AppState>.on(Increment.self) { _, context in
                    context.run(id: "forever") { _ in
                        for await _ in AsyncStream<Int>.makeStream().stream {}
                    }
                })
            let connection = foo.state.observe { _ in }
            store.dispatch(Increment())
            #expect(store.runningEffectCount == 1)
            connection.disconnect()
            (weakStore, weakFocus) = (store, foo)
            (weakEngine, weakGraph) = store.engineForTesting
            (weakRootState, weakFocusState) = (store.state, foo.state)
        }
        // Registrations do not keep the store: it is freed while they are still held.
        #expect(weakStore == nil)
        #expect(weakFocus == nil)
        #expect(weakEngine == nil)
        #expect(weakGraph == nil)
        #expect(weakRootState == nil)
        #expect(weakFocusState == nil)
        registrations.disconnect()
    }

    @Test("a released store frees its effect inbox and its scheduler (no cycle through the inbox)")
    func inboxFreed() {
        weak var weakInbox: AnyObject?
        weak var weakScheduler: TestScheduler?
        do {
            let scheduler = TestScheduler()
            let store = Store(initialState: AppState(), scheduler: scheduler)
            store.dispatch(Increment())
            (weakInbox, weakScheduler) = (store.effectInboxForTesting, scheduler)
        }
        #expect(weakInbox == nil)
        #expect(weakScheduler == nil)
    }
}
