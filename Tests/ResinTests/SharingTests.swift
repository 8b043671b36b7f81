import Resin
import ResinTesting
import TestSupport
import Testing

private struct Account: Equatable, Sendable {
    var name = "ada"
    var credits = 0
}

private struct Shop: Equatable {
    var cart: [String] = []
}

private struct Inbox: Equatable {
    var unread = 0
}

private struct SharedApp: Equatable {
    var account = Account()
    var shop = Shop()
    var inbox = Inbox()
    var rows: [Int: Inbox] = [:]
}

/// Buys an item: the shop's cart grows, the shared account pays.
private struct Buy: Action, Equatable { var item: String }
/// Receives a message: the inbox grows, the shared account earns.
private struct Receive: Action, Equatable { var credits: Int }
/// Renames the account, from the root.
private struct Rename: Action, Equatable { var name: String }
/// Removes a row, from the root.
private struct DropRow: Action, Equatable { var key: Int }
/// Sets the credits through the shop to what they are (no change).
private struct Touch: Action, Equatable {}

@MainActor
private func sharedStore() -> (
    Store<SharedApp>, Store<Sharing<Shop, Account>>, Store<Sharing<Inbox, Account>>, Connection
) {
    let store = Store(initialState: SharedApp())
    let shop = store.focus(\.shop).sharing(store.focus(\.account))
    let inbox = store.focus(\.inbox).sharing(store.focus(\.account))
    let registrations = Connection(grouping: [
        shop.register(
            Reducer<Sharing<Shop, Account>, Buy> { state, buy in
                state.cart.append(buy.item)
                state.shared.credits -= 1
            }),
        shop.register(
            Reducer<Sharing<Shop, Account>, Touch> { state, _ in state.shared.credits = state.shared.credits }),
        inbox.register(
            Reducer<Sharing<Inbox, Account>, Receive> { state, receive in
                state.unread += 1
                state.shared.credits += receive.credits
            }),
        store.register(Reducer<SharedApp, Rename> { $0.account.name = $1.name }),
    ])
    return (store, shop, inbox, registrations)
}

@MainActor
@Suite("Resin: shared state")
struct SharingTests {
    @Test("two features write one shared account; each sees the other's writes, and the root holds the only copy")
    func oneSourceOfTruth() {
        let (store, shop, inbox, registrations) = sharedStore()
        var shopSaw: [Int] = []
        var inboxSaw: [Int] = []
        let shopWatch = shop.state.observe { shopSaw.append($0.shared.credits) }
        let inboxWatch = inbox.state.observe { inboxSaw.append($0.shared.credits) }
        store.dispatch(Receive(credits: 5))
        store.dispatch(Buy(item: "tea"))
        #expect(store.state.value.account.credits == 4)
        #expect(shop.state.value == Sharing(local: Shop(cart: ["tea"]), shared: Account(credits: 4)))
        #expect(inbox.state.value.unread == 1)
        #expect(shopSaw == [0, 5, 4])
        #expect(inboxSaw == [0, 5, 4])
        store.dispatch(Rename(name: "grace"))
        #expect(shop.state.value.shared.name == "grace")
        #expect(inbox.state.value.shared.name == "grace")
        _ = (registrations, shopWatch, inboxWatch)
    }

    @Test("shared state matches a plain struct under random actions from every feature and the root")
    func model() {
        var generator = SeededGenerator(seed: 424)
        let (store, shop, inbox, registrations) = sharedStore()
        var reference = SharedApp()
        for step in 0..<500 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                store.dispatch(Buy(item: "item \(step)"))
                reference.shop.cart.append("item \(step)")
                reference.account.credits -= 1
            case 1:
                let credits = Int.random(in: 0..<3, using: &generator)
                store.dispatch(Receive(credits: credits))
                reference.inbox.unread += 1
                reference.account.credits += credits
            case 2:
                store.dispatch(Rename(name: "name \(step % 3)"))
                reference.account.name = "name \(step % 3)"
            default:
                store.dispatch(Touch())
            }
            #expect(store.state.value == reference)
            #expect(shop.state.value == Sharing(local: reference.shop, shared: reference.account))
            #expect(inbox.state.value == Sharing(local: reference.inbox, shared: reference.account))
        }
        _ = registrations
    }

    @Test("a shared write of the same value wakes no observer of the other feature")
    func noOpSharedWrite() {
        let (store, shop, inbox, registrations) = sharedStore()
        var wakes = 0
        let watch = inbox.state.observe { _ in wakes += 1 }
        store.dispatch(Touch())
        #expect(wakes == 1)
        #expect(shop.state.value.shared == Account())
        _ = (registrations, watch)
    }

    @Test("an observer of one feature that dispatches into the other during a delivery waits its turn")
    func reentrantDispatch() {
        let (store, shop, inbox, registrations) = sharedStore()
        var seen: [Int] = []
        let watch = shop.state.observe { state in
            seen.append(state.shared.credits)
            if state.cart.count == 1, state.shared.credits == -1 { store.dispatch(Receive(credits: 10)) }
        }
        store.dispatch(Buy(item: "tea"))
        #expect(seen == [0, -1, 9])
        #expect(inbox.state.value.shared.credits == 9)
        _ = (registrations, watch)
    }

    @Test("sharing the same pair twice gives one store; released, it leaves the root's foci")
    func identityAndRelease() {
        let store = Store(initialState: SharedApp())
        let shop = store.focus(\.shop)
        let account = store.focus(\.account)
        let before = store.focusChildCountForTesting
        var first: Store<Sharing<Shop, Account>>? = shop.sharing(account)
        #expect(first === shop.sharing(account))
        #expect(store.focusChildCountForTesting == before + 1)
        weak let released = first
        first = nil
        #expect(released == nil)
        #expect(store.focusChildCountForTesting == before)
    }

    @Test("an element focus can share a part of the root with an element of another collection")
    func elementSharing() {
        let store = Store(initialState: SharedApp(rows: [1: Inbox(), 2: Inbox()]))
        let row = store.focus(\.rows, key: 1).sharing(store.focus(\.account))
        let registration = row.register(
            Reducer<Sharing<Inbox?, Account>, Receive> { state, receive in
                state.local?.unread += 1
                state.shared.credits += receive.credits
            })
        store.dispatch(Receive(credits: 3))
        #expect(store.state.value.rows[1]?.unread == 1)
        #expect(store.state.value.rows[2]?.unread == 0)
        #expect(store.state.value.account.credits == 3)
        _ = registration
    }

    @Test("a sharing store's effects belong to its local part: removing the element cancels them")
    nonisolated func effectsEndWithLocalPart() async {
        let store = TestStore(initialState: SharedApp(rows: [1: Inbox()])) { store in
            [
                store.focus(\.rows, key: 1).sharing(store.focus(\.account)).register(
                    Reducer<Sharing<Inbox?, Account>, Receive> { _, _ in
                        .run { _ in
                            let (never, _) = AsyncStream.makeStream(of: Void.self)
                            for await _ in never {}
                        }
                    }),
                store.register(Reducer<SharedApp, DropRow> { $0.rows[$1.key] = nil }),
            ]
        }
        store.send(Receive(credits: 1))
        #expect(store.store.runningEffectCount == 1)
        store.send(DropRow(key: 1)) { $0.rows = [:] }
        #expect(store.store.runningEffectCount == 0)
        await store.finish()
    }

    @Test("sharing a store of another tree is a precondition failure")
    func otherTree() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = Store(initialState: SharedApp())
            let second = Store(initialState: SharedApp())
            _ = first.focus(\.shop).sharing(second.focus(\.account))
        }
        expectStandardError(of: result, contains: "Resin: a store can share only a part of its own state tree")
    }
}
