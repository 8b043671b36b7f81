import Resin
import TestSupport
import Testing

private struct Lanes: Equatable {
    var received: [[Int]]
}

private struct StartLanes: Action {}
private struct Tick: Action {
    var lane: Int
    var index: Int
}

@Suite("Effects under load")
struct EffectStressTests {
    @Test("many effects sending at once from other threads: nothing lost or duplicated, each effect's actions in order")
    func manyProducers() async {
        let registrations = Connector()
        let lanes = 8
        let perLane = 5_000
        let scheduler = TestScheduler()
        let store = Store(initialState: Lanes(received: Array(repeating: [], count: lanes)), scheduler: scheduler)
        registrations += store.register(
            Reducer<Lanes, Tick> { state, tick in state.received[tick.lane].append(tick.index) })
        registrations += store.register(
            Middleware<Lanes>.on(StartLanes.self) { _, context in
                for lane in 0..<lanes {
                    context.run { send in
                        for index in 0..<perLane { send(Tick(lane: lane, index: index)) }
                    }
                }
            })
        store.dispatch(StartLanes())
        #expect(store.runningEffectCount == lanes)
        // The store's domain is this task: drain while the effects are still sending, until
        // every effect has finished (bounded by rounds, not by time).
        var rounds = 0
        while store.runningEffectCount > 0 && rounds < 1_000_000 {
            scheduler.advance()
            await Task.yield()
            rounds += 1
        }
        scheduler.advance()
        let received = store.state.value.received
        #expect(store.runningEffectCount == 0)
        for lane in 0..<lanes {
            #expect(received[lane] == Array(0..<perLane), "lane \(lane) got \(received[lane].count) actions")
        }
    }
}
