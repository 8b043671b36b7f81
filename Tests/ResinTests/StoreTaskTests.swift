import ReactiveCore
import Resin
import TestSupport
import Testing

private struct Tasks: Equatable {
    var log: [String] = []
}

private struct Load: Action, Equatable { var name: String }
private struct Loaded: Action, Equatable { var name: String }
private struct Both: Action, Equatable {}

/// Ends waiting effects from the test: each `open(name)` lets the effect waiting on `name` end.
private final class Gates: Sendable {
    private let streams = LockedState<[String: (AsyncStream<Void>, AsyncStream<Void>.Continuation)]>([:])

    func stream(_ name: String) -> AsyncStream<Void> {
        streams.withLock { streams in
            if let existing = streams[name] { return existing.0 }
            let made = AsyncStream.makeStream(of: Void.self)
            streams[name] = made
            return made.stream
        }
    }

    func open(_ name: String) {
        _ = stream(name)
        streams.withLock { $0[name]?.1.finish() }
    }
}

/// A store whose effects wait on gates, and a task on the main actor that runs its scheduler
/// (the store takes what effects report through it) until the test ends.
@MainActor
private final class GatedStore {
    let gates = Gates()
    let scheduler = TestScheduler()
    let store: Store<Tasks>
    private var registrations: [Connection] = []
    private var pump: Task<Void, Never>?

    init() {
        store = Store(initialState: Tasks(), scheduler: scheduler)
        let gates = gates
        registrations.append(
            store.register(
                Reducer<Tasks, Load> { state, load in
                    state.log.append("load \(load.name)")
                    let gate = gates.stream(load.name)
                    return .run { send in
                        for await _ in gate {}
                        send(Loaded(name: load.name))
                    }
                }))
        registrations.append(
            store.register(
                Reducer<Tasks, Both> { _, _ in
                    let (first, second) = (gates.stream("first"), gates.stream("second"))
                    return .concatenate(
                        .run { send in
                            for await _ in first {}
                            send(Loaded(name: "first"))
                        },
                        .run { send in
                            for await _ in second {}
                            send(Loaded(name: "second"))
                        })
                }))
        registrations.append(
            store.register(Reducer<Tasks, Loaded> { state, loaded in state.log.append("loaded \(loaded.name)") }))
        let scheduler = scheduler
        pump = Task { @MainActor in
            while !Task.isCancelled {
                scheduler.advance()
                await Task.yield()
            }
        }
    }

    func stop() {
        pump?.cancel()
        registrations.removeAll()
    }

    /// Records `failure` and stops: a task that does not finish fails its test, never hangs it.
    func fail(_ failure: String) {
        Issue.record(Comment(rawValue: failure))
        stop()
    }
}

/// Whether `task` finishes within a bounded number of yields.
@MainActor
private func finishes(_ task: StoreTask) async -> Bool {
    for _ in 0..<10_000 where !task.isFinished { await Task.yield() }
    return task.isFinished
}

@Suite("Resin: awaiting and cancelling what an action started")
@MainActor
struct StoreTaskTests {
    @Test("finish() returns once every effect the action started has ended, concatenations included")
    func finishAwaitsEffects() async {
        let gated = GatedStore()
        let load = gated.store.dispatch(Load(name: "a"))
        let both = gated.store.dispatch(Both())
        #expect(!load.isFinished && !both.isFinished)
        gated.gates.open("a")
        // Bounded, so that a task that never learns its effect ended fails instead of hanging.
        guard await finishes(load) else {
            Issue.record("the task did not finish once its effect ended")
            gated.stop()
            return
        }
        await load.finish()
        #expect(load.isFinished && gated.store.state.value.log.contains("loaded a"))
        gated.gates.open("first")
        // The second part has not ended: the task waits for it.
        for _ in 0..<10 { await Task.yield() }
        #expect(!both.isFinished)
        gated.gates.open("second")
        guard await finishes(both) else { return gated.fail("both did not finish") }
        await both.finish()
        #expect(gated.store.state.value.log.suffix(2) == ["loaded first", "loaded second"])
        gated.stop()
    }

    @Test("an effect a middleware asks for starts after the action is processed, and the action's task waits for it")
    func middlewareEffectBelongsToTheTask() async {
        struct Fetch: Action {}
        let gated = GatedStore()
        let gates = gated.gates
        let middleware = gated.store.register(
            Middleware<Tasks> { action, context in
                guard action is Fetch else { return .pass }
                context.run { send in
                    for await _ in gates.stream("fetch") {}
                    send(Loaded(name: "fetched"))
                }
                context.perform(Effect<any Action>.send(Loaded(name: "sent")))
                return .handled
            })
        let task = gated.store.dispatch(Fetch())
        #expect(!task.isFinished, "the task covers the middleware's effect")
        #expect(gated.store.state.value.log == ["loaded sent"])
        gates.open("fetch")
        guard await finishes(task) else { return gated.fail("the task did not finish") }
        #expect(gated.store.state.value.log == ["loaded sent", "loaded fetched"])
        middleware.disconnect()
        gated.stop()
    }

    @Test("releasing the store ends its actions' tasks: a finish() under way returns")
    func releasedStoreEndsTasks() async {
        var store: Store<Tasks>? = Store(initialState: Tasks(), scheduler: TestScheduler())
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let registration = store?.register(
            Reducer<Tasks, Load> { _, _ in
                .run { _ in
                    for await _ in gate {}
                }
            })
        guard let task = store?.dispatch(Load(name: "x")) else { return }
        #expect(!task.isFinished)
        let waiter = Task { @MainActor in
            await task.finish()
            return true
        }
        await yieldTimes()
        registration?.disconnect()
        store = nil
        // Bounded: a task the release did not end fails the test instead of hanging it.
        #expect(await finishes(task))
        if task.isFinished { #expect(await waiter.value) }
        open.finish()
    }

    @Test("cancel() stops what the action started, and the parts it has not started; others run on")
    func cancelStopsOnlyItsEffects() async {
        let gated = GatedStore()
        let both = gated.store.dispatch(Both())
        let other = gated.store.dispatch(Load(name: "other"))
        #expect(gated.store.runningEffectCount == 2)
        both.cancel()
        #expect(both.isFinished && gated.store.runningEffectCount == 1)
        guard await finishes(both) else { return gated.fail("both did not finish") }
        await both.finish()
        gated.gates.open("first")
        gated.gates.open("second")
        gated.gates.open("other")
        guard await finishes(other) else { return gated.fail("other did not finish") }
        await other.finish()
        #expect(!gated.store.state.value.log.contains("loaded first"))
        #expect(gated.store.state.value.log.last == "loaded other")
        gated.stop()
    }

    @Test("a task cancelled before its action was processed starts none of its effects")
    func cancelBeforeProcessing() async {
        let gated = GatedStore()
        var queued: StoreTask?
        let observer = gated.store.state.map(\.log.count).observe { count in
            // While the first action propagates, dispatch another and cancel it at once: it
            // waits in the queue, so its effects must not start when it is processed.
            guard count == 1, queued == nil else { return }
            queued = gated.store.dispatch(Load(name: "queued"))
            queued?.cancel()
        }
        let first = gated.store.dispatch(Load(name: "first"))
        #expect(queued?.isFinished == true && gated.store.state.value.log == ["load first", "load queued"])
        #expect(gated.store.runningEffectCount == 1)
        first.cancel()
        guard await finishes(first) else { return gated.fail("first did not finish") }
        await first.finish()
        _ = observer
        gated.stop()
    }

    @Test("an action that starts no effect is finished once processed; awaiting it returns at once")
    func noEffects() async {
        let gated = GatedStore()
        let task = gated.store.dispatch(Loaded(name: "direct"))
        #expect(task.isFinished)
        guard await finishes(task) else { return gated.fail("task did not finish") }
        await task.finish()
        gated.stop()
    }

    @Test("dispatch(from:) dispatches each action of a sequence in order, until it ends or is disconnected")
    func dispatchFromSequence() async {
        let gated = GatedStore()
        let (actions, continuation) = AsyncStream.makeStream(of: Loaded.self)
        var ended = false
        let feed = gated.store.dispatch(from: actions) { _ in ended = true }
        continuation.yield(Loaded(name: "1"))
        continuation.yield(Loaded(name: "2"))
        continuation.finish()
        while !ended { await Task.yield() }
        #expect(gated.store.state.value.log == ["loaded 1", "loaded 2"])

        let (more, moreContinuation) = AsyncStream.makeStream(of: Loaded.self)
        let second = gated.store.dispatch(from: more)
        moreContinuation.yield(Loaded(name: "3"))
        while gated.store.state.value.log.count < 3 { await Task.yield() }
        second.disconnect()
        moreContinuation.yield(Loaded(name: "4"))
        for _ in 0..<10 { await Task.yield() }
        #expect(gated.store.state.value.log == ["loaded 1", "loaded 2", "loaded 3"])
        moreContinuation.finish()
        feed.disconnect()
        gated.stop()
    }
}
