import Dispatch
import Signals
import Synchronization
import TestSupport
import Testing

@Suite("Signals: flatMapLatest, async work per message")
struct LatestTests {
    @Test("a later message cancels the earlier task, and the earlier result never passes, even when it comes last")
    func latestWins() async {
        let answers = ControlledAnswers()
        let query = Signal<String>()
        let results = Log<String>()
        let observables = ObservableCollection()
        let latest = query.fired.noDispatch().flatMapLatest { await answers.work($0) }
        latest.then { results.append($0) }.append(to: observables)
        query.fire(with: "a")
        #expect(await eventually { answers.started == ["a"] })
        query.fire(with: "ab")
        #expect(await eventually { answers.cancelled == ["a"] && answers.started == ["a", "ab"] })
        answers.answer("ab")
        #expect(await eventually { results.all == ["AB"] })
        answers.answer("a")  // the superseded task ignores its cancellation and finishes
        #expect(await eventually { !latest.isWorking })
        #expect(results.all == ["AB"])
        observables.removeAll()
    }

    @Test("results pass on the chain's queue")
    func onQueue() async {
        let answers = ControlledAnswers()
        let queue = DispatchQueue(label: "LatestTests.results")
        let query = Signal<String>()
        let onQueue = Log<Bool>()
        let observables = ObservableCollection()
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        query.fired.dispatch(to: queue).flatMapLatest { await answers.work($0) }
            .then { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == true) }
            .append(to: observables)
        query.fire(with: "x")
        #expect(await eventually { answers.started == ["x"] })
        answers.answer("x")
        #expect(await eventually { onQueue.all == [true] })
        observables.removeAll()
    }

    @Test("removing the chain cancels the task under way and drops its result; the chain is freed")
    func removal() async {
        let answers = ControlledAnswers()
        let query = Signal<String>()
        let results = Log<String>()
        let observables = ObservableCollection()
        weak var weakLatest: LatestModifier<String, String>?
        do {
            let latest = query.fired.noDispatch().flatMapLatest { await answers.work($0) }
            weakLatest = latest
            latest.then { results.append($0) }.append(to: observables)
        }
        query.fire(with: "q")
        #expect(await eventually { answers.started == ["q"] })
        observables.removeAll()
        #expect(await eventually { answers.cancelled == ["q"] })
        answers.answer("q")
        #expect(await eventually { weakLatest == nil })
        #expect(results.all.isEmpty)
        #expect(query.fired.connectedCount == 0)
    }

    @Test("a handler that fires the source from inside its delivery starts new work, which then wins")
    func reentrant() async {
        let query = Signal<String>()
        let results = Log<String>()
        let observables = ObservableCollection()
        query.fired.noDispatch().flatMapLatest { $0 + "!" }
            .then { result in
                results.append(result)
                if result == "a!" { query.fire(with: "b") }
            }
            .append(to: observables)
        query.fire(with: "a")
        #expect(await eventually { results.all == ["a!", "b!"] })
        observables.removeAll()
    }

    @Test("the replayed last message starts work too; a message equal to the last one still starts new work")
    func replayAndRepeats() async {
        let query = Signal<Int>(value: 1)
        let results = Log<Int>()
        let observables = ObservableCollection()
        query.fired.noDispatch().flatMapLatest { $0 * 10 }.then { results.append($0) }.append(to: observables)
        #expect(await eventually { results.all == [10] })
        query.fire(with: 1)
        #expect(await eventually { results.all == [10, 10] })
        observables.removeAll()
    }

    @Test(
        "many threads firing at once: the last result to pass is the work of the message that began last, and no result passes twice"
    )
    func concurrentSenders() async {
        let query = Signal<Int>()
        let results = Log<Int>()
        let observables = ObservableCollection()
        let latest = query.fired.noDispatch().flatMapLatest { value -> Int in
            await Task.yield()
            return value
        }
        latest.then { results.append($0) }.append(to: observables)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<200 { query.fire(with: thread * 1_000 + index) }
        }
        // The last `begin` of all is some thread's last message, whose work nothing supersedes.
        #expect(await eventually { results.all.last.map { $0 % 1_000 } == 199 })
        #expect(await eventually { !latest.isWorking })
        let passed = results.all
        #expect(Set(passed).count == passed.count, "no result passes twice")
        observables.removeAll()
    }
}
