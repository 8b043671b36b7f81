import Cycle
import TestSupport
import Testing

@Suite("Cycle: flatMapLatest, async work per event")
@MainActor
struct LatestStreamTests {
    @Test("a later event cancels the earlier task; only the latest result passes, on the stream's actor")
    func latestWins() async {
        let answers = ControlledAnswers()
        let queries = EventSubject<String>()
        var results: [String] = []
        let connection = queries.stream.flatMapLatest { await answers.work($0) }.subscribe { result in
            MainActor.assertIsolated()
            results.append(result)
        }
        queries.send("a")
        #expect(await eventually { answers.started == ["a"] })
        queries.send("ab")
        #expect(await eventually { answers.cancelled == ["a"] })
        answers.answer("ab")
        #expect(await eventually { results == ["AB"] })
        answers.answer("a")
        await yieldTimes(1_000)
        #expect(results == ["AB"])
        connection.disconnect()
        #expect(queries.subscriberCount == 0)
    }

    @Test("disconnecting cancels the work under way and drops its result")
    func disconnect() async {
        let answers = ControlledAnswers()
        let queries = EventSubject<String>()
        var results: [String] = []
        let connection = queries.stream.flatMapLatest { await answers.work($0) }.subscribe { results.append($0) }
        queries.send("q")
        #expect(await eventually { answers.started == ["q"] })
        connection.disconnect()
        #expect(await eventually { answers.cancelled == ["q"] })
        answers.answer("q")
        await yieldTimes(1_000)
        #expect(results.isEmpty)
    }

    @Test("a subscriber that sends while it receives starts new work, which then wins")
    func reentrant() async {
        let queries = EventSubject<String>()
        var results: [String] = []
        let connection = queries.stream.flatMapLatest { $0 + "!" }.subscribe { result in
            results.append(result)
            if result == "a!" { queries.send("b") }
        }
        queries.send("a")
        #expect(await eventually { results == ["a!", "b!"] })
        connection.disconnect()
    }
}
