import Dispatch
import Signals
import TestSupport
import Testing

/// A view-like class isolated to the main actor, as in the seed's
/// `then(call: ViewController.update, on: self)`.
@MainActor
final class Screen {
    private(set) var shown: [Int] = []
    /// Whether every call ran on the main thread.
    private(set) var alwaysOnMain = true

    func show(_ value: Int) {
        alwaysOnMain = alwaysOnMain && isOnMainQueue()
        shown.append(value)
    }
}

/// A nonisolated, thread-safe target: its method runs wherever the chain runs.
final class ThreadRecorder: Sendable {
    let values = Log<Int>()
    let threads = Log<Bool>()

    func record(_ value: Int) {
        threads.append(isOnMainQueue())
        values.append(value)
    }
}

/// Marks the main queue, so that a test can ask whether code runs on it without crashing
/// (under `swift test` on Linux the main queue, and so the main actor, is served by a thread
/// other than the process's first, so `Thread.isMainThread` cannot tell).
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main queue, which the main actor runs on.
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

@Suite("Isolation: then(call:on:) runs a main-actor method on the main actor")
struct IsolationTests {
    @Test("a main-actor method on an inline chain fired from another thread runs on the main actor")
    @MainActor
    func mainActorMethodFromInlineChain() async {
        let screen = Screen()
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().then(call: Screen.show, on: screen).append(to: observables)
        await Task.detached {
            for value in 1...50 { signal.fire(with: value) }
        }.value
        await drainMain()
        #expect(screen.shown == Array(1...50))
        #expect(screen.alwaysOnMain)
    }

    @Test("a main-actor method after dispatch(to:) runs on the main actor, in order, and so does the rest of the chain")
    @MainActor
    func mainActorMethodAfterDispatch() async {
        let screen = Screen()
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let after = Log<Bool>()
        let arrival = Gate()
        signal.fired
            .dispatch(to: DispatchQueue(label: "IsolationTests.worker"))
            .map { $0 * 2 }
            .then(call: Screen.show, on: screen)
            .then { value in
                after.append(isOnMainQueue())
                if value == 200 { arrival.open() }
            }
            .append(to: observables)
        await Task.detached {
            for value in 1...100 { signal.fire(with: value) }
        }.value
        await arrival.wait()
        #expect(screen.shown == (1...100).map { $0 * 2 })
        #expect(screen.alwaysOnMain)
        #expect(after.all == Array(repeating: true, count: 100))
    }

    @Test("a main-actor method is replayed the last message on the main actor")
    @MainActor
    func mainActorMethodReplay() async {
        let screen = Screen()
        let property = Property(value: 7)
        let observables = ObservableCollection()
        // Connected from another thread: the replay is the modifier's first message, and
        // runs on the main actor too.
        await Task.detached {
            property.didSet.noDispatch().then(call: Screen.show, on: screen).append(to: observables)
        }.value
        await drainMain()
        #expect(screen.shown == [7])
        property.value = 8
        await drainMain()
        #expect(screen.shown == [7, 8])
        #expect(screen.alwaysOnMain)
    }

    @Test("main-actor calls fired from many threads all run on the main actor, each thread's in order")
    @MainActor
    func mainActorMethodFromManyThreads() async {
        let screen = Screen()
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().then(call: Screen.show, on: screen).append(to: observables)
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    for index in 0..<250 { signal.fire(with: lane * 1_000 + index) }
                }
            }
        }
        await drainMain()
        #expect(screen.shown.count == 1_000)
        #expect(screen.alwaysOnMain)
        for lane in 0..<4 {
            let mine = screen.shown.filter { $0 / 1_000 == lane }
            #expect(mine == (0..<250).map { lane * 1_000 + $0 })
        }
    }

    @Test("a main-actor method that fires its own signal gets that message after the current one")
    @MainActor
    func mainActorMethodFiresItsSignal() async {
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let echo = Echo(signal: signal)
        signal.fired.then(call: Echo.hear, on: echo).append(to: observables)
        let after = Log<Int>()
        signal.fired.then { after.append($0) }.append(to: observables)
        signal.fire(with: 1)
        await drainMain()
        await drainMain()
        #expect(echo.heard == [1, 2])
        #expect(after.all == [1, 2])
        #expect(echo.alwaysOnMain)
    }

    @Test("a nonisolated method still runs inline on an inline chain")
    func nonisolatedMethodRunsInline() async {
        let recorder = ThreadRecorder()
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().then(call: ThreadRecorder.record, on: recorder).append(to: observables)
        await Task.detached {
            signal.fire(with: 1)
            // Inline: the call has run before `fire` returns, on this (non-main) thread.
            #expect(recorder.values.all == [1])
        }.value
        #expect(recorder.threads.all == [false])
    }

    @Test("once a main-actor target is gone, the call is skipped and messages still pass")
    @MainActor
    func mainActorTargetGone() async {
        var screen: Screen? = Screen()
        weak let watched = screen
        let signal = Signal<Int>()
        let observables = ObservableCollection()
        let passed = Log<Int>()
        signal.fired.then(call: Screen.show, on: screen!).then { passed.append($0) }.append(to: observables)
        signal.fire(with: 1)
        await drainMain()
        #expect(screen?.shown == [1])
        screen = nil
        #expect(watched == nil)
        signal.fire(with: 2)
        await drainMain()
        #expect(passed.all == [1, 2])
    }
}

/// A main-actor target that fires its own signal once, from inside the call.
@MainActor
final class Echo {
    let signal: Signal<Int>
    private(set) var heard: [Int] = []
    private(set) var alwaysOnMain = true

    nonisolated init(signal: Signal<Int>) {
        self.signal = signal
    }

    func hear(_ value: Int) {
        alwaysOnMain = alwaysOnMain && isOnMainQueue()
        heard.append(value)
        if value == 1 { signal.fire(with: 2) }
    }
}
