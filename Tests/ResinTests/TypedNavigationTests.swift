import Foundation
import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

private struct Detail: Equatable, Sendable, Codable {
    var number: Int
    var saved = false
}

private enum Screen: Equatable, Sendable, Codable {
    case detail(Detail)
    case settings
}

extension Screen {
    static let detail = CaseKey(Screen.detail) { if case .detail(let value) = $0 { value } else { nil } }
}

private enum Sheet: Equatable, Sendable {
    case editor(Detail)
    case alert(String)
}

extension Sheet {
    static let editor = CaseKey(Sheet.editor) { if case .editor(let value) = $0 { value } else { nil } }
}

private struct NavigationApp: Equatable {
    var path = StackState<Screen>()
    var other = StackState<Screen>()
    var sheet: Sheet?
    var log: [String] = []
}

/// Sent to the detail on top; routed by its number.
private struct Bump: RoutedAction, Equatable {
    var number: Int
    var route: Int { number }
}

private struct Save: Action, Equatable {}
private struct Saved: Action, Equatable { var number: Int }
private struct Wait: Action, Equatable {}
private struct DeepLink: Action, Equatable { var numbers: [Int] }

/// Counts what the tests' element registrations are doing, from any thread.
private final class Tally: Sendable {
    private let state = LockedState<(live: Int, made: Int, cancelled: Int)>((0, 0, 0))
    var live: Int { state.withLock { $0.live } }
    var made: Int { state.withLock { $0.made } }
    var cancelled: Int { state.withLock { $0.cancelled } }
    func began() {
        state.withLock {
            $0.live += 1; $0.made += 1
        }
    }
    func ended() { state.withLock { $0.live -= 1 } }
    func cancel() { state.withLock { $0.cancelled += 1 } }
}

/// `Wait`: an effect that runs until cancelled, and counts its cancellation in `tally`.
private func waitingReducer(_ tally: Tally) -> Reducer<Detail, Wait> {
    Reducer { _, _ in
        .run { _ in
            await withTaskCancellationHandler {
                let (never, _) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}
            } onCancel: {
                tally.cancel()
            }
        }
    }
}

/// Registers a detail screen's reducers: `Bump` for its number, `Save` (saves, then dismisses
/// itself), `Wait` (an effect that runs until cancelled).
private func detailScreen(_ screen: Store<Screen?>, tally: Tally) -> Connection {
    tally.began()
    let detail = screen.focus(\.self, case: Screen.detail)
    guard let number = detail.state.value?.number else { return Connection { tally.ended() } }
    let connections = [
        detail.register(presentOnly: Reducer<Detail, Bump>(route: number) { detail, _ in detail.number += 100 }),
        detail.register(
            presentOnly: Reducer<Detail, Save> { detail, _ in
                detail.saved = true
                let number = detail.number
                return .run { send in
                    @Dependency(\.dismiss) var dismiss
                    send(Saved(number: number))
                    dismiss()
                }
            }),
        detail.register(presentOnly: waitingReducer(tally)),
    ]
    return Connection {
        tally.ended()
        for connection in connections { connection.disconnect() }
    }
}

@Suite("Resin: typed navigation")
struct TypedNavigationTests {
    // MARK: The stack's value

    @Test("StackState matches a plain list of (id, element) under random pushes, pops and replacements")
    func stackModel() {
        var generator = SeededGenerator(seed: 40)
        for _ in 0..<50 {
            var stack = StackState<Int>([1, 2])
            var reference: [(id: Int, element: Int)] = [(0, 1), (1, 2)]
            var next = 2
            for step in 0..<60 {
                switch Int.random(in: 0..<7, using: &generator) {
                case 0, 1:
                    let id = stack.append(step)
                    #expect(id == StackElementID(rawValue: next))
                    reference.append((next, step))
                    next += 1
                case 2:
                    let count = Int.random(in: 0..<3, using: &generator)
                    stack.removeLast(count)
                    reference.removeLast(min(count, reference.count))
                case 3:
                    let id = Int.random(in: 0..<(next + 1), using: &generator)
                    stack.pop(from: StackElementID(rawValue: id))
                    if let index = reference.firstIndex(where: { $0.id == id }) { reference.removeSubrange(index...) }
                case 4:
                    let id = Int.random(in: 0..<(next + 1), using: &generator)
                    stack.pop(to: StackElementID(rawValue: id))
                    if let index = reference.firstIndex(where: { $0.id == id }) {
                        reference.removeSubrange((index + 1)...)
                    }
                case 5:
                    let elements = (0..<Int.random(in: 0..<3, using: &generator)).map { $0 + step * 10 }
                    stack.replace(with: elements)
                    reference = elements.map { element in
                        defer { next += 1 }
                        return (next, element)
                    }
                default:
                    if let index = reference.indices.randomElement(using: &generator) {
                        stack[id: StackElementID(rawValue: reference[index].id)] = -step
                        reference[index].element = -step
                    }
                }
                #expect(stack.ids.map(\.rawValue) == reference.map(\.id))
                #expect(Array(stack) == reference.map(\.element))
                for entry in reference { #expect(stack[id: StackElementID(rawValue: entry.id)] == entry.element) }
            }
        }
    }

    @Test("setting an element by id to nil pops it and those above; setting one the stack lacks does nothing")
    func subscriptByID() {
        var stack: StackState<String> = ["a", "b", "c"]
        stack[id: 7] = "x"
        #expect(Array(stack) == ["a", "b", "c"])
        stack[id: 1] = "B"
        #expect(Array(stack) == ["a", "B", "c"])
        stack[id: 1] = nil
        #expect(Array(stack) == ["a"])
        #expect(stack.append("d") == 3)
        #expect(stack.description == "[#0: a, #3: d]")
    }

    @Test("equal stacks hold equal elements under the same ids; a same-value write is no change")
    func equality() {
        var first: StackState<Int> = [1, 2]
        let second: StackState<Int> = [1, 2]
        #expect(first == second)
        first[0] = 1
        #expect(first == second)
        first.popLast()
        first.append(2)
        #expect(first != second)
        #expect(Array(first) == Array(second))
        #expect(Set([second, StackState([1, 2])]).count == 1)
    }

    @Test("a stack round-trips through JSON; ids and elements that do not match up are a decoding error")
    func coding() throws {
        var stack: StackState<Screen> = [.settings, .detail(Detail(number: 3))]
        stack.popLast()
        stack.append(.detail(Detail(number: 4)))
        let data = try JSONEncoder().encode(stack)
        var decoded = try JSONDecoder().decode(StackState<Screen>.self, from: data)
        #expect(decoded == stack)
        #expect(decoded.append(.settings) == 3)
        for corrupt in [
            #"{"ids":[0,0],"elements":[1,2],"nextID":2}"#, #"{"ids":[0],"elements":[1,2],"nextID":2}"#,
            #"{"ids":[5],"elements":[1],"nextID":2}"#,
        ] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(StackState<Int>.self, from: Data(corrupt.utf8))
            }
        }
    }

    @Test("popping a negative number of elements is a precondition failure")
    func negativePop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var stack: StackState<Int> = [1]
            stack.removeLast(-1)
        }
        expectStandardError(of: result, contains: "Resin: a stack cannot pop a negative number of elements")
    }

    // MARK: Following a stack

    @Test("each element's registrations live exactly while it is on the stack; popping releases its store")
    func elementLifetimes() {
        let tally = Tally()
        let store = Store(initialState: NavigationApp())
        weak var released: Store<Screen?>?
        let stack = store.stack(\.path) { _, screen in
            released = screen
            return detailScreen(screen, tally: tally)
        }
        store.dispatch(StackAction.push(Screen.detail(Detail(number: 1))))
        store.dispatch(StackAction.push(Screen.detail(Detail(number: 2))))
        #expect(tally.live == 2)
        store.dispatch(Bump(number: 2))
        #expect(store.state.value.path.last == .detail(Detail(number: 102)))
        #expect(store.state.value.path.first == .detail(Detail(number: 1)))
        store.dispatch(StackAction<Screen>.pop())
        #expect(tally.live == 1)
        #expect(released == nil)
        store.dispatch(Bump(number: 2))
        #expect(store.state.value.path.count == 1)
        store.dispatch(StackAction<Screen>.popToRoot())
        #expect(tally.live == 0)
        #expect(store.focus(\.path).focusChildCountForTesting == 0)
        stack.disconnect()
        #expect(store.registrationCountsForTesting.reducers == 0)
    }

    @Test("a deep link sets the whole stack in one action: every element is followed before the next action")
    func deepLink() {
        let tally = Tally()
        let store = Store(initialState: NavigationApp(path: [.settings]))
        let stack = store.stack(\.path) { _, screen in detailScreen(screen, tally: tally) }
        let link = store.register(
            Reducer<NavigationApp, DeepLink> { app, link in
                app.path.replace(with: link.numbers.map { .detail(Detail(number: $0)) })
                app.sheet = .alert("linked")
            })
        #expect(tally.made == 1)
        store.dispatch(DeepLink(numbers: [1, 2, 3]))
        #expect(store.state.value.path.ids == [1, 2, 3])
        #expect(tally.live == 3)
        #expect(tally.made == 4)
        store.dispatch(Bump(number: 2))
        #expect(store.state.value.path[1] == .detail(Detail(number: 102)))
        store.dispatch(StackAction<Screen>.setPath([.settings]))
        #expect(store.state.value.path.ids == [4])
        #expect(tally.live == 1)
        _ = (stack, link)
    }

    @Test("pop to and pop from an element keep the elements below it and their registrations")
    func popToAndFrom() {
        let tally = Tally()
        let store = Store(
            initialState: NavigationApp(path: StackState((1...5).map { .detail(Detail(number: $0)) })))
        let stack = store.stack(\.path) { _, screen in detailScreen(screen, tally: tally) }
        store.dispatch(StackAction<Screen>.popTo(3))
        #expect(store.state.value.path.ids == [0, 1, 2, 3])
        store.dispatch(StackAction<Screen>.popFrom(2))
        #expect(store.state.value.path.ids == [0, 1])
        #expect(tally.live == 2)
        #expect(tally.made == 5)
        store.dispatch(StackAction<Screen>.popTo(9))
        store.dispatch(StackAction<Screen>.popFrom(9))
        #expect(store.state.value.path.ids == [0, 1])
        _ = stack
    }

    @Test("popping an element cancels every effect it started, and only its")
    func popCancelsEffects() async {
        let tally = Tally()
        let store = TestStore(initialState: NavigationApp(path: [.detail(Detail(number: 1))])) { store in
            store.stack(\.path) { _, screen in detailScreen(screen, tally: tally) }
        }
        store.send(StackAction.push(Screen.detail(Detail(number: 2)))) {
            $0.path.append(.detail(Detail(number: 2)))
        }
        store.send(Wait())
        #expect(store.store.runningEffectCount == 2)
        store.send(StackAction<Screen>.pop()) { $0.path.popLast() }
        #expect(store.store.runningEffectCount == 1)
        #expect(await eventually { tally.cancelled == 1 })
        store.send(StackAction<Screen>.popToRoot()) { $0.path.removeAll() }
        #expect(store.store.runningEffectCount == 0)
        #expect(await eventually { tally.cancelled == 2 })
        await store.finish()
    }

    @Test("a child's dismiss pops it and those above it, through a StackAction the test store receives")
    func dismissFromStack() async {
        let tally = Tally()
        let store = TestStore(initialState: NavigationApp(path: [.settings, .detail(Detail(number: 1)), .settings])) {
            store in
            let saves = store.register(
                Reducer<NavigationApp, Saved> { app, saved in app.log.append("saved \(saved.number)") })
            let stack = store.stack(\.path) { _, screen in detailScreen(screen, tally: tally) }
            return Connection {
                saves.disconnect()
                stack.disconnect()
            }
        }
        #expect(tally.live == 3)
        store.send(Save()) { $0.path[id: 1] = .detail(Detail(number: 1, saved: true)) }
        await store.receive(Saved(number: 1)) { $0.log = ["saved 1"] }
        await store.receive(StackAction<Screen>.popFrom(1)) { $0.path.pop(from: 1) }
        await store.finish()
        #expect(store.state.path.ids == [0])
        #expect(tally.live == 1)
    }

    @Test("dismiss during an effect: the effect is cancelled with its element, and sends nothing after")
    func dismissDuringEffect() async {
        let after = Tally()
        let store = TestStore(initialState: NavigationApp(path: [.settings, .detail(Detail(number: 5))])) { store in
            store.stack(\.path) { id, screen in
                screen.register(
                    presentOnly: Reducer<Screen, Save> { _, _ in
                        .run { send in
                            // The first screen dismisses itself, which pops the second too: in
                            // which order two dismissals would arrive is up to their tasks.
                            @Dependency(\.dismiss) var dismiss
                            if id.rawValue == 0 { dismiss() }
                            let (never, _) = AsyncStream.makeStream(of: Void.self)
                            for await _ in never {}
                            after.began()
                            send(Saved(number: id.rawValue))
                        }
                    })
            }
        }
        store.send(Save())
        await store.receive(StackAction<Screen>.popFrom(0)) { $0.path.removeAll() }
        #expect(store.store.runningEffectCount == 0)
        await store.finish()
        // finish waited for both cancelled tasks to end; what they sent after was dropped.
        #expect(after.made == 2)
    }

    @Test("a reentrant dispatch during a pop waits for it and sees the popped stack")
    func reentrantDispatchDuringPop() {
        let tally = Tally()
        let store = Store(initialState: NavigationApp(path: [.detail(Detail(number: 1)), .detail(Detail(number: 2))]))
        var seen: [Int] = []
        let stack = store.stack(\.path) { id, screen in
            let connection = detailScreen(screen, tally: tally)
            return Connection(isolated: {
                // Ends while the pop propagates: the push waits for it.
                connection.disconnect()
                seen.append(store.state.value.path.count)
                store.dispatch(StackAction.push(Screen.detail(Detail(number: 10 + id.rawValue))))
            })
        }
        let watcher = store.focus(\.path).state.observe { path in seen.append(path.count * 100) }
        store.dispatch(StackAction<Screen>.pop())
        #expect(store.state.value.path.ids == [0, 2])
        #expect(store.state.value.path.last == .detail(Detail(number: 11)))
        #expect(tally.live == 2)
        #expect(seen.sorted() == [1, 100, 200, 200])
        _ = (stack, watcher)
    }

    @Test("named stacks of one element type handle only their own actions and dismissals")
    func namedStacks() async {
        let store = TestStore(initialState: NavigationApp(path: [.settings], other: [.settings])) { store in
            let first = store.stack(\.path, name: "first") { _, screen in
                screen.register(
                    presentOnly: Reducer<Screen, Save> { _, _ in
                        .run { _ in
                            @Dependency(\.dismiss) var dismiss
                            dismiss()
                        }
                    })
            }
            let second = store.stack(\.other, name: "second") { _, _ in Connection() }
            return Connection {
                first.disconnect()
                second.disconnect()
            }
        }
        store.send(StackAction.push(Screen.settings, in: "second")) { $0.other.append(.settings) }
        store.send(StackAction.push(Screen.settings))  // no unnamed stack: nothing
        store.send(Save())
        await store.receive(StackAction<Screen>.popFrom(0, in: "first")) { $0.path.removeAll() }
        await store.finish()
        #expect(store.state.other.count == 2)
    }

    @Test("a hundred-deep stack: an action on the top element refreshes the path to it, not the elements below")
    func deepStackCost() {
        let store = Store(initialState: NavigationApp(path: StackState((0..<100).map { .detail(Detail(number: $0)) })))
        let tally = Tally()
        let stack = store.stack(\.path) { _, screen in detailScreen(screen, tally: tally) }
        let observers = (0..<100).map { store.focus(\.path, id: StackElementID(rawValue: $0)).state.observe { _ in } }
        store.dispatch(Bump(number: 99))
        #expect(store.state.value.path.last == .detail(Detail(number: 199)))
        #expect(store.lastRefreshCountForTesting == 4)  // the root, the path, the element, its case
        _ = (stack, observers)
    }

    // MARK: Presentation

    @Test("a presented child's registrations live while it is presented; dismissing cancels its effects")
    func presentedChild() async {
        let tally = Tally()
        let store = TestStore(initialState: NavigationApp()) { store in
            store.presentation(\.sheet) { sheet in
                tally.began()
                let editor = sheet.focus(\.self, case: Sheet.editor)
                let wait = editor.register(presentOnly: waitingReducer(tally))
                let save = editor.register(
                    presentOnly: Reducer<Detail, Save> { detail, _ in
                        detail.saved = true
                        return .run { _ in
                            @Dependency(\.dismiss) var dismiss
                            dismiss()
                        }
                    })
                return Connection {
                    tally.ended()
                    wait.disconnect()
                    save.disconnect()
                }
            }
        }
        store.send(Wait())
        #expect(tally.made == 0)
        store.send(PresentationAction.present(Sheet.editor(Detail(number: 1)))) {
            $0.sheet = .editor(Detail(number: 1))
        }
        #expect(tally.live == 1)
        store.send(Wait())
        #expect(store.store.runningEffectCount == 1)
        store.send(PresentationAction<Sheet>.dismiss()) { $0.sheet = nil }
        #expect(store.store.runningEffectCount == 0)
        #expect(await eventually { tally.cancelled == 1 })
        #expect(tally.live == 0)
        store.send(PresentationAction.present(Sheet.editor(Detail(number: 2)))) {
            $0.sheet = .editor(Detail(number: 2))
        }
        store.send(Save()) { $0.sheet = .editor(Detail(number: 2, saved: true)) }
        await store.receive(PresentationAction<Sheet>.dismiss()) { $0.sheet = nil }
        #expect(tally.live == 0)
        #expect(tally.made == 2)
        await store.finish()
    }

    @Test("dismiss outside any presentation warns on standard error and changes nothing")
    func dismissOutside() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dismiss = Dependencies()[DismissKey.self]
            dismiss()
            exit(1)
        }
        expectStandardError(
            of: result,
            contains: "Resin: dismiss() was called by an effect of a focus that is neither presented nor in a stack")
    }

    @Test("name-based navigation is a stack of presentation ids: its screens have ids and can be followed")
    func namesOverTypedStack() {
        struct Named: Equatable { var navigation = NavigationState(["list"]) }
        let store = Store(initialState: Named())
        let parcel = store.register(Parcel.navigation.focused(on: \Named.navigation))
        var followed: [String] = []
        let stack = store.stack(\.navigation.path) { id, _ in
            followed.append("\(id)")
            return Connection()
        }
        store.dispatch(Navigate.push(PresentationID("todo", parameter: "1")))
        store.dispatch(Navigate.push("about"))
        store.dispatch(Navigate.popTo("list"))
        store.dispatch(Navigate.push("about"))
        #expect(store.state.value.navigation.stack == ["list", "about"])
        #expect(store.state.value.navigation.path.ids == [0, 3])
        #expect(store.state.value.navigation == NavigationState(["list", "about"]))
        #expect(followed == ["#0", "#1", "#2", "#3"])
        _ = (parcel, stack)
    }
}
