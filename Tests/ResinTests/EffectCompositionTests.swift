import ReactiveCore
import Resin
import ResinTesting
import TestSupport
import Testing

private struct Chain: Equatable {
    var log: [String] = []
    var language = "en"
    var loaded = true
    var rows: [Int: String] = [:]
}

private struct Go: Action, Equatable {}
private struct Step: Action, Equatable { var name: String }
private struct Halt: Action, Equatable { var id: String }
private struct SetLanguage: Action, Equatable { var language: String }
private struct DropRow: Action, Equatable { var row: Int }
private struct StartRow: Action, Equatable { var row: Int }

/// What the effects did, in order, from any thread.
private final class EffectLog: Sendable {
    private let entries = LockedState<[String]>([])
    var value: [String] { entries.withLock { $0 } }
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
}

/// An effect that logs its start and end, and sends `Step(name)` in between.
private func logged(_ name: String, _ log: EffectLog) -> Effect<Step> {
    .run { send in
        log.append("\(name) starts")
        send(Step(name: name))
        log.append("\(name) ends")
    }
}

/// An effect that waits at `gate` (until it opens, or the effect is cancelled), then sends
/// `Step(name)`.
private func waiting(_ name: String, on gate: Gate) -> Effect<Step> {
    .run { send in
        await gate.wait()
        send(Step(name: name))
    }
}

@Suite("Resin: composing effects")
struct EffectCompositionTests {
    @Test("concatenate starts each effect when the one before it has ended, sends and all")
    func concatenation() async {
        let log = EffectLog()
        let store = TestStore(initialState: Chain()) { store in
            [
                store.register(
                    Reducer<Chain, Go> { _, _ in
                        Effect(
                            .concatenate(
                                logged("a", log), .send(Step(name: "sent")), .none, logged("b", log), logged("c", log)))
                    }),
                store.register(Reducer<Chain, Step> { state, step in state.log.append(step.name) }),
            ]
        }
        store.send(Go())
        await store.receive(Step(name: "a")) { $0.log = ["a"] }
        await store.receive(Step(name: "sent")) { $0.log.append("sent") }
        await store.receive(Step(name: "b")) { $0.log.append("b") }
        await store.receive(Step(name: "c")) { $0.log.append("c") }
        await store.finish()
        #expect(log.value == ["a starts", "a ends", "b starts", "b ends", "c starts", "c ends"])
    }

    @Test("a concatenation made cancellable is cancelled whole: what runs stops, what waits never starts")
    func cancelWholeConcatenation() async {
        let gate = Gate()
        let log = EffectLog()
        let store = TestStore(initialState: Chain()) { store in
            [
                store.register(
                    Reducer<Chain, Go> { _, _ in
                        Effect(.concatenate(waiting("a", on: gate), logged("b", log))).cancellable(id: "chain")
                    }),
                store.register(Reducer<Chain, Halt> { _, halt in .cancel(id: halt.id) }),
            ]
        }
        store.send(Go())
        #expect(store.store.runningEffectCount == 1)
        store.send(Halt(id: "chain"))
        #expect(store.store.runningEffectCount == 0)
        gate.open()
        await store.finish()
        #expect(log.value.isEmpty)
    }

    @Test("cancelling one part of a concatenation under its own id ends that part; the next one starts")
    func cancelOnePart() async {
        let gate = Gate()
        let log = EffectLog()
        let store = TestStore(initialState: Chain()) { store in
            [
                store.register(
                    Reducer<Chain, Go> { _, _ in
                        Effect(.concatenate(waiting("a", on: gate).cancellable(id: "a"), logged("b", log)))
                    }),
                store.register(Reducer<Chain, Halt> { _, halt in .cancel(id: halt.id) }),
                store.register(Reducer<Chain, Step> { state, step in state.log.append(step.name) }),
            ]
        }
        store.send(Go())
        store.send(Halt(id: "a"))
        await store.receive(Step(name: "b")) { $0.log = ["b"] }
        await store.finish()
        gate.open()
        #expect(log.value == ["b starts", "b ends"])
    }

    @Test("a reducer of what a concatenation sends may cancel the rest of it")
    func reentrantCancel() async {
        let log = EffectLog()
        let gate = Gate()
        // The first part is still running when its Step is received (it waits at a gate no
        // one opens), so the cancellation comes before the second part could start: had the
        // first part ended, the second would have started as soon as the test store noticed.
        let first = Effect<Step>.run { send in
            log.append("a starts")
            send(Step(name: "a"))
            await gate.wait()
            log.append("a ends")
        }
        let store = TestStore(initialState: Chain()) { store in
            [
                store.register(
                    Reducer<Chain, Go> { _, _ in
                        Effect(.concatenate(first, logged("b", log))).cancellable(id: "chain")
                    }),
                store.register(
                    Reducer<Chain, Step> { state, step in
                        state.log.append(step.name)
                        return .cancel(id: "chain")
                    }),
            ]
        }
        store.send(Go())
        await store.receive(Step(name: "a")) { $0.log = ["a"] }
        await store.finish()
        // finish waited for the cancelled first part to end.
        #expect(log.value == ["a starts", "a ends"])
    }

    @Test("several effects run under one id unless cancelInFlight; cancel(id:) and cancel(ids:) stop them all")
    func sharedIDs() async {
        let gate = Gate()
        let store = TestStore(initialState: Chain()) { store in
            [
                store.register(
                    Reducer<Chain, Step> { _, step -> Effect<Step> in
                        switch step.name {
                        case "alongside": return waiting("x", on: gate).cancellable(id: "load")
                        case "instead": return waiting("y", on: gate).cancellable(id: "load", cancelInFlight: true)
                        default: return waiting("z", on: gate).cancellable(id: step.name)
                        }
                    }),
                store.register(Reducer<Chain, Halt> { _, halt in .cancel(id: halt.id) }),
                store.register(Reducer<Chain, Go> { _, _ in .cancel(ids: ["load", "other"]) }),
            ]
        }
        store.send(Step(name: "alongside"))
        store.send(Step(name: "alongside"))
        #expect(store.store.runningEffectCount == 2)
        store.send(Step(name: "instead"))
        #expect(store.store.runningEffectCount == 1)
        store.send(Step(name: "alongside"))
        store.send(Step(name: "other"))
        #expect(store.store.runningEffectCount == 3)
        store.send(Halt(id: "load"))
        #expect(store.store.runningEffectCount == 1)
        store.send(Step(name: "alongside"))
        store.send(Go())
        #expect(store.store.runningEffectCount == 0)
        gate.open()
        await store.finish()
    }

    @Test("an element removed while its concatenation waits between parts: nothing more starts")
    func concatenationEndsWithItsFocus() async {
        let gate = Gate()
        let log = EffectLog()
        let scheduler = TestScheduler()
        let store = Store(initialState: Chain(rows: [1: "a", 2: "b"]), scheduler: scheduler)
        let remove = store.register(Reducer<Chain, DropRow> { state, action in state.rows[action.row] = nil })
        var rows: [Int: Connection] = [:]
        for row in [1, 2] {
            rows[row] = store.focus(\.rows, key: row).register(
                Reducer<String?, StartRow> { _, start in
                    guard start.row == row else { return .none }
                    return Effect(.concatenate(waiting("wait \(row)", on: gate), logged("after \(row)", log)))
                })
        }
        store.dispatch(StartRow(row: 1))
        store.dispatch(StartRow(row: 2))
        #expect(store.runningEffectCount == 2)
        store.dispatch(DropRow(row: 1))
        #expect(store.runningEffectCount == 1)
        rows[2] = nil
        #expect(store.runningEffectCount == 0)
        gate.open()
        for _ in 0..<20 { await Task.yield() }
        scheduler.advance()
        #expect(log.value.isEmpty && store.runningEffectCount == 0)
        _ = remove
    }

    @Test("onChange runs when the reducer changed the value, with the old and new values; not for a change undone")
    func onChange() async {
        let store = TestStore(initialState: Chain()) { store in
            [
                store.register(
                    Reducer<Chain, SetLanguage> { state, action in
                        if action.language == "flicker" {
                            // Changed and put back within the action: no change.
                            let current = state.language
                            state.language = "xx"
                            state.language = current
                        } else {
                            state.language = action.language
                        }
                    }
                    .onChange(of: \.language) { old, new, state in
                        state.loaded = false
                        state.log.append("\(old) → \(new)")
                        return .send(Step(name: "load \(new)"))
                    }),
                store.register(Reducer<Chain, Step> { state, _ in state.loaded = true }),
            ]
        }
        store.send(SetLanguage(language: "fr")) {
            $0.language = "fr"
            $0.loaded = false
            $0.log = ["en → fr"]
        }
        await store.receive(Step(name: "load fr")) { $0.loaded = true }
        store.send(SetLanguage(language: "fr"))  // the same value: no change
        store.send(SetLanguage(language: "flicker"))
        await store.finish()
    }
}
