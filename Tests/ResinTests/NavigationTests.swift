import Resin
import TestSupport
import Testing

struct NavApp: Equatable {
    var navigation = NavigationState()
}

@Suite("Navigation")
struct NavigationTests {
    @Test("push, pop, popTo, popToRoot and replace change the stack; routes make screens")
    func navigation() {
        let registrations = Connector()
        let store = Store(initialState: NavApp(), scheduler: TestScheduler())
        registrations += store.register(Parcel.navigation.focused(on: \NavApp.navigation))
        let screens = Parcel<NavApp>(routes: [
            PresentationRoute<String>("list") { _ in "[list]" }.erased,
            PresentationRoute<String>("todo") { "[todo \($0.parameter ?? "?")]" }.erased,
        ])
        registrations += store.register(screens)
        var stacks: [[String]] = []
        let connection = store.focus(\.navigation).state.observe { stack in
            stacks.append(store.presentations(of: stack, as: String.self))
        }
        store.dispatch(Navigate.push("list"))
        store.dispatch(Navigate.push(PresentationID("todo", parameter: "1")))
        store.dispatch(Navigate.push(PresentationID("todo", parameter: "2")))
        store.dispatch(Navigate.popTo("list"))
        store.dispatch(Navigate.pop)
        store.dispatch(Navigate.pop)
        store.dispatch(Navigate.replace(["list", PresentationID("todo", parameter: "9")]))
        store.dispatch(Navigate.popToRoot)
        #expect(
            stacks == [
                [], ["[list]"], ["[list]", "[todo 1]"], ["[list]", "[todo 1]", "[todo 2]"], ["[list]"], [],
                ["[list]", "[todo 9]"], [],
            ])
        #expect(PresentationID("todo", parameter: "1").description == "todo(1)")
        _ = connection
    }

    @Test("a presentation without a route is a precondition failure naming it")
    func missingRoute() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = Store(initialState: NavApp(), scheduler: TestScheduler())
            _ = store.presentations(of: NavigationState(["nowhere"]), as: String.self)
        }
        expectStandardError(of: result, contains: "Resin: no presentation route named 'nowhere' for String")
    }

    @Test("parcels combine, focus, and keep their reducers to themselves")
    func parcels() {
        let registrations = Connector()
        let counter = Parcel<Foo>(reducers: [ParcelReducer(Reducer<Foo, Increment> { $0.count += $1.by })])
        let text = Parcel<Bar>(reducers: [ParcelReducer(Reducer<Bar, Append> { $0.text += $1.text })])
        let app = counter.focused(on: \AppState.foo).combined(with: text.focused(on: \AppState.bar))
        let store = Store(initialState: AppState(), scheduler: TestScheduler())
        registrations += store.register(app)
        store.dispatch(Increment(by: 3))
        store.dispatch(Append(text: "ok"))
        #expect(store.state.value.foo.count == 3 && store.state.value.bar.text == "ok")
    }

    @Test("a sheet is presented over the stack and dismissed, independently of it")
    func sheet() {
        let registrations = Connector()
        let store = Store(initialState: NavApp(), scheduler: TestScheduler())
        registrations += store.register(Parcel.navigation.focused(on: \NavApp.navigation))
        registrations += store.register(PresentationRoute<String>("about") { _ in "[about]" })
        store.dispatch(Navigate.push("list"))
        store.dispatch(Navigate.present("about"))
        #expect(store.state.value.navigation == NavigationState(["list"], sheet: "about"))
        #expect(store.presentation(of: store.state.value.navigation.sheet!, as: String.self) == "[about]")
        store.dispatch(Navigate.pop)
        #expect(store.state.value.navigation.sheet == "about")
        store.dispatch(Navigate.dismiss)
        store.dispatch(Navigate.dismiss)
        #expect(store.state.value.navigation == NavigationState())
    }

    @Test("a route registered by a focused parcel makes its screen from that focused store, not a global")
    func routeReachesItsStore() {
        struct Todo: Equatable { var id: Int; var title: String }
        struct App: Equatable {
            var todos = [Todo(id: 1, title: "milk")]
            var navigation = NavigationState()
        }
        struct Retitle: Action { var title: String }
        let todos = Parcel<[Todo]>(
            reducers: [ParcelReducer(Reducer<[Todo], Retitle> { todos, action in todos[0].title = action.title })],
            routes: [
                PresentationRoute<String>("todo") { (id, store: Store<[Todo]>) in
                    store.state.value.first { "\($0.id)" == id.parameter }.map { "[\($0.title)]" } ?? "[gone]"
                }.erased
            ])
        let store = Store(initialState: App(), scheduler: TestScheduler())
        let registration = store.register(todos.focused(on: \App.todos))
        let screen = PresentationID("todo", parameter: "1")
        #expect(store.presentation(of: screen, as: String.self) == "[milk]")
        store.dispatch(Retitle(title: "bread"))
        #expect(store.presentation(of: screen, as: String.self) == "[bread]")
        #expect(
            store.presentations(of: NavigationState([screen, PresentationID("todo", parameter: "2")]), as: String.self)
                == ["[bread]", "[gone]"])
        registration.disconnect()
        #expect(store.focusChildCountForTesting == 0)
    }

    @Test("a route that needs another store's state is a precondition failure at registration")
    func routeOnWrongStore() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = Store(initialState: NavApp(), scheduler: TestScheduler())
            let route = PresentationRoute<String>("n") { (_, store: Store<Int>) in "\(store.state.value)" }
            _ = store.register(route)
        }
        expectStandardError(
            of: result,
            contains: "Resin: the presentation route 'n' needs a Store<Int>, but it is registered on a Store<NavApp>")
    }
}
