import Resin
import TestSupport
import Testing

private struct Detail: Equatable { var title: String }
private struct Settings: Equatable { var dark = false }

private enum Destination: Equatable {
    case detail(Detail)
    case settings(Settings)

    static let detail = CaseKey(Destination.detail) { if case .detail(let value) = $0 { value } else { nil } }
    static let settings = CaseKey(Destination.settings) { if case .settings(let value) = $0 { value } else { nil } }
}

private struct Screen: Equatable {
    var destination: Destination?
    var mode: Destination = .settings(Settings())
    var rows: [Row] = []
    var scores: [String: Int] = [:]
}

private struct Row: Identifiable, Equatable {
    var id: Int
    var count = 0
}

private struct Rename: Action { var title: String }
private struct ToggleDark: Action {}
private struct Dismiss: Action {}
private struct Open: Action { var destination: Destination? }
private struct Work: Action {}
private struct BumpRow: RoutedAction {
    var id: Int
    var route: Int { id }
}
private struct AddRow: Action { var id: Int }
private struct RemoveRow: Action { var id: Int }
private struct Score: RoutedAction {
    var name: String
    var route: String { name }
}

@Suite("Resin: scoping on enum cases and collections")
struct ScopingTests {
    @Test("a case focus is its value while the enum is in that case; its reducers run only then")
    func caseFocus() {
        let registrations = Connector()
        let store = Store(initialState: Screen(), scheduler: TestScheduler())
        registrations += store.register(Reducer<Screen, Open> { state, open in state.destination = open.destination })
        let detail = store.focus(\.destination, case: Destination.detail)
        #expect(detail === store.focus(\.destination, case: Destination.detail))
        registrations += detail.register(presentOnly: Reducer<Detail, Rename> { $0.title = $1.title })
        var seen: [Detail?] = []
        let connection = detail.state.observe { seen.append($0) }
        store.dispatch(Rename(title: "ignored"))
        store.dispatch(Open(destination: .detail(Detail(title: "a"))))
        store.dispatch(Rename(title: "b"))
        store.dispatch(Open(destination: .settings(Settings())))
        store.dispatch(Rename(title: "ignored again"))
        #expect(seen == [nil, Detail(title: "a"), Detail(title: "b"), nil])
        #expect(store.state.value.destination == .settings(Settings()))
        _ = connection
    }

    @Test("setting nil through a case focus of an optional enum dismisses it only from that case")
    func dismissThroughCase() {
        let registrations = Connector()
        let store = Store(
            initialState: Screen(destination: .detail(Detail(title: "a"))), scheduler: TestScheduler())
        registrations += store.register(Reducer<Screen, Open> { state, open in state.destination = open.destination })
        registrations += store.focus(\.destination, case: Destination.detail).register(
            Reducer<Detail?, Dismiss> { detail, _ in detail = nil })
        store.dispatch(Dismiss())
        #expect(store.state.value.destination == nil)
        store.dispatch(Open(destination: .settings(Settings())))
        store.dispatch(Dismiss())
        #expect(store.state.value.destination == .settings(Settings()))
    }

    @Test("a case focus on a non-optional enum switches the case when set; nil leaves it")
    func nonOptionalCase() {
        let registrations = Connector()
        let store = Store(initialState: Screen(), scheduler: TestScheduler())
        let settings = store.focus(\.mode, case: Destination.settings)
        registrations += settings.register(
            presentOnly: Reducer<Settings, ToggleDark> { settings, _ in settings.dark.toggle() })
        registrations += store.focus(\.mode, case: Destination.detail).register(
            Reducer<Detail?, Rename> { detail, rename in detail = Detail(title: rename.title) })
        registrations += store.focus(\.mode, case: Destination.detail).register(
            Reducer<Detail?, Dismiss> { detail, _ in detail = nil })
        store.dispatch(ToggleDark())
        #expect(settings.state.value == Settings(dark: true))
        store.dispatch(Rename(title: "x"))
        #expect(store.state.value.mode == .detail(Detail(title: "x")))
        #expect(settings.state.value == nil)
        store.dispatch(Dismiss())
        #expect(store.state.value.mode == .detail(Detail(title: "x")))
    }

    @Test("leaving a case cancels the effects its focus started")
    func leavingCaseCancels() {
        let registrations = Connector()
        let gate = Gate()
        let store = Store(initialState: Screen(destination: .detail(Detail(title: "a"))), scheduler: TestScheduler())
        registrations += store.register(Reducer<Screen, Open> { state, open in state.destination = open.destination })
        registrations += store.focus(\.destination, case: Destination.detail).register(
            Reducer<Detail?, Work> { _, _ in .run { _ in await gate.wait() } })
        store.dispatch(Work())
        #expect(store.runningEffectCount == 1)
        store.dispatch(Open(destination: .settings(Settings())))
        #expect(store.runningEffectCount == 0)
        gate.open()
    }

    @Test(
        "forEach registers for every element present and added, and ends an element's registrations and effects when it goes"
    )
    func forEachArray() {
        let registrations = Connector()
        let gate = Gate()
        let store = Store(initialState: Screen(rows: [Row(id: 1), Row(id: 2)]), scheduler: TestScheduler())
        registrations += store.register(Reducer<Screen, AddRow> { state, add in state.rows.append(Row(id: add.id)) })
        registrations += store.register(Reducer<Screen, RemoveRow> { state, remove in state.rows[id: remove.id] = nil })
        var made: [Int] = []
        var ended: [Int] = []
        let rows = store.forEach(\.rows) { id, row in
            made.append(id)
            let registration = row.register(
                presentOnly: Reducer<Row, BumpRow>(route: id) { row, _ in
                    row.count += 1
                    return .run { _ in await gate.wait() }
                })
            registration.onDisconnect(isolated: { ended.append(id) })
            return registration
        }
        #expect(made == [1, 2])
        store.dispatch(AddRow(id: 3))
        #expect(made == [1, 2, 3])
        store.dispatch(BumpRow(id: 3))
        store.dispatch(BumpRow(id: 1))
        #expect(store.state.value.rows.map(\.count) == [1, 0, 1])
        #expect(store.runningEffectCount == 2)
        store.dispatch(RemoveRow(id: 1))
        #expect(ended == [1])
        #expect(store.runningEffectCount == 1)
        #expect(store.registrationCountsForTesting.reducers == 4)
        rows.disconnect()
        #expect(Set(ended) == [1, 2, 3])
        #expect(store.runningEffectCount == 0)
        #expect(store.registrationCountsForTesting.reducers == 2)
        #expect(store.focusChildCountForTesting == 0)
        gate.open()
    }

    @Test("forEach over a dictionary follows its keys; a key removed and added back in one action is kept")
    func forEachDictionary() {
        let registrations = Connector()
        let store = Store(initialState: Screen(scores: ["ada": 0]), scheduler: TestScheduler())
        struct Reset: Action {}
        registrations += store.register(
            Reducer<Screen, Reset> { state, _ in
                state.scores["ada"] = nil
                state.scores["ada"] = 0
                state.scores["bo"] = 0
            })
        var made: [String] = []
        let scores = store.forEach(\.scores) { name, score in
            made.append(name)
            return score.register(Reducer<Int?, Score>(route: name) { value, _ in value? += 1 })
        }
        store.dispatch(Score(name: "ada"))
        store.dispatch(Reset())
        store.dispatch(Score(name: "bo"))
        #expect(made == ["ada", "bo"])
        #expect(store.state.value.scores == ["ada": 0, "bo": 1])
        _ = scores
    }

    @Test("whilePresent registers while an optional state (here a case) is present, and ends with it")
    func whilePresent() {
        let registrations = Connector()
        let store = Store(initialState: Screen(), scheduler: TestScheduler())
        registrations += store.register(Reducer<Screen, Open> { state, open in state.destination = open.destination })
        var made = 0
        var ended = 0
        let detail = store.focus(\.destination, case: Destination.detail).whilePresent { detail in
            made += 1
            let registration = detail.register(presentOnly: Reducer<Detail, Rename> { $0.title = $1.title })
            registration.onDisconnect(isolated: { ended += 1 })
            return registration
        }
        #expect(made == 0)
        store.dispatch(Open(destination: .detail(Detail(title: "a"))))
        store.dispatch(Rename(title: "b"))
        #expect(store.state.value.destination == .detail(Detail(title: "b")))
        #expect((made, ended) == (1, 0))
        store.dispatch(Open(destination: .detail(Detail(title: "c"))))
        #expect((made, ended) == (1, 0))
        store.dispatch(Open(destination: nil))
        #expect((made, ended) == (1, 1))
        #expect(store.registrationCountsForTesting.reducers == 1)
        store.dispatch(Open(destination: .detail(Detail(title: "d"))))
        #expect((made, ended) == (2, 1))
        detail.disconnect()
        #expect((made, ended) == (2, 2))
    }

    @Test("forEach ended from inside its own body leaves no registration behind")
    func forEachEndedFromBody() {
        let registrations = Connector()
        let store = Store(initialState: Screen(rows: [Row(id: 1)]), scheduler: TestScheduler())
        registrations += store.register(Reducer<Screen, AddRow> { state, add in state.rows.append(Row(id: add.id)) })
        var rows: Connection?
        rows = store.forEach(\.rows) { id, row in
            if id == 2 { rows?.disconnect() }
            return row.register(presentOnly: Reducer<Row, BumpRow>(route: id) { row, _ in row.count += 1 })
        }
        #expect(store.registrationCountsForTesting.reducers == 2)
        store.dispatch(AddRow(id: 2))
        #expect(store.registrationCountsForTesting.reducers == 1)
        store.dispatch(AddRow(id: 3))
        #expect(store.registrationCountsForTesting.reducers == 1)
        #expect(store.focusChildCountForTesting == 0)
    }
}
