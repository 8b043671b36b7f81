import Resin
import TestSupport
import Testing

@Suite("Resin stores are Subscribable")
struct StoreSubscribableTests {
    struct Counter: Equatable { var count = 0; var label = "" }
    struct Increment: Action {}

    @Test("a store and a focused store deliver their state through subscribe and .values")
    func subscribe() async {
        let registrations = Connector()
        let store = Store(initialState: Counter(), scheduler: TestScheduler())
        registrations += store.register(Reducer<Counter, Increment> { state, _ in state.count += 1 })
        var counts: [Int] = []
        let connection = store.subscribe { counts.append($0.count) }
        var labels: [String] = []
        let labelConnection = store.focus(\.label).subscribe { labels.append($0) }
        store.dispatch(Increment())
        store.dispatch(Increment())
        #expect(counts == [0, 1, 2])
        #expect(labels == [""])
        var iterator = store.focus(\.count).values.makeAsyncIterator()
        store.dispatch(Increment())
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
        _ = (connection, labelConnection)
    }

    @Test("a subscription keeps its store alive until it disconnects")
    func lifetime() {
        weak var weakStore: Store<Counter>?
        var connection: Connection?
        do {
            let store = Store(initialState: Counter(), scheduler: TestScheduler())
            weakStore = store
            connection = store.subscribe { _ in }
        }
        #expect(weakStore != nil)
        connection?.disconnect()
        connection = nil
        #expect(weakStore == nil)
    }
}
