import Glue
import TestSupport
import Testing

@Suite("Glue: flatMapLatest, async work per value")
@MainActor
struct LatestSourceTests {
    @Test("a later value cancels the earlier task; the earlier result never arrives, even when it comes last")
    func latestWins() async {
        let answers = ControlledAnswers()
        let query = Signal<String>()
        var results: [String] = []
        let connection = query.flatMapLatest { await answers.work($0) }.subscribe { results.append($0) }
        query.send("a")
        #expect(await eventually { answers.started == ["a"] })
        query.send("ab")
        #expect(await eventually { answers.cancelled == ["a"] && answers.started == ["a", "ab"] })
        answers.answer("ab")
        #expect(await eventually { results == ["AB"] })
        answers.answer("a")
        await yieldTimes(1_000)
        #expect(results == ["AB"])
        connection.disconnect()
    }

    @Test("results arrive on the actor that made the source, one at a time, in the order they come")
    func onTheActor() async {
        let answers = ControlledAnswers()
        let query = Signal<String>()
        var results: [String] = []
        let connection = query.flatMapLatest { await answers.work($0) }.subscribe { value in
            MainActor.assertIsolated()
            results.append(value)
        }
        for text in ["x", "y"] {
            query.send(text)
            #expect(await eventually { answers.started.last == text })
            answers.answer(text)
            #expect(await eventually { results.last == text.uppercased() })
        }
        #expect(results == ["X", "Y"])
        connection.disconnect()
    }

    @Test("disconnecting cancels the task under way and drops its result; the source is let go")
    func disconnect() async {
        let answers = ControlledAnswers()
        var results: [String] = []
        weak var weakSignal: Signal<String>?
        var connection: Connection?
        do {
            let query = Signal<String>()
            weakSignal = query
            connection = query.flatMapLatest { await answers.work($0) }.subscribe { results.append($0) }
            query.send("q")
        }
        #expect(await eventually { answers.started == ["q"] })
        connection?.disconnect()
        connection = nil
        #expect(await eventually { answers.cancelled == ["q"] })
        answers.answer("q")
        await yieldTimes(1_000)
        #expect(results.isEmpty)
        #expect(weakSignal == nil)
    }

    @Test("a sink that sends to the source while it receives starts new work, which then wins")
    func reentrant() async {
        let query = Signal<String>()
        var results: [String] = []
        let connection = query.flatMapLatest { $0 + "!" }.subscribe { result in
            results.append(result)
            if result == "a!" { query.send("b") }
        }
        query.send("a")
        #expect(await eventually { results == ["a!", "b!"] })
        connection.disconnect()
    }

    @Test("each subscription runs its own work")
    func perSubscription() async {
        let query = Signal<Int>()
        let latest = query.flatMapLatest { $0 * 10 }
        var first: [Int] = []
        var second: [Int] = []
        let a = latest.subscribe { first.append($0) }
        query.send(1)
        let b = latest.subscribe { second.append($0) }
        query.send(2)
        #expect(await eventually { first.last == 20 && second.last == 20 })
        #expect(second.allSatisfy { $0 == 20 })
        a.disconnect()
        b.disconnect()
    }
}
