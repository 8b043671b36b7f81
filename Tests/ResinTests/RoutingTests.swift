import Resin
import TestSupport
import Testing

private struct Rows: Equatable {
    var values: [Int: Int] = [:]
    var log: [String] = []
}

private struct Bump: RoutedAction, Equatable {
    var key: Int
    var route: Int { key }
}

private struct Memo: Action, Equatable { var text: String }

/// An enum action routed by its case.
private enum Edit: RoutedAction, Equatable {
    case set(key: Int, value: Int)
    case clear(key: Int)

    enum Case: Hashable, Sendable { case set, clear }

    var route: Case {
        switch self {
        case .set: .set
        case .clear: .clear
        }
    }
}

@Suite("Resin: routing and lifetimes of registrations")
struct RoutingTests {
    @Test(
        "a routed reducer runs only for actions with its route; unrouted ones for every action of the type, in registration order"
    )
    func routedReducers() {
        let registrations = Connector()
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        var ran: [String] = []
        registrations += store.register(Reducer<Rows, Bump> { _, action in ran.append("all \(action.key)") })
        for key in 0..<3 {
            registrations += store.register(
                Reducer<Rows, Bump>(route: key) { state, _ in
                    ran.append("route \(key)")
                    state.values[key, default: 0] += 1
                })
        }
        registrations += store.register(Reducer<Rows, Bump> { _, action in ran.append("all again \(action.key)") })
        store.dispatch(Bump(key: 1))
        #expect(ran == ["all 1", "route 1", "all again 1"])
        ran = []
        store.dispatch(Bump(key: 7))
        #expect(ran == ["all 7", "all again 7"])
        #expect(store.state.value.values == [1: 1])
    }

    @Test("an enum action routes by its case")
    func routeByCase() {
        let registrations = Connector()
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        registrations += store.register(
            Reducer<Rows, Edit>(route: .set) { state, action in
                if case .set(let key, let value) = action { state.values[key] = value }
            })
        registrations += store.register(
            Reducer<Rows, Edit>(route: .clear) { state, action in
                if case .clear(let key) = action { state.values[key] = nil }
            })
        store.dispatch(Edit.set(key: 1, value: 5))
        store.dispatch(Edit.set(key: 2, value: 6))
        store.dispatch(Edit.clear(key: 1))
        #expect(store.state.value.values == [2: 6])
    }

    @Test("middleware for a type or a route sees only those actions; order across kinds is registration order")
    func routedMiddleware() {
        let registrations = Connector()
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        var seen: [String] = []
        registrations += store.register(Middleware<Rows>.on(Bump.self, route: 2) { _, _ in seen.append("route 2") })
        registrations += store.register(
            Middleware<Rows> { action, _ in
                seen.append("every \(type(of: action))")
                return .pass
            })
        registrations += store.register(
            Middleware<Rows>.on(Bump.self) { action, _ in seen.append("bump \(action.key)") })
        registrations += store.register(Middleware<Rows>.on(Memo.self) { _, _ in seen.append("memo") })
        store.dispatch(Bump(key: 2))
        #expect(seen == ["route 2", "every Bump", "bump 2"])
        seen = []
        store.dispatch(Bump(key: 3))
        store.dispatch(Memo(text: "x"))
        #expect(seen == ["every Bump", "bump 3", "every Memo", "memo"])
    }

    @Test("a replaced action is routed by the replacement")
    func replacementIsRouted() {
        let registrations = Connector()
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        registrations += store.register(
            Middleware<Rows> { action, _ in
                if let bump = action as? Bump, bump.key == 1 { return .replace(Bump(key: 2)) }
                return .pass
            })
        registrations += store.register(Reducer<Rows, Bump>(route: 1) { state, _ in state.log.append("one") })
        registrations += store.register(Reducer<Rows, Bump>(route: 2) { state, _ in state.log.append("two") })
        store.dispatch(Bump(key: 1))
        #expect(store.state.value.log == ["two"])
    }

    @Test(
        "disconnecting or releasing a registration unregisters it; a registration disconnected during a dispatch does not run after"
    )
    func registrationLifetimes() {
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        var ran: [String] = []
        var second: Connection?
        let first = store.register(
            Reducer<Rows, Memo> { _, note in
                ran.append("first \(note.text)")
                // Reentrant: the next reducer is unregistered while this dispatch walks them.
                if note.text == "drop" { second?.disconnect() }
            })
        second = store.register(Reducer<Rows, Memo> { _, note in ran.append("second \(note.text)") })
        do {
            let third = store.register(Reducer<Rows, Memo> { _, note in ran.append("third \(note.text)") })
            store.dispatch(Memo(text: "a"))
            _ = third
        }
        store.dispatch(Memo(text: "drop"))
        store.dispatch(Memo(text: "b"))
        #expect(ran == ["first a", "second a", "third a", "first drop", "first b"])
        #expect(store.registrationCountsForTesting.reducers == 1)
        first.disconnect()
        #expect(store.registrationCountsForTesting.reducers == 0)
        var unhandled: [String] = []
        store.unhandledActionHandler = { unhandled.append("\($0)") }
        store.dispatch(Memo(text: "c"))
        #expect(unhandled.count == 1)
    }

    @Test("a registration made during a dispatch does not see that action, only later ones")
    func registrationDuringDispatch() {
        let registrations = Connector()
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        registrations += store.register(
            Middleware<Rows>.on(Memo.self) { note, _ in
                guard note.text == "add" else { return }
                registrations += store.register(Reducer<Rows, Memo> { $0.log.append("late \($1.text)") })
            })
        store.dispatch(Memo(text: "add"))
        #expect(store.state.value.log.isEmpty)
        store.dispatch(Memo(text: "next"))
        #expect(store.state.value.log == ["late next"])
        // The middleware captures the store and the connector: disconnecting breaks that cycle.
        registrations.disconnect()
        #expect(store.registrationCountsForTesting == (0, 0, 0))
    }

    @Test("thousands of registrations come and go: removal keeps order and lookups stay right")
    func churn() {
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        var live: [Int: Connection] = [:]
        var reference: [Int] = []
        var random = SeededGenerator(seed: 20)
        var ran: [Int] = []
        for step in 0..<3_000 {
            if Bool.random(using: &random) || live.isEmpty {
                let number = step
                live[number] = store.register(Reducer<Rows, Memo> { _, _ in ran.append(number) })
                reference.append(number)
            } else {
                let number = live.keys.randomElement(using: &random)!
                live.removeValue(forKey: number)
                reference.removeAll { $0 == number }
            }
            if step.isMultiple(of: 100) {
                ran = []
                store.dispatch(Memo(text: "\(step)"))
                #expect(ran == reference, "step \(step)")
            }
        }
        #expect(store.registrationCountsForTesting.reducers == live.count)
    }

    @Test("a parcel's connection unregisters its reducers, middleware and routes together")
    func parcelLifetime() {
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        let parcel = Parcel<Rows>(
            reducers: [ParcelReducer(Reducer<Rows, Memo> { $0.log.append($1.text) })],
            middleware: [Middleware<Rows>.on(Bump.self) { _, _ in }],
            routes: [PresentationRoute<String>("row") { "row \($0.parameter ?? "")" }.erased])
        let connection = store.register(parcel)
        #expect(store.registrationCountsForTesting == (1, 1, 1))
        store.dispatch(Memo(text: "a"))
        connection.disconnect()
        #expect(store.registrationCountsForTesting == (0, 0, 0))
        store.dispatch(Memo(text: "b"))
        #expect(store.state.value.log == ["a"])
    }

    @Test("the newest connected route for a name wins; disconnecting it brings the previous back")
    func routeStack() {
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        let old = store.register(PresentationRoute<String>("row") { _ in "old" })
        let new = store.register(PresentationRoute<String>("row") { _ in "new" })
        #expect(store.presentations(of: NavigationState(["row"]), as: String.self) == ["new"])
        new.disconnect()
        #expect(store.presentations(of: NavigationState(["row"]), as: String.self) == ["old"])
        _ = old
    }
}

@Suite("Resin: lifetimes of foci")
struct FocusLifetimeTests {
    struct Todo: Identifiable, Equatable {
        var id: Int
        var done = false
    }

    struct TodoState: Equatable {
        var todos: [Todo] = []
    }

    struct Toggle: RoutedAction {
        var id: Int
        var route: Int { id }
    }

    struct RemoveAll: Action {}

    @Test("a focus held by nothing leaves the tree; its state or a registration keeps it")
    func focusLifetime() {
        let store = Store(initialState: Rows(values: [1: 0]), scheduler: TestScheduler())
        _ = store.focus(\.values, key: 1)
        #expect(store.focusChildCountForTesting == 0)
        var seen: [Int?] = []
        // Only the derived value is held: the focus stays, and its observer wakes.
        let connection = store.focus(\.values, key: 1).state.map { $0 }.observe { seen.append($0) }
        #expect(store.focusChildCountForTesting == 1)
        let registration = store.focus(\.values, key: 1).register(
            Reducer<Int?, Bump>(route: 1) { value, _ in value! += 1 })
        store.dispatch(Bump(key: 1))
        #expect(seen == [0, 1])
        connection.disconnect()
        #expect(store.focusChildCountForTesting == 1)
        store.dispatch(Bump(key: 1))
        #expect(store.state.value.values == [1: 2])
        registration.disconnect()
        #expect(store.focusChildCountForTesting == 0)
    }

    @Test("2,000 rows registered and then all removed: a dispatch costs what it cost with none")
    func rowsComeAndGo() {
        let store = Store(
            initialState: TodoState(todos: (0..<2_000).map { Todo(id: $0) }), scheduler: TestScheduler())
        let removeAll = store.register(Reducer<TodoState, RemoveAll> { state, _ in state.todos.removeAll() })
        var rows: [Connection] = []
        var woken = 0
        for id in 0..<2_000 {
            let row = store.focus(\.todos, id: id)
            rows.append(row.register(presentOnly: Reducer<Todo, Toggle>(route: id) { todo, _ in todo.done.toggle() }))
            rows.append(row.state.observe { _ in woken += 1 })
        }
        woken = 0
        store.dispatch(Toggle(id: 1_500))
        #expect(woken == 1)
        #expect(store.lastRefreshCountForTesting == 2)
        #expect(store.state.value.todos[1_500].done)
        rows.removeAll()
        #expect(store.focusChildCountForTesting == 0)
        #expect(store.registrationCountsForTesting.reducers == 1)
        store.dispatch(RemoveAll())
        #expect(store.lastRefreshCountForTesting == 1)
        _ = removeAll
    }

    @Test("an element focus finds its element where it was or next to it, and again after a bigger move")
    func elementHint() {
        let registrations = Connector()
        let store = Store(initialState: TodoState(todos: (0..<5).map { Todo(id: $0) }), scheduler: TestScheduler())
        registrations += store.register(Reducer<TodoState, RemoveAll> { state, _ in state.todos.removeFirst() })
        registrations += store.register(Reducer<TodoState, Bump> { state, _ in state.todos.reverse() })
        let focus = store.focus(\.todos, id: 3)
        registrations += focus.register(presentOnly: Reducer<Todo, Toggle>(route: 3) { todo, _ in todo.done.toggle() })
        store.dispatch(RemoveAll())  // element 3 moves from index 3 to 2
        store.dispatch(Toggle(id: 3))
        #expect(store.state.value.todos.first { $0.id == 3 }?.done == true)
        store.dispatch(Bump(key: 0))  // reversed: a bigger move
        store.dispatch(Toggle(id: 3))
        #expect(store.state.value.todos.first { $0.id == 3 }?.done == false)
        #expect(focus.state.value == Todo(id: 3, done: false))
    }

    @Test(
        "a focus whose last registration ends during its own action, and is focused again by an observer, stays consistent"
    )
    func refocusWhileGoing() {
        let store = Store(initialState: Rows(values: [1: 0]), scheduler: TestScheduler())
        var registration: Connection?
        registration = store.focus(\.log).register(
            Reducer<[String], Bump>(route: 1) { log, _ in
                log.append("first")
                registration?.disconnect()  // the last holder of the focus
                return .run { _ in }
            })
        var seen: [[String]] = []
        let observer = store.state.observe { _ in seen.append(store.focus(\.log).state.value) }
        store.dispatch(Bump(key: 1))
        #expect(seen == [[], ["first"]])
        // The old focus is gone; the new one (and the tree's indexes) must be sound.
        let again = store.focus(\.log)
        let second = again.register(Reducer<[String], Bump>(route: 1) { log, _ in log.append("second") })
        store.dispatch(Bump(key: 1))
        #expect(again.state.value == ["first", "second"])
        #expect(store.focusChildCountForTesting == 1)
        _ = (observer, second)
    }

    @Test("an action that leaves a focused slice equal refreshes nothing beyond it and wakes nobody")
    func unchangedSliceStops() {
        let registrations = Connector()
        let store = Store(initialState: Rows(values: [1: 0, 2: 0]), scheduler: TestScheduler())
        var rootWakes = 0
        let root = store.state.observe { _ in rootWakes += 1 }
        registrations += store.focus(\.values, key: 1).register(
            Reducer<Int?, Bump>(route: 1) { value, _ in value = value })
        store.dispatch(Bump(key: 1))
        #expect(rootWakes == 1)
        #expect(store.lastRefreshCountForTesting == 1)
        _ = root
    }
}

@Suite("Resin: unhandled routed actions")
struct UnhandledRoutedTests {
    @Test("a routed action whose route has no reducer is unhandled; one a reducer without a route takes is not")
    func unhandledRoute() {
        let store = Store(initialState: Rows(), scheduler: TestScheduler())
        var unhandled: [Int] = []
        store.unhandledActionHandler = { action in unhandled.append((action as? Bump)?.key ?? -1) }
        let routed = store.register(Reducer<Rows, Bump>(route: 1) { state, _ in state.log.append("one") })
        store.dispatch(Bump(key: 1))
        store.dispatch(Bump(key: 2))
        #expect(unhandled == [2])
        let everyBump = store.register(Reducer<Rows, Bump> { state, _ in state.log.append("any") })
        store.dispatch(Bump(key: 2))
        #expect(unhandled == [2])
        #expect(store.state.value.log == ["one", "any"])
        _ = (routed, everyBump)
    }
}
