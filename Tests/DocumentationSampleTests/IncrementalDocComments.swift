// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Incremental's doc comments, verbatim, with what they need around them.

import Incremental
import Observation
import ReactiveCore
import Testing

@Test func observedElementsSample() {
    struct Todo { var title: String; var done: Bool }
    let graph = Graph()
    let todos = graph.arrayInput([Todo(title: "milk", done: false)])
    let visible = todos.filterElements { !$0.done }.observedElements()
    // In a SwiftUI view:
    //   List(visible) { todo in Text(todo.title) }
    withObservationTracking { print(visible.count) } onChange: { print("the list changes") }
    todos.append(Todo(title: "bread", done: false))
    #expect(visible.map(\.title) == ["milk", "bread"])
}

#if canImport(SwiftUI)
    import SwiftUI

    @MainActor @ViewBuilder private func inputBindingSample(graph: Graph) -> some View {
        let name = graph.input("Ada")
        let observedName = name.observed()
        TextField("Name", text: observedName.binding(to: name))
    }
#endif

// MARK: Coming from Observation and SwiftUI

@Test func filteredListThroughObservation() {
    struct Todo: Identifiable, Equatable {
        let id: Int
        var title: String
        var done = false
    }

    let graph = Graph()
    let todos = graph.arrayInput([Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Bread")])
    let showDone = graph.input(false)
    let visible = showDone.flatMap { showDone in
        todos.filterElements { showDone || !$0.done }
    }
    let rows = visible.observedElements()   // hand this to the view

    // What a SwiftUI view does: read under tracking, and re-read when told.
    nonisolated(unsafe) var changed = false
    func render() -> [String] {
        withObservationTracking { rows.map(\.title) } onChange: { changed = true }
    }
    #expect(render() == ["Milk", "Bread"])
    todos[0].done = true
    #expect(changed)
    changed = false
    #expect(render() == ["Bread"])
    showDone.write(true)
    #expect(changed)
    #expect(render() == ["Milk", "Bread"])
}

#if canImport(SwiftUI)
    @MainActor @ViewBuilder private func toggleSample(showDone: Input<Bool>) -> some View {
        let observedShowDone = showDone.observed()
        Toggle("Show done", isOn: observedShowDone.binding(to: showDone))
    }
#endif

// MARK: Doc comments and articles

@Test func foldAndSumSamples() {
    let graph = Graph()
    let prices = graph.arrayInput([3, 4])
    let total = prices.sum()
    prices.append(5)            // total recomputes by adding 5, not by summing again
    #expect(total.value == 12)
    do {
        let total = prices.fold(0, add: +, remove: -)
        #expect(total.value == 12)
    }
}

@Test func dictionarySample() {
    struct Row { var score: Int; var done: Bool }
    let graph = Graph()
    let rows = graph.dictionaryInput([Int: Row]())
    let visible = rows.filterEntries { !$1.done }.sortedEntries { $0.value.score < $1.value.score }
    rows[42] = Row(score: 7, done: false)   // one insertion, found by binary search
    #expect(visible.value.count == 1)
}

@Test func dotSample() {
    let graph = Graph()
    let total = graph.input(1).map { $0 + 1 }
    print(graph.dot([total]))   // paste into `dot -Tsvg`
}

@Test func graphSample() {
    let graph = Graph()
    let width = graph.input(3)
    let height = graph.input(4)
    let area = map2(width, height) { $0 * $1 }
    let connection = area.observe { print("area", $0) }   // prints "area 12"
    graph.batch {
        width.write(5)
        height.write(6)
    }                                                      // prints "area 30", once
    #expect(area.value == 30)
    connection.disconnect()
}

private final class Request { func cancel() {} }
private func search(_ text: String) -> Request { Request() }

@Test func onCleanupSample() {
    let graph = Graph()
    let query = graph.input("")
    let connection = query.observe { text in
        let request = search(text)
        graph.onCleanup { request.cancel() }
    }
    connection.disconnect()
}

@Test func dynamicGraphSamples() {
    let graph = Graph()
    let reading = graph.input(20)
    let useMetric = graph.input(true)
    let celsius = reading.map { $0 }
    let fahrenheit = reading.map { $0 * 9 / 5 + 32 }
    let shown = useMetric.flatMap { $0 ? celsius : fahrenheit }
    #expect(shown.value == 20)
    let prices = [1: graph.input(3), 2: graph.input(4)]
    let selection = graph.input([1, 2])
    let total = selection.flatMap { ids in mapN(ids.map { prices[$0]! }) { $0.reduce(0, +) } }
    #expect(total.value == 7)
    do {
        let prices = Array(prices.values)
        let total = mapN(prices) { $0.reduce(0, +) }
        #expect(total.value == 7)
    }
}

@Test func overviewSample() {
    let graph = Graph()
    let price = graph.input(10)
    let quantity = graph.input(3)
    let total = map2(price, quantity) { $0 * $1 }
    let label = total.map { "Total: \($0)" }

    let connection = label.observe { print($0) }   // "Total: 30"
    graph.batch {
        price.write(12)
        quantity.write(4)
    }                                               // "Total: 48", once
    #expect(label.value == "Total: 48")
    connection.disconnect()
}

@Test func collectionsArticleSample() {
    let graph = Graph()
    struct Row { var name: String; var score: Int; var done: Bool }

    let rows = graph.dictionaryInput([Int: Row]())
    let view = rows
        .filterEntries { _, row in !row.done }
        .sortedEntries { ($0.value.score, $0.key) < ($1.value.score, $1.key) }
        .mapElements { "\($0.value.name): \($0.value.score)" }
    let connection = view.observe { print($0.elements) }
    rows[1] = Row(name: "Ada", score: 3, done: false)   // one insertion at its sorted place
    #expect(view.value.elements == ["Ada: 3"])
    connection.disconnect()
}

@Test func interopSamples() {
    let graph = Graph()
    let cart = graph.input([1, 2])
    let total = cart.map { $0.reduce(0, +) }.observed()
    withObservationTracking { print(total.value) } onChange: { print("total changes") }
    #expect(total.value == 3)
}

@Test @MainActor func feedSampleIncremental() {
    struct Sensor { let readings = AsyncStream<Double> { $0.finish() } }
    let sensor = Sensor()
    let graph = Graph()
    let temperature = graph.input(0.0)
    let feeding = temperature.feed(from: sensor.readings)
    feeding.disconnect()
}

@Test func nodeSamples() {
    let graph = Graph()
    let name = graph.input("Ada")
    let greeting: I<String> = name.map { "Hello, \($0)!" }
    let connection = greeting.observe { print($0) }   // prints "Hello, Ada!"
    name.write("Grace")                               // prints "Hello, Grace!"
    connection.disconnect()

    let reading = graph.input(20.0)
    let rounded = reading.map { ($0 * 10).rounded() / 10 }
    rounded.setCutoff(.custom { abs($0 - $1) < 0.05 })
}

private struct ParseError: Error {}
private func parse(_ text: String) throws -> Int {
    guard let number = Int(text) else { throw ParseError() }
    return number
}
private func show(_ value: Any) { print(value) }

@Test func observeResultSample() {
    let graph = Graph()
    let text = graph.input("12")
    let parsed = text.map { try parse($0) }
    let connection = parsed.observeResult { result in
        switch result {
        case .success(let number): show(number)
        case .failure(let error): show(error)
        }
    }
    connection.disconnect()
}

@Test func inputSample() {
    let graph = Graph()
    let count = graph.input(0)
    count.write(1)                 // propagates at once, unless inside graph.batch { }
    count.value += 1               // the same, through the property
    #expect(count.value == 2)
}

@Test func graphClockSample() {
    let graph = Graph()
    let scheduler = TestScheduler()
    let start = scheduler.now
    let clock = GraphClock(graph: graph, scheduler: scheduler)
    let isLate = clock.after(.seconds(30)).map { $0 == .after }
    let price = clock.stepFunction(initial: 10, steps: [(start + .seconds(60), 12)])
    scheduler.advance(by: .seconds(60))
    #expect(isLate.value && price.value == 12)
}
