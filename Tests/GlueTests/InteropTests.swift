import Glue
import Observation
import TestSupport
import Testing

struct Person: Equatable {
    var name: String
    var age: Int
}

@Suite("Glue and the Swift ecosystem")
struct GlueInteropTests {
    @Test("a variable's observed value re-evaluates a view once per change of what it read, and is freed")
    func observedVariable() {
        let person = Variable(Person(name: "Ann", age: 30))
        weak var weakObserved: ObservedValue<Person>?
        do {
            let observed = person.observed()
            weakObserved = observed
            var names: [String] = []
            let view = ViewEvaluation { names.append(observed.name) }
            person.value.age = 31
            #expect(!view.renderIfNeeded())
            person.value.name = "Bea"
            #expect(view.renderIfNeeded())
            person.value = Person(name: "Bea", age: 31)
            #expect(!view.renderIfNeeded())
            #expect(names == ["Ann", "Bea"])
            #expect(view.count == 2)
            #expect(observed.isConnected)
        }
        #expect(weakObserved == nil)
        person.value.name = "Cy"  // reaches no released observer
    }

    @Test("a change inside a transaction reaches the observed value once, at its end")
    func transactionIsOneChange() {
        let count = Variable(0)
        let observed = count.observed()
        let view = ViewEvaluation { _ = observed.value }
        count.apply(.beginTransaction)
        count.value = 1
        count.value = 2
        #expect(!view.renderIfNeeded())
        count.apply(.endTransaction)
        #expect(view.renderIfNeeded())
        #expect(observed.value == 2)
        #expect(observed.changeCount == 1)
    }

    @MainActor
    @Test("feed(from:) sends a sequence's elements in order; after a disconnect nothing more")
    func feedSignal() async {
        let signal = Signal<Int>()
        var received: [Int] = []
        let connection = signal.subscribe { received.append($0) }
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        var ended = false
        let feeding = signal.feed(from: stream, finished: { _ in ended = true })
        continuation.yield(1)
        continuation.yield(2)
        #expect(await eventually { received == [1, 2] })
        feeding.disconnect()
        continuation.yield(3)
        continuation.finish()
        await yieldTimes()
        #expect(received == [1, 2])
        #expect(!ended)
        connection.disconnect()
    }

    @MainActor
    @Test("feed(from:) reports the end of a sequence, and the error a throwing one ends with")
    func feedEnds() async {
        struct Broken: Error, Equatable {}
        let signal = Signal<Int>()
        let recorder = Recorder(signal)
        var ends: [String] = []
        let finite = signal.feed(from: [1, 2, 3].async, finished: { ends.append($0 == nil ? "end" : "error") })
        #expect(await eventually { ends == ["end"] })
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        let failing = signal.feed(from: stream, finished: { ends.append($0 is Broken ? "broken" : "other") })
        continuation.yield(4)
        continuation.finish(throwing: Broken())
        #expect(await eventually { ends == ["end", "broken"] })
        #expect(recorder.values == [1, 2, 3, 4])
        #expect([finite, failing].count == 2)
    }

    @MainActor
    @Test("a subscriber that feeds the signal from its delivery gets the element after, in order")
    func feedReentrant() async {
        let signal = Signal<Int>()
        var received: [Int] = []
        let connection = signal.subscribe { value in
            received.append(value)
            if value == 1 { signal.send(10) }
        }
        let feeding = signal.feed(from: [1, 2].async)
        #expect(await eventually { received == [1, 10, 2] })
        #expect([connection, feeding].count == 2)
    }

    @Test("debug logs a variable's subscription, values and disconnection; descriptions say what it is")
    func debugAndDescriptions() {
        let count = Variable(1)
        let lines = LinesLog()
        let connection = count.debug("count", log: { lines.append($0) }).subscribe(isolated: { _ in })
        count.value = 2
        connection.disconnect()
        #expect(lines.lines == ["count: subscribed", "count: value 1", "count: value 2", "count: disconnected"])
        #expect(count.debugDescription == "Variable<Int>(2)")
        let signal = Signal<Int>()
        let subscription = signal.subscribe { _ in }
        #expect(signal.debugDescription == "Signal<Int>(1 subscriber)")
        subscription.disconnect()
    }
}

/// Lines a `debug` operator logs.
final class LinesLog: @unchecked Sendable {
    // Used from one thread in these tests; `debug`'s log closure must be `Sendable`.
    private(set) var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}

extension Array where Element: Sendable {
    /// The elements as an `AsyncSequence`.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
