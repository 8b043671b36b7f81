import ReactiveCore
import Resin
import Testing

private struct Page: Equatable {
    var count = 0
    var items: [Int: String] = [:]
}

private struct Bump: Action {}
private struct Log: Action {}

@Suite("Resin: inspection")
struct ResinInspectionTests {
    @Test("a store's inspection shows its foci and the routes that act on them, the same from any store of the tree")
    func fociAndRoutes() {
        let store = Store(initialState: Page(), scheduler: TestScheduler())
        let count = store.focus(\.count)
        let item = store.focus(\.items, key: 3)
        let registrations = [
            count.register(Reducer<Int, Bump> { value, _ in value += 1 }),
            store.register(Middleware<Page>.on(Log.self) { _, _ in }),
        ]
        store.dispatch(Bump())
        let inspection = store.inspect()
        #expect(inspection.paradigm == "Resin")
        #expect(inspection.nodes(ofKind: "root").first?.value?.contains("count: 1") == true)
        let foci = inspection.nodes(ofKind: "focus").compactMap(\.name).sorted()
        #expect(foci == ["\\Page.count", "\\Page.items[3]"])
        let reducers = inspection.nodes(ofKind: "reducers")
        #expect(reducers.map(\.name) == ["Bump"])
        let countFocus = inspection.nodes(ofKind: "focus").first { $0.name == "\\Page.count" }
        #expect(inspection.edges.contains { $0.from == reducers[0].id && $0.to == countFocus?.id })
        #expect(inspection.nodes(ofKind: "middleware").map(\.name) == ["Log"])
        #expect(inspection.statistics["foci"] == 3 && inspection.statistics["reducers"] == 1)
        #expect(item.inspect() == inspection, "any store of the tree shows the whole tree")
        for registration in registrations { registration.disconnect() }
        #expect(store.inspect().statistics["reducers"] == 0)
    }
}
