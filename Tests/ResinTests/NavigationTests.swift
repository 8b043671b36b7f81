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
}
