// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Resin's articles (the module page, focused stores, parcels and navigation,
// semantics), verbatim, with what they need around them.

import Incremental
import Resin

// MARK: Resin.md

struct Foo: Equatable { var count = 0 }
struct Bar: Equatable { var count = 0 }
struct Increment: Action {}
private var fooParcel: Parcel<Foo> { Parcel(reducers: [.init(Reducer<Foo, Increment> { foo, _ in foo.count += 1 })]) }
private var barParcel: Parcel<Bar> { Parcel() }
private func render(_ foo: Foo) { print(foo) }

@MainActor private func resinOverview() {
    struct AppState { var foo = Foo(); var bar = Bar() }

    let store = Store(initialState: AppState())
    let parcels = Connection(grouping: [
        store.register(fooParcel.focused(on: \AppState.foo)),
        store.register(barParcel.focused(on: \AppState.bar)),
    ])

    let connection = store.focus(\.foo).state.observe { foo in render(foo) }
    store.dispatch(Increment())
    _ = (parcels, connection)
}

// MARK: FocusedStores.md

private struct ToggleDarkMode: Action {}
private struct RenameTodo: Action { var title: String }

@MainActor private func focusedStores(secondID: Int) {
    typealias Rename = RenameTodo
    struct Settings { var darkMode = false }
    struct AppState {
        var settings = Settings()
        var todos: [Todo] = []
        var selection: Todo.ID?
    }
    let store = Store(initialState: AppState())

    let settings = store.focus(\.settings)          // Store<Settings>
    let darkMode = settings.register(Reducer<Settings, ToggleDarkMode> { settings, _ in settings.darkMode.toggle() })

    let second = store.focus(\.todos, id: secondID)   // Store<Todo?>
    let rename = second.register(presentOnly: Reducer<Todo, Rename> { $0.title = $1.title })
    _ = (darkMode, rename)
}

@MainActor private func routedFoci() {
    struct AppState { var values: [Int: Int] = [:] }
    let store = Store(initialState: AppState())
    let keys = 0..<10
    let registrations = Connector()
    struct Bump: RoutedAction { var key: Int; var route: Int { key } }

    for key in keys {
        registrations.add(store.focus(\.values, key: key).register(
            Reducer<Int?, Bump>(route: key) { value, _ in value? += 1 }))
    }
    store.dispatch(Bump(key: 7))   // runs one reducer, refreshes two foci
}

// MARK: ParcelsAndNavigation.md

private struct AddTodoAction: Action { var title: String }
private var addTodo: Reducer<TodosState, AddTodoAction> {
    Reducer { state, action in state.todos.append(Todo(id: state.todos.count, title: action.title)) }
}
private struct ToggleTodoAction: Action { var id: Int }
private var toggleTodo: Reducer<TodosState, ToggleTodoAction> {
    Reducer { state, action in state.todos[id: action.id]?.done.toggle() }
}
private var todoRoute: PresentationRoute<String> { PresentationRoute("todo") { "Todo \($0.parameter ?? "")" } }

public var todosModuleParcel: Parcel<TodosState> {
    Parcel(
        reducers: [ParcelReducer(addTodo), ParcelReducer(toggleTodo)],
        middleware: [persistence],
        routes: [todoRoute.erased])
}

private var persistence: Middleware<TodosState> { Middleware { _, _ in .pass } }
private func render(_ screens: [String], _ sheet: String?) { print(screens, sheet ?? "") }

@MainActor private func navigationObserver() {
    struct AppState { var navigation = NavigationState() }
    let store = Store(initialState: AppState())
    let routes = store.register(todoRoute)
    let connection = store.focus(\.navigation).state.observe { navigation in
        let screens = store.presentations(of: navigation, as: String.self)
        let sheet = navigation.sheet.map { store.presentation(of: $0, as: String.self) }
        render(screens, sheet)
    }
    _ = (routes, connection)
}

private var storeRoute: PresentationRoute<String> {
    PresentationRoute<String>("todo") { (id, todos: Store<[Todo]>) in
        todos.state.value.first { "\($0.id)" == id.parameter }?.title ?? "(gone)"
    }
}

// MARK: Semantics.md

private func badge(_ count: Int) { print(count) }

@MainActor private func observeInsteadOfNotify() {
    let store = Store(initialState: TodosState())
    // Not this: dispatching `TodosDidChange` for others to react to.
    // This: observe the slice you care about.
    let connection = store.focus(\.todos).state.map(\.count).observe { count in badge(count) }
    _ = connection
}

// MARK: Navigation.md

import ResinTesting
import Testing

private enum NavigationArticle {
    struct Item: Equatable { var id: Int }
    struct Detail: Equatable, Sendable { var itemID: Int }
    struct Editor: Equatable, Sendable { var text = "" }
    enum Sheet: Equatable, Sendable { case editor(Editor) }
    struct SaveEditor: Action {}
    struct CloseDetail: Action {}
    struct OpenLink: Action { var itemIDs: [Int] }

    enum Screen: Equatable, Sendable {
        case detail(Detail)
        case settings
    }

    struct AppState: Equatable {
        var items: [Item] = []
        var path = StackState<Screen>()
        var sheet: Sheet?
    }

    static func save(_ draft: String) async throws {}

    static var detailReducer: Reducer<Detail, CloseDetail> {
        Reducer<Detail, CloseDetail> { _, _ in
        .run { _ in
            @Dependency(\.dismiss) var dismiss
            dismiss()
        }
        }
    }

    @MainActor static func samples() async {
        let store = Store(initialState: AppState())
        let navigation = store.stack(\.path) { id, screen in
            screen.focus(\.self, case: Screen.detail).whilePresent { detail in
                detail.register(presentOnly: detailReducer)
            }
        }

        store.dispatch(StackAction.push(Screen.detail(Detail(itemID: 1))))
        store.dispatch(StackAction<Screen>.pop())
        #expect(store.state.value.path.isEmpty)

        let editorReducer = Reducer<Editor, SaveEditor> { editor, _ in
            let draft = editor.text
            return .run { send in
                @Dependency(\.dismiss) var dismiss
                try await save(draft)
                dismiss()
            }
        }
        let sheet = store.presentation(\.sheet) { sheet in
            sheet.focus(\.self, case: Sheet.editor).whilePresent { editor in
                editor.register(presentOnly: editorReducer)
            }
        }

        store.dispatch(PresentationAction.present(Sheet.editor(Editor())))
        #expect(store.state.value.sheet == .editor(Editor()))

        let deepLink = Reducer<AppState, OpenLink> { state, link in
            state.sheet = nil
            state.path.replace(with: link.itemIDs.map { .detail(Detail(itemID: $0)) })
        }
        let link = store.register(deepLink)
        store.dispatch(OpenLink(itemIDs: [1, 2]))
        #expect(store.state.value.path.ids == [1, 2])
        #expect(store.state.value.sheet == nil)
        _ = (navigation, sheet, link)
    }

    static func testing() async {
        let store = TestStore(initialState: AppState()) { store in
            store.stack(\.path) { _, screen in
                screen.focus(\.self, case: Screen.detail).whilePresent { detail in
                    detail.register(presentOnly: detailReducer)
                }
            }
        }
        store.send(StackAction.push(Screen.detail(Detail(itemID: 1)))) {
            $0.path.append(.detail(Detail(itemID: 1)))
        }
        store.send(CloseDetail())
        await store.receive(StackAction<Screen>.popFrom(0)) { $0.path.pop(from: 0) }
        await store.finish()
    }
}

extension NavigationArticle.Screen {
    fileprivate static let detail = CaseKey(Self.detail) { if case .detail(let value) = $0 { value } else { nil } }
}

extension NavigationArticle.Sheet {
    fileprivate static let editor = CaseKey(Self.editor) { if case .editor(let value) = $0 { value } else { nil } }
}

@Test("Navigation.md: a stack, a sheet and a deep link")
@MainActor func navigationArticleSamples() async {
    await NavigationArticle.samples()
}

@Test("Navigation.md: a test of a child dismissing itself")
func navigationArticleTesting() async {
    await NavigationArticle.testing()
}

// MARK: SharedState.md

import Foundation

private enum SharedStateArticle {
    struct Account: Equatable { var credits = 10 }
    struct Shop: Equatable { var cart: [String] = [] }
    struct Inbox: Equatable {}
    struct Settings: Equatable, Codable, Sendable { var dark = false }
    struct Buy: Action { var item: String; var price: Int }
    struct ToggleDark: Action {}

    @MainActor static func samples() {
        struct AppState: Equatable {
            var account = Account()
            var shop = Shop()
            var inbox = Inbox()
        }

        let store = Store(initialState: AppState())
        let shop = store.focus(\.shop).sharing(store.focus(\.account))
        let inbox = store.focus(\.inbox).sharing(store.focus(\.account))

        let buy = shop.register(Reducer<Sharing<Shop, Account>, Buy> { state, buy in
            state.cart.append(buy.item)
            state.shared.credits -= buy.price
        })
        store.dispatch(Buy(item: "tea", price: 3))
        #expect(inbox.state.value.shared.credits == 7)
        _ = buy
    }

    struct SettingsApp { var settings = Settings() }

    @MainActor static func persistence() {
        let settingsURL = URL(fileURLWithPath: "/tmp/unused-article-settings.json")
        typealias AppState = SettingsApp
        var dependencies = Dependencies()
        dependencies.persistenceStorage = .inMemory()
        let first = Store(initialState: AppState(), dependencies: dependencies)
        let second = Store(initialState: AppState(), dependencies: dependencies)
        let toggle = first.register(Reducer<SettingsApp, ToggleDark> { state, _ in state.settings.dark.toggle() })
        do {
            let store = first
            let settings = store.focus(\.settings).persist(.jsonFile(settingsURL))
            store.dispatch(ToggleDark())
            settings.flush()
        }
        let loaded = second.focus(\.settings).persist(.jsonFile(settingsURL))
        #expect(second.state.value.settings.dark)
        _ = (toggle, loaded)
    }

    @MainActor static func following() throws {
        let storage = PersistenceStorage.inMemory()
        let scheduler = TestScheduler()
        var dependencies = Dependencies()
        dependencies.persistenceStorage = storage
        let store = Store(initialState: Settings(), scheduler: scheduler, dependencies: dependencies)
        let settings = store.persist(.inMemory("settings"))
        try storage.store(Data(#"{"dark":true}"#.utf8), at: .memory("settings"))
        scheduler.advance()
        #expect(store.state.value.dark)
        #expect(settings.status.value == PersistenceStatus())
    }
}

@Test("SharedState.md: two features share an account; settings persist in memory")
@MainActor func sharedStateArticleSamples() throws {
    SharedStateArticle.samples()
    SharedStateArticle.persistence()
    try SharedStateArticle.following()
}

// MARK: TimeTravel.md

private struct Spend: Action { var amount: Int }

@MainActor private func setUpApp(_ store: Store<Int>) -> Connection {
    store.register(Reducer<Int, Spend> { total, spend in total += spend.amount })
}

@Test("TimeTravel.md: record, jump back and forth, replay into a fresh store")
@MainActor func timeTravelArticleSamples() {
    let store = Store(initialState: 0)
    let app = setUpApp(store)
    let history = store.recordHistory(capacity: 200)
    for amount in 1...3 { store.dispatch(Spend(amount: amount)) }
    history.jump(to: history.startPosition)   // back to the oldest state kept
    history.jump(to: history.endPosition)     // and forward to the newest
    #expect(store.state.value == 6)
    let fresh = Store(initialState: history.startState)
    let registrations = setUpApp(fresh)
    fresh.replay(history.log)   // fresh now holds the newest recorded state
    #expect(fresh.state.value == 6)
    _ = (app, registrations)
}

private struct AddGrocery: Action { var title: String }

@Test("TimeTravel.md: toggle, reorder, sweep and commit a history")
@MainActor func timeTravelInstrumentSamples() {
    let store = Store(initialState: [String]())
    let add = store.register(Reducer<[String], AddGrocery> { list, add in list.append(add.title) })
    let history = store.recordHistory()
    for title in ["Milk", "Bread", "Eggs"] { store.dispatch(AddGrocery(title: title)) }
    let milk = history.entries[0].id
    history.perform(.toggle(id: milk))              // the states as if Milk was never added
    history.perform(.reorder(id: milk, before: nil)) // Milk moved to the end, states recomputed
    history.perform(.sweep)                         // the skipped actions forgotten
    history.perform(.commit)                        // what is shown becomes the new start
    #expect(history.startState == ["Bread", "Eggs"])
    #expect(store.state.value == ["Bread", "Eggs"])
    #expect(history.entries.isEmpty)
    #expect(history.operations == [.toggle(id: milk), .reorder(id: milk, before: nil), .sweep, .commit])
    _ = add
}

// MARK: Typed navigation: alerts and confirmation dialogs

private struct ShopItem: Equatable, Sendable { var id: Int; var name: String }
private enum ListAction: Action, Equatable { case deleteTapped(Int), confirmDelete(Int) }
private struct ShopList: Equatable {
    var items: [ShopItem]
    var alert: AlertState<ListAction>?
}

private func deleteAlert(_ item: ShopItem) -> AlertState<ListAction> {
    AlertState(title: "Delete \(item.name)?") {
        ButtonState(role: .destructive, action: ListAction.confirmDelete(item.id), label: "Delete")
        ButtonState(role: .cancel, label: "Cancel")
    }
}

@Test func alertArticleSample() async {
    let milk = ShopItem(id: 1, name: "Milk")
    let eggs = ShopItem(id: 2, name: "Eggs")
    let reducer = Reducer<ShopList, ListAction> { state, action in
        switch action {
        case .deleteTapped(let id): state.alert = state.items.first { $0.id == id }.map(deleteAlert)
        case .confirmDelete(let id): state.items.removeAll { $0.id == id }
        }
    }
    let store = TestStore(initialState: ShopList(items: [milk, eggs]), sending: ListAction.self) { store in
        Connection(grouping: [store.register(reducer), store.alert(\.alert)])
    }
    store.send(.deleteTapped(1)) { $0.alert = deleteAlert(milk) }
    store.send(DialogAction.tap(ListAction.confirmDelete(1))) { $0.alert = nil }
    await store.receive(.confirmDelete(1)) { $0.items = [eggs] }
    await store.finish()
}
