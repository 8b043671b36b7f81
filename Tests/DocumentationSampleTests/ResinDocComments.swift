// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Resin's and ResinTesting's doc comments, verbatim, with what they need
// around them. A sample that declares types runs inside a function, so that its names stay
// its own.

import Foundation
import Incremental
import Observation
import Resin
import ResinTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: StateDiff

private struct DiffTodo: Equatable { var title: String; var done: Bool }
private struct DiffState: Equatable { var count = 1; var todos: [DiffTodo] = [] }

private func stateDiffSample(before: DiffState, after: DiffState) {
    let diff = StateDiff(from: before, to: after)
    print(diff)
    //   count: 1 → 2
    //   todos[2]: added Todo(title: "milk", done: false)
}

// MARK: Dependencies

struct APIClient: Sendable {
    var search: @Sendable (String) async throws -> [String]
}

enum APIClientKey: DependencyKey {
    static let liveValue = APIClient { query in
        var url = URL(string: "https://example.com/search")!
        url.append(queryItems: [URLQueryItem(name: "q", value: query)])
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode([String].self, from: data)
    }
    static let testValue = APIClient { _ in [] }
}

extension Dependencies {
    var api: APIClient {
        get { self[APIClientKey.self] }
        set { self[APIClientKey.self] = newValue }
    }
}

@MainActor private func dependenciesSample() {
    struct AppState {}
    var dependencies = Dependencies()
    dependencies.api = APIClient { query in ["\(query), from the staging server"] }
    let store = Store(initialState: AppState(), dependencies: dependencies)
    _ = store
}

@MainActor private func withDependenciesSamples() {
    struct AppState {}
    let store = Store(initialState: AppState()) {
        $0.api = APIClient { query in ["\(query), from the staging server"] }
    }
    let counter = FeatureStore(initialState: CounterState()) {
        counterReducer
    } withDependencies: {
        $0.numberFact = NumberFactClient { "\($0) is a good number." }
    }
    _ = (store, counter)
}

@Test func testStoreWithDependencies() async {
    let store = TestStore(initialState: CounterState()) {
        counterReducer
    } withDependencies: {
        $0.numberFact = NumberFactClient { "\($0) is a good number." }
    }
    store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse) {
        $0.isLoading = false
        $0.fact = "0 is a good number."
    }
    await store.finish()
}

private struct Typed: Action { var text: String }

private func dependencyWrapperSample() -> Reducer<String, Typed> {
    struct Search: Action { var query: String; init(_ query: String) { self.query = query } }
    return Reducer { state, typed in
        let query = typed.text
        return .run { send in
            @Dependency(\.clock) var clock
            try await clock.sleep(for: .milliseconds(300))
            send(Search(query))
        }
    }
}


// MARK: FeatureStore

@MainActor private func featureStoreSample() {
    enum Counter: Action { case increment, decrement }
    let counter = Reducer<Int, Counter> { count, action in
        switch action {
        case .increment: count += 1
        case .decrement: count -= 1
        }
    }

    let store = FeatureStore(initialState: 0, reducer: counter)
    store.send(.increment)
    let label = store.state.map { "\($0)" }
    _ = label
}

@MainActor private func featureStoreFocusSample() {
    struct Settings { var darkMode = false }
    struct AppState { var settings = Settings(); var counter = 0 }
    enum SettingsAction: Action { case toggleDarkMode }
    enum Counter: Action { case increment }
    let app = FeatureStore<AppState, Counter>(Store(initialState: AppState()))
    let store = app.store
    let settings = app.focus(\.settings, sending: SettingsAction.self)
    settings.send(.toggleDarkMode)
    do {
        let counter = store.focus(\.counter).sending(Counter.self)
        counter.send(.increment)
    }
}

// MARK: Interop

@MainActor private func observedSample() {
    struct AppState { var count = 0 }
    let store = Store(initialState: AppState())
    let state = store.observed()
    withObservationTracking { print(state.count) } onChange: { print("count changes") }
}

@MainActor private func loggingSample() {
    struct AppState { var count = 0 }
    struct Increment: Action {}
    let store = Store(initialState: AppState())
    let registration = store.register(Reducer<AppState, Increment> { state, _ in state.count += 1 })
    let logging =
        store.register(.logging())
    store.dispatch(Increment())
    // Resin: Increment()
    //   count: 0 → 1
    _ = (registration, logging)
}

#if canImport(SwiftUI)
    import SwiftUI

    private struct BindingSearchState { var query = "" }
    private struct SetQuery: Action { var query: String }

    @MainActor @ViewBuilder private func bindingSample() -> some View {
        let store = Store(initialState: BindingSearchState())
        let state = store.observed()
        TextField("Query", text: state.binding(\.query, to: store, send: SetQuery.init))
    }
#endif

// MARK: Navigation and parcels

public struct Todo: Identifiable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var done = false
}
public struct TodosState { public var todos: [Todo] = [] }
private struct AddTodo: Action { var title: String }
private struct ToggleTodo: Action { var id: Int }
private var addTodoReducer: Reducer<TodosState, AddTodo> {
    Reducer { state, action in state.todos.append(Todo(id: state.todos.count, title: action.title)) }
}
private var toggleReducer: Reducer<TodosState, ToggleTodo> {
    Reducer { state, action in state.todos[id: action.id]?.done.toggle() }
}
private var persistence: Middleware<TodosState> { Middleware { _, _ in .pass } }

// In the Todos module; its reducers stay internal.
public var todosParcel: Parcel<TodosState> {
    Parcel(
        reducers: [.init(addTodoReducer), .init(toggleReducer)],
        middleware: [persistence],
        routes: [PresentationRoute<String>("todo") { "Todo \($0.parameter ?? "")" }.erased])
}

@MainActor private func parcelSample() {
    struct AppState { var todos = TodosState() }
    let store = Store(initialState: AppState())
    let todos = store.register(todosParcel.focused(on: \AppState.todos))
    _ = todos
}

private func routeSample() -> PresentationRoute<String> {
    PresentationRoute<String>("todo") { (id, todos: Store<[Todo]>) in
        todos.state.value.first { "\($0.id)" == id.parameter }?.title ?? "(gone)"
    }
}

// MARK: Scoping

struct Detail: Equatable { var title = "" }
struct Settings: Equatable, Codable, Sendable {}
enum Destination { case detail(Detail), settings(Settings) }

extension Destination {
    static let detail = CaseKey(Destination.detail) { if case .detail(let value) = $0 { value } else { nil } }
}

struct ScopedState { var destination: Destination?; var todos: [Todo] = [] }
private struct Rename: Action { var title: String }
private var detailReducer: Reducer<Detail, Rename> { Reducer { $0.title = $1.title } }
private struct Toggle: RoutedAction { var id: Int; var route: Int { id } }

@MainActor private func scopingSamples() {
    let store = Store(initialState: ScopedState())
    do {
        let detail = store.focus(\.destination, case: Destination.detail)   // Store<Detail?>
        _ = detail
    }
    do {
        let sheet = store.focus(\.destination, case: Destination.detail)   // Store<Detail?>
        _ = sheet
    }
    do {
        let rows = store.forEach(\.todos) { id, todo in
            todo.register(presentOnly: Reducer<Todo, Toggle>(route: id) { todo, _ in todo.done.toggle() })
        }
        _ = rows
    }
    do {
        let detail = store.focus(\.destination, case: Destination.detail).whilePresent { detail in
            detail.register(presentOnly: detailReducer)
        }
        _ = detail
    }
}

// MARK: Actions, reducers, effects, middleware

private func actionSamples() {
    struct AddTodo: Action { var title: String }
    enum Counter: Action { case increment, decrement }
    _ = (AddTodo(title: ""), Counter.increment)
}

private func routedActionSample() {
    struct Row: Identifiable { var id: Int; var title: String }
    let row = Row(id: 1, title: "")
    struct RenameRow: RoutedAction {
        var id: Row.ID
        var title: String
        var route: Row.ID { id }
    }

    let rename = Reducer<Row?, RenameRow>(route: row.id) { row, action in row?.title = action.title }
    _ = rename
}

private final class SearchBackend: Sendable {
    func search(_ query: String) async throws -> [String] { [query] }
}

private func effectSample(backend: SearchBackend) {
    struct SearchState { var query = ""; var results: [String] = [] }
    enum Search: Action { case queryChanged(String), resultsLoaded([String]) }

    let search = Reducer<SearchState, Search> { state, action in
        switch action {
        case .queryChanged(let query):
            state.query = query
            return .run { send in
                send(.resultsLoaded(try await backend.search(query)))
            } catch: { _, send in
                send(.resultsLoaded([]))
            }
            .debounce(id: "search", for: .milliseconds(300))
        case .resultsLoaded(let results):
            state.results = results
            return .none
        }
    }
    _ = search
}

private func sendSample() {
    enum Search: Action { case queryChanged(String), resultsLoaded([String]) }
    @Sendable func search(_ query: String) async throws -> [String] { [query] }
    let reducer = Reducer<String, Search> { state, action in
        guard case .queryChanged(let query) = action else { return .none }
        return .run(id: "search") { send in
            send(.resultsLoaded(try await search(query)))
        }
    }
    _ = reducer
}

private final class ItemsAPI: Sendable {
    func items(page: Int) async -> [String] { ["\(page)"] }
}

private func middlewareSample(api: ItemsAPI) {
    struct AppState {}
    struct Load: Action { var page: Int }
    struct Loaded: Action { var items: [String] }
    final class Log { var entries: [String] = []; func append(_ entry: String) { entries.append(entry) } }
    let log = Log()
    let logger = Middleware<AppState> { action, context in
        log.append("\(action)")
        return .pass
    }

    let loader = Middleware<AppState>.on(Load.self) { load, context in
        context.run(id: "load") { send in
            let items = await api.items(page: load.page)
            send(Loaded(items: items))
        }
    }
    _ = (logger, loader)
}

private final class FactAPI: Sendable {
    func fact(_ number: Int) async throws -> String { "\(number)" }
}

private func reducerSample(api: FactAPI) {
    enum Counter: Action { case increment, decrement }
    struct FactState { var number = 0; var isLoading = false; var fact = "" }
    enum Fact: Action { case load, loaded(String) }
    let counter = Reducer<Int, Counter> { count, action in
        switch action {
        case .increment: count += 1
        case .decrement: count -= 1
        }
    }

    let facts = Reducer<FactState, Fact> { state, action in
        switch action {
        case .load:
            state.isLoading = true
            let number = state.number
            return .run { send in send(.loaded(try await api.fact(number))) }
        case .loaded(let fact):
            state.isLoading = false
            state.fact = fact
            return .none
        }
    }
    _ = (counter, facts)
}

@MainActor private func routeReducerSample() {
    struct Row { var done = false; mutating func apply(_ action: RowAction) { done.toggle() } }
    struct RowAction: RoutedAction { var id: Int; var route: Int { id } }
    struct AppState { var rows: [Int: Row] = [:] }
    let store = Store(initialState: AppState())
    let rowIDs = [1, 2]
    let registrations = Connector()
    for id in rowIDs {
        registrations.add(store.focus(\.rows, key: id).register(
            Reducer<Row?, RowAction>(route: id) { row, action in row?.apply(action) }))
    }
}

// MARK: Store

@MainActor private func storeSample() {
    struct AppState { var count = 0; var todos: [String] = [] }
    enum Counter: Action { case increment }

    let store = Store(initialState: AppState())
    let counter = store.register(Reducer<AppState, Counter> { state, _ in state.count += 1 })
    let connection = store.state.map(\.count).observe { print($0) }   // 0
    store.dispatch(Counter.increment)                                 // 1
    _ = (counter, connection)
}

@MainActor private func focusSamples() {
    struct Settings { var darkMode = false }
    struct ToggleDarkMode: Action {}
    struct AppState { var settings = Settings(); var todos: [Todo] = []; var scores: [String: Int] = [:] }
    let settingsReducer = Reducer<Settings, ToggleDarkMode> { settings, _ in settings.darkMode.toggle() }
    let store = Store(initialState: AppState())
    let todoID = 1
    do {
        let settings = store.focus(\.settings)
        let registration = settings.register(settingsReducer)   // works on AppState.settings
        _ = registration
    }
    do {
        let todo = store.focus(\.todos, id: todoID)          // Store<Todo?>
        let rename = todo.register(presentOnly: Reducer<Todo, Rename> { $0.title = $1.title })
        _ = rename
    }
    do {
        let score = store.focus(\.scores, key: "ada")     // Store<Int?>
        _ = score
    }
}

// MARK: TestStore

struct TestedApp: Equatable { var counter = CounterState(); var log: [String] = [] }
private struct LogEntry: Action { var text: String }
private var appParcel: Parcel<TestedApp> {
    Parcel(reducers: [.init(counterReducer)]).focused(on: \TestedApp.counter)
}

@Test func loadsAFact() async {
    var dependencies = Dependencies(context: .test)
    dependencies.numberFact = NumberFactClient { number in "\(number) is a good number." }
    let store = TestStore(initialState: CounterState(), dependencies: dependencies) { counterReducer }
    store.send(.increment) { $0.count = 1 }
    store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(\.factResponse) {
        $0.isLoading = false
        $0.fact = "1 is a good number."
    }
    await store.finish()
}

@Test func advancesTheStopwatch() async {
    let store = TestStore(initialState: 0) { stopwatchReducer }
    store.send(.start)
    await store.advance(by: .seconds(1))
    await store.receive(.tick) { $0 = 1 }
    store.send(.stop)
    await store.finish()
}

@Test func cancelsASendsTask() async {
    let store = TestStore(initialState: 0) { stopwatchReducer }
    let task = store.send(.start)
    await store.advance(by: .seconds(1))
    await store.receive(.tick) { $0 = 1 }
    await task.cancel()   // the timer's effect is cancelled, and its task has ended
    #expect(task.isCancelled && task.isFinished)
    await store.finish()
}

@Test func setUpForms() async {
    typealias AppState = TestedApp
    let counter = Reducer<AppState, Counter> { state, _ in state.counter.count += 1 }
    let logger = Middleware<AppState> { _, _ in .pass }
    do {
        let store = TestStore(initialState: AppState()) { $0.register(appParcel) }
        store.send(Counter.increment) { $0.counter.count = 1 }
    }
    do {
        let store = TestStore(initialState: AppState()) { [$0.register(counter), $0.register(logger)] }
        store.send(Counter.increment) { $0.counter.count = 1 }
    }
    do {
        let store = TestStore(initialState: CounterState()) { counterReducer }
        store.send(.increment) { $0.count = 1 }
    }
    do {
        let store = TestStore(initialState: AppState(), sending: Counter.self) { $0.register(appParcel) }
        store.send(.increment) { $0.counter.count = 1 }
    }
}

/// Compiled, not run: each line asserts only part of what its action changes.
private func receiveForms(_ store: TestStore<CounterState, Counter>) async {
    await store.receive(\.factResponse) { $0.fact = "1 is a good number." }
    await store.receive(\.factResponse, "1 is a good number.") { $0.fact = "1 is a good number." }
}

// MARK: Typed navigation

private struct NavDetail: Equatable, Sendable { var id: Int; var text = "" }
private struct NavSettings: Equatable, Sendable {}
private struct NavEditor: Equatable, Sendable { var text = "" }
private struct NavSave: Action {}
private struct NavToggle: Action {}

@Test("Typed navigation's doc comment samples push, pop, present and dismiss")
@MainActor func typedNavigationDocSamples() async {
    enum Path: Equatable, Sendable {
        case detail(Detail)
        case settings(Settings)
    }

    struct AppState: Equatable {
        var path = StackState<Path>()
    }
    typealias Detail = NavDetail
    typealias Settings = NavSettings

    enum Destination: Equatable, Sendable {
        case editor(NavEditor)
        case alert(String)
        static let editor = CaseKey(Destination.editor) { if case .editor(let value) = $0 { value } else { nil } }
    }
    struct App: Equatable {
        var path = StackState<Path>()
        var destination: Destination?
    }
    let detailCase = CaseKey(Path.detail) { if case .detail(let value) = $0 { value } else { nil } }
    let detailReducer = Reducer<NavDetail, NavToggle> { detail, _ in detail.text += "!" }
    let settingsReducer = Reducer<Path, NavToggle> { _, _ in }
    let editorReducer = Reducer<NavEditor, NavToggle> { editor, _ in editor.text += "?" }
    let message = "Saved"
    let store = Store(initialState: App())
    do {
        let navigation = store.stack(\.path) { id, screen in
            switch screen.state.value {
            case .detail: screen.focus(\.self, case: detailCase).register(presentOnly: detailReducer)
            case .settings, nil: screen.register(presentOnly: settingsReducer)
            }
        }
        store.dispatch(StackAction.push(Path.detail(Detail(id: 8))))
        store.dispatch(NavToggle())
        #expect(store.state.value.path.first == .detail(Detail(id: 8, text: "!")))
        store.dispatch(StackAction.push(Path.detail(Detail(id: 7))))
        store.dispatch(StackAction<Path>.popToRoot())
        #expect(store.state.value.path.isEmpty)
        navigation.disconnect()
    }
    do {
        let sheet = store.presentation(\.destination) { destination in
            destination.focus(\.self, case: Destination.editor).whilePresent { editor in
                editor.register(presentOnly: editorReducer)
            }
        }
        store.dispatch(PresentationAction.present(Destination.alert(message)))
        store.dispatch(PresentationAction<Destination>.dismiss())
        #expect(store.state.value.destination == nil)
        store.dispatch(PresentationAction.present(Destination.editor(NavEditor())))
        store.dispatch(NavToggle())
        #expect(store.state.value.destination == .editor(NavEditor(text: "?")))
        sheet.disconnect()
    }
    #expect(AppState().path.isEmpty)
}

private struct Draft: Sendable {}
private struct SavingAPI: Sendable { func save(_ draft: Draft) async throws {} }

private func dismissSample(api: SavingAPI, draft: Draft) -> Effect<NavSave> {
    return .run { send in
        @Dependency(\.dismiss) var dismiss
        try await api.save(draft)
        dismiss()
    }
}

// MARK: Sharing and persistence

private struct ShareItem: Equatable { var date = 0 }
private struct ShareTodos: Equatable { var items: [ShareItem] = [] }
private struct ShareSettings: Equatable, Codable, Sendable {
    enum SortOrder: String, Codable, Sendable { case title, date }
    var sortOrder = SortOrder.title
}
private struct SortByDate: Action {}

@Test("Sharing's and persist's doc comment samples share settings and keep them")
@MainActor func sharingDocSamples() {
    typealias TodosState = ShareTodos
    typealias Settings = ShareSettings
    struct App { var todos = ShareTodos(items: [ShareItem(date: 2), ShareItem(date: 1)]); var settings = ShareSettings(); var profile = 0; var session = "ada" }
    let settingsURL = URL(fileURLWithPath: "/tmp/unused-settings.json")
    var dependencies = Dependencies()
    dependencies.persistenceStorage = .inMemory()
    let store = Store(initialState: App(), dependencies: dependencies)
    let todos = store.focus(\.todos).sharing(store.focus(\.settings))
    let sort = todos.register(Reducer<Sharing<TodosState, Settings>, SortByDate> { state, _ in
        state.shared.sortOrder = .date      // the settings every feature sees
        state.items.sort { $0.date < $1.date }   // the feature's own part
    })
    let profile = store.focus(\.profile).sharing(store.focus(\.session))
    let settings = store.focus(\.settings).persist(.jsonFile(settingsURL))
    store.dispatch(SortByDate())
    #expect(store.state.value.settings.sortOrder == .date)
    #expect(store.state.value.todos.items.map(\.date) == [1, 2])
    #expect(profile.state.value.shared == "ada")
    #expect(settings.hasPendingChanges)
    _ = sort
}

private let settingsURL = URL(fileURLWithPath: "/tmp/unused-key-settings.json")

extension PersistenceKey where Value == Settings {
    static var settings: Self {
        PersistenceKey(.file(settingsURL), default: Settings())
    }
}

@Test("PersistenceKey's and PersistenceCoder's doc comment samples declare a key and a coder")
@MainActor func persistenceKeyDocSamples() throws {
    struct App { var settings = Settings() }
    var dependencies = Dependencies()
    dependencies.persistenceStorage = .inMemory()
    let store = Store(initialState: App(), dependencies: dependencies)
    let settings = store.focus(\.settings).persist(.settings)
    #expect(settings.location == .file(settingsURL))
    let text = PersistenceCoder<String>(
        encode: { Data($0.utf8) },
        decode: { String(decoding: $0, as: UTF8.self) })
    #expect(try text.value(from: text.data(for: "héllo")) == "héllo")
    _ = settings
}

// MARK: History

private enum HistorySample {
    struct AddTodo: Action, Codable { var title: String }
    struct ToggleTodo: Action, Codable { var index: Int }

    @MainActor static func run() throws {
        let store = Store(initialState: [String]())
        let add = store.register(Reducer<[String], AddTodo> { todos, add in todos.append(add.title) })
        let history = store.recordHistory(capacity: 500)
        store.dispatch(AddTodo(title: "Milk"))
        store.dispatch(AddTodo(title: "Bread"))
        history.jump(to: history.startPosition + 1)   // the state after the first action
        #expect(store.state.value == ["Milk"])
        var coder = ActionCoder()
        coder.register(AddTodo.self)
        coder.register(ToggleTodo.self)
        let data = try coder.encode(history.log)
        let log = try coder.decode(data)
        let fresh = Store(initialState: [String]())
        let freshAdd = fresh.register(Reducer<[String], AddTodo> { todos, add in todos.append(add.title) })
        fresh.replay(log)
        #expect(fresh.state.value == ["Milk", "Bread"])
        _ = (add, freshAdd)
    }
}

@Test("History's and ActionCoder's doc comment samples jump back and round-trip a log")
@MainActor func historyDocSamples() throws {
    try HistorySample.run()
}

// MARK: StoreWideID

private enum Sync: Action { case synced(Int) }
private func upload() async throws -> Int { 1 }

private func storeWideSamples() {
    let sync = Effect<Sync>.run(id: StoreWideID("sync")) { send in send(.synced(try await upload())) }
    // …and from any feature of the store:
    let stop = Effect<Sync>.cancel(id: StoreWideID("sync"))
    _ = (sync, stop)
}

// MARK: Alerts and confirmation dialogs

private struct ShopItem { var id: Int; var name: String }
private enum ShopListAction: Action { case confirmDelete(Int) }
private struct ShopListState { var alert: AlertState<ShopListAction>? }

@MainActor private func alertSamples(_ store: Store<ShopListState>, item: ShopItem, id: Int) {
    typealias ListAction = ShopListAction
    var state = ShopListState()
    state.alert = AlertState(title: "Delete \(item.name)?", message: "This cannot be undone.") {
        ButtonState(role: .destructive, action: ListAction.confirmDelete(item.id), label: "Delete")
        ButtonState(role: .cancel, label: "Cancel")
    }
    let alert = store.alert(\.alert)
    // the view, when the Delete button is tapped:
    store.dispatch(DialogAction.tap(ListAction.confirmDelete(id)))
    _ = (state, alert)
}
