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
        // every effect has finished.
        #expect(
            await eventually {
                scheduler.advance()
                return store.runningEffectCount == 0
            })
        scheduler.advance()
        let received = store.state.value.received
        #expect(store.runningEffectCount == 0)
        for lane in 0..<lanes {
            #expect(received[lane] == Array(0..<perLane), "lane \(lane) got \(received[lane].count) actions")
        }
    }

    @Test(
        "effects cancelled while their tasks send from other threads: after a cancel, none of their actions is dispatched"
    )
    func cancelWhileSending() async {
        struct Flood: Action { var lane: Int }
        struct Stop: Action { var lane: Int }
        let registrations = Connector()
        let lanes = 6
        let scheduler = TestScheduler()
        let store = Store(initialState: Lanes(received: Array(repeating: [], count: lanes)), scheduler: scheduler)
        var stopped = Set<Int>()
        var lateActions = 0
        registrations += store.register(
            Reducer<Lanes, Tick> { state, tick in
                if stopped.contains(tick.lane) { lateActions += 1 }
                state.received[tick.lane].append(tick.index)
            })
        // Each effect floods until it is cancelled, then (if it sent its share first) waits
        // for the cancel: only a cancel ends it, so the test does not depend on timing.
        let gate = Gate()
        registrations += store.register(
            Reducer<Lanes, Flood> { _, flood in
                .run(id: flood.lane) { send in
                    var index = 0
                    while !send.isCancelled, index < 20_000 {
                        send(Tick(lane: flood.lane, index: index))
                        index += 1
                        if index.isMultiple(of: 64) { await Task.yield() }
                    }
                    await gate.wait()  // ends when the task is cancelled
                }
            })
        registrations += store.register(
            Reducer<Lanes, Stop> { _, stop in
                stopped.insert(stop.lane)
                return .cancel(id: stop.lane)
            })
        for lane in 0..<lanes { store.dispatch(Flood(lane: lane)) }
        var rounds = 0
        #expect(
            await eventually {
                scheduler.advance()
                if rounds % 7 == 0, let lane = (0..<lanes).first(where: { !stopped.contains($0) }) {
                    store.dispatch(Stop(lane: lane))
                }
                rounds += 1
                return store.runningEffectCount == 0 && stopped.count == lanes
            })
        scheduler.advance()
        await Task.yield()
        scheduler.advance()
        #expect(stopped.count == lanes)
        #expect(store.runningEffectCount == 0)
        #expect(lateActions == 0)
        gate.open()
        for lane in 0..<lanes {
            let received = store.state.value.received[lane]
            #expect(received == Array(0..<received.count), "lane \(lane): in order, none lost before the cancel")
        }
    }
}
