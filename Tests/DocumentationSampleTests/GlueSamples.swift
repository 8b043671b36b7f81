// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of Glue's articles and doc comments, verbatim, with what they need around them.

import Dispatch
import Foundation
import Glue
import Observation
import ReactiveCore
import Testing

@Test func arrayVariableSample() {
    let todos = ArrayVariable(["Buy milk"])
    let connection = todos.changes.subscribe { change in print(change.modifications) }
    todos.append("Walk the dog")   // [.insert("Walk the dog", at: 1)]
    todos[0] = "Buy oat milk"      // [.replace("Buy milk", at: 0, with: "Buy oat milk")]
    #expect(todos.value == ["Buy oat milk", "Walk the dog"])
    connection.disconnect()
}

@Test func setVariableSample() {
    let tags = SetVariable<String>(["swift"])
    tags.insert("reactive")   // reports SetChange(inserted: ["reactive"])
    #expect(tags.value == ["swift", "reactive"])
}

@Test func collectionOperatorSamples() {
    struct Todo { var title: String }
    struct Row: Hashable { var id: Int; var score: Int; var done: Bool }
    let todos = ArrayVariable([Todo(title: "milk")])
    let titles = todos.map { $0.title }
    #expect(titles.value == ["milk"])
    let prices = ArrayVariable([3, 4])
    let total = prices.reduce(0, add: +, remove: -)
    #expect(total.value == 7)
    let rows = ArrayVariable([Row(id: 1, score: 2, done: false)])
    let visible = rows.filter { !$0.done }.sorted { ($0.score, $0.id) < ($1.score, $1.id) }
    #expect(visible.value.count == 1)
}

@Test func moduleOverviewSamples() {
    do {
        let signal = Signal<Int>()
        let connection = signal.subscribe { print("Got \($0)!") }
        signal.send(23)            // prints "Got 23!"
        connection.disconnect()
    }
    do {
        final class Person {
            let name: Variable<String>
            init(name: String) { self.name = Variable(name) }
        }

        let fred = Person(name: "Fred")
        let connection = fred.name.subscribe { print("Fred's name is \($0)") }   // prints at once
        fred.name.value = "Freddie"                                             // prints again
        connection.disconnect()
    }
}

@Test func observableCollectionsSample() {
    struct Row: Hashable { var id: Int; var score: Int; var done: Bool }

    let rows = SetVariable<Row>()
    let view = rows
        .filter { !$0.done }
        .sorted { ($0.score, $0.id) < ($1.score, $1.id) }
        .map { "\($0.id): \($0.score)" }

    rows.insert(Row(id: 1, score: 5, done: false))
    rows.replace(Row(id: 1, score: 5, done: false), with: Row(id: 1, score: 0, done: false))
    // view.value == ["1: 0"], updated by one removal and one insertion
    #expect(view.value == ["1: 0"])
}

@Test func transactionSamples() {
    do {
        let counter = Variable(0)
        let connection = counter.changes.subscribe { print($0) }
        counter.withTransaction {
            counter.value += 1
            counter.value += 1
        }
        // prints "0 → 2" once
        connection.disconnect()
    }
    do {
        let first = Variable("Ada")
        let last = Variable("Byron")
        let fullName = first.combined(last) { "\($0) \($1)" }
        let connection = fullName.subscribe { print($0) }   // "Ada Byron"
        withTransaction([first, last]) {
            first.value = "Augusta"
            last.value = "King"
        }
        // prints "Augusta King" once; never "Augusta Byron"
        connection.disconnect()
    }
    do {
        let counter = Variable(0)
        counter.withTransaction {
            counter.value += 1
            counter.value += 1
        }   // observers see one change, by 2
        let (first, last) = (Variable(""), Variable(""))
        withTransaction([first, last]) {
            first.value = "Ada"
            last.value = "Lovelace"
        }   // fullName's observers see one change
    }
}

private final class SamplePerson { let name = Variable("Ada") }

@Test func glueInteropSamples() {
    let person = SamplePerson()
    let name = person.name.observed()
    withObservationTracking { print(name.value) } onChange: { print("renamed") }
}

@Test @MainActor func glueFeedSample() {
    struct Socket { let incomingMessages = AsyncStream<String> { $0.finish() } }
    let socket = Socket()
    let messages = Signal<String>()
    let feeding = messages.feed(from: socket.incomingMessages)
    feeding.disconnect()
}

#if canImport(SwiftUI)
    import SwiftUI

    @MainActor @ViewBuilder private func nameField(name: ObservedValue<String>, person: SamplePerson) -> some View {
        TextField("Name", text: name.binding(to: person.name))
    }
#endif

@Test func observableOperatorSamples() {
    final class Book { let title = Variable("Dune") }
    final class Model { let name = Variable("Ada") }
    final class Field { let text = Variable("") }
    let book = Book()
    let title: AnyObservableValue<String> = book.title.map { $0.uppercased() }.anyObservableValue
    #expect(title.value == "DUNE")
    let (model, field) = (Model(), Field())
    let binding = model.name.bind(to: field.text)
    #expect(field.text.value == "Ada")
    binding.disconnect()
    let age = Variable(30)
    let isAdult = age.map { $0 >= 18 }.distinct()   // silent while age goes 30 → 31
    #expect(isAdult.value)
    let selectedBook = Variable(book)
    let currentTitle = selectedBook.flatMap(\.title)   // follows the selected book's title
    #expect(currentTitle.value == "Dune")
    let name = Variable("Ada")
    let greeting = name.map { "Hello, \($0)!" }
    #expect(greeting.value == "Hello, Ada!")
    let celsius = Variable(20.0)
    let fahrenheit = celsius.map({ $0 * 9 / 5 + 32 }, inverse: { ($0 - 32) * 5 / 9 })
    fahrenheit.value = 212   // celsius.value == 100
    #expect(celsius.value == 100)
}

@Test func variableSamples() {
    final class Person {
        let name: Variable<String>
        init(name: String) { self.name = Variable(name) }
    }

    let fred = Person(name: "Fred")
    print(fred.name.value)        // "Fred"
    let connection = fred.name.subscribe { print("Fred's name is \($0)") }
    // prints "Fred's name is Fred" at once
    fred.name.value = "Freddie"   // prints "Fred's name is Freddie"
    connection.disconnect()
    do {
        let connection = fred.name.subscribe { name in print("Fred's name is \(name)") }
        // prints "Fred's name is Fred" at once, then each new name
        connection.disconnect()
    }
}

private func expensiveParse(_ line: String) -> Int { line.count }
private func store(_ result: Int) { print(result) }

@Test func sourceOperatorSamples() {
    let purchases = Signal<Int>()
    let total = purchases.accumulated(0) { sum, price in sum + price }
    let lines = Signal<String>()
    let parsed = lines.map(expensiveParse).buffered()   // parses each line once
    let optionals = Signal<Int?>()
    let numbers = lines.compactMap { Int($0) }
    let present = optionals.compactMap { $0 }
    let results = Signal<Int>()
    let connection = results.dispatch(on: .global()).subscribe { result in store(result) }
    connection.disconnect()
    let evens = numbers.filter { $0.isMultiple(of: 2) }
    let names = Signal<String>()
    let lengths = names.map { $0.count }
    let scheduler = TestScheduler()
    let typed = Signal<String>()
    let clicks = Signal<Void>()
    let requests = typed.throttle(pause: .milliseconds(300), latest: true, scheduler: scheduler)
    let submits = clicks.throttle(pause: .seconds(1), scheduler: scheduler)
    let searches = typed.debounce(pause: .milliseconds(300), scheduler: scheduler)
    _ = (total, parsed, numbers, present, evens, lengths, requests, submits, searches)
}

@Test func timerSourceSample() {
    let connectionsWhileVisible = Connector()
    let ticks = TimerSource(scheduler: DispatchScheduler(queue: .main), interval: .seconds(1))
    ticks.subscribe { print("Tick!") }.putInto(connectionsWhileVisible)
    connectionsWhileVisible.disconnect()
}

@Test func notificationSample() {
    let midnight = NotificationCenter.default.source(forName: .NSCalendarDayChanged)
    let connection = midnight.subscribe { _ in print("Ding dong!") }
    connection.disconnect()
    do {
        let connection = midnight.subscribe { notification in print("Ding dong!") }
        connection.disconnect()
    }
}

@Test func signalSample() {
    let signal = Signal<Int>()
    signal.send(42)                    // does nothing: no subscribers
    let connection = signal.subscribe { print("Got \($0)!") }
    signal.send(23)                    // prints "Got 23!"
    signal.send(7)                     // prints "Got 7!"
    connection.disconnect()
}

final class Button {
    private let activationSignal = Signal<Void>()
    var activationSource: Source<Void> { activationSignal.source }
}

@Test func sinkSample() {
    let clicks = Signal<Int>()
    let counter = Variable(0)
    let connection = clicks.subscribe(counter)   // each click is sent to `counter`
    clicks.send(3)
    #expect(counter.value == 3)
    connection.disconnect()
}

// MARK: flatMapLatest

private final class ResultsBackend: Sendable {
    func results(for text: String) async -> [String] { [text] }
}

@Test @MainActor func glueFlatMapLatestSample() async {
    let backend = ResultsBackend()
    let scheduler = TestScheduler()
    let query = Variable("")
    let shown = Variable<[String]>([])
    let results = query.futureValues
        .throttle(pause: .milliseconds(300), latest: true, scheduler: scheduler)
        .flatMapLatest { text in await backend.results(for: text) }
    let connection = results.subscribe { shown.value = $0 }
    query.value = "swift"
    var yields = 0
    while shown.value != ["swift"] && yields < 100_000 {
        await Task.yield()
        yields += 1
    }
    #expect(shown.value == ["swift"])
    connection.disconnect()
}

// MARK: concatenation and containment

private struct Post: Hashable { var tag: String }
private enum Priority: Hashable { case low, urgent }

@Test func glueContainmentDocCommentSamples() {
    let posts = ArrayVariable([Post(tag: "swift"), Post(tag: "swift")])
    let selection = ArrayVariable(["title"])
    let priorities = ArrayVariable<Priority>([.low])
    let admins = ArrayVariable(["ada"])
    let members = ArrayVariable(["grace"])

    let tags = posts.map { $0.tag }.distinctUnion()   // each tag once, while any post has it
    let ready = selection.containsAll(["title", "body"])
    let hasUrgent = priorities.contains(.urgent)
    let everyone = admins + members

    #expect(tags.value == ["swift"])
    #expect(!ready.value)
    selection.append("body")
    #expect(ready.value)
    priorities.append(.urgent)
    #expect(hasUrgent.value)
    #expect(everyone.value == ["ada", "grace"])
}

@Test func glueConcatenationArticleSample() {
    let admins = ArrayVariable(["ada"])
    let members = ArrayVariable(["grace", "ada"])
    let everyone = admins + members           // ["ada", "grace", "ada"]
    let names = everyone.distinctUnion()      // ["ada", "grace"], a set
    let hasLinus = everyone.contains("linus")
    let complete = names.containsAll(["ada", "grace"])

    members.append("linus")                   // everyone's change: insert "linus" at 3
    // names gains "linus"; hasLinus turns true; complete stays true and reports nothing

    #expect(everyone.value == ["ada", "grace", "ada", "linus"])
    #expect(names.value == ["ada", "grace", "linus"])
    #expect(hasLinus.value && complete.value)
}

// MARK: dictionaries

@Test func glueDictionarySamples() {
    do {
        let scores = DictionaryVariable<String, Int>()
        scores["ada"] = 3          // reports DictionaryChange(inserted: ["ada": 3])
        scores["ada"] = 5          // reports DictionaryChange(removed: ["ada": 3], inserted: ["ada": 5])
        scores["ada"] = nil        // reports DictionaryChange(removed: ["ada": 5])
        #expect(scores.value.isEmpty)
    }
    do {
        let scores = DictionaryVariable(["ada": 72, "grace": 41])
        let passing = scores.filter { _, score in score >= 50 }
        let labels = scores.mapValues { "\($0) points" }
        let names = scores.sortedKeys(by: <)
        #expect(passing.value == ["ada": 72] && labels.count == 2 && names.value == ["ada", "grace"])
    }
    do {
        let scores = DictionaryVariable(["ada": 72, "grace": 41])
        let passing = scores.filter { _, score in score >= 50 }     // ["ada": 72]
        let labels = passing.mapValues { "\($0) points" }           // ["ada": "72 points"]
        let names = scores.sortedKeys(by: <)                        // ["ada", "grace"]

        scores["grace"] = 64   // passing gains "grace"; names does not change (no key joined)
        scores["linus"] = 12   // names gains "linus", at 2; passing does not change

        #expect(passing.value == ["ada": 72, "grace": 64])
        #expect(labels.value == ["ada": "72 points", "grace": "64 points"])
        #expect(names.value == ["ada", "grace", "linus"])
    }
}

// MARK: buffered collections

private struct BufferedTodo: Hashable { var title: String; var done: Bool }

@Test func glueBufferedSample() {
    let todos = ArrayVariable([BufferedTodo(title: "b", done: false), BufferedTodo(title: "a", done: false)])
    let rows = todos.filter { !$0.done }.sorted { $0.title < $1.title }.buffered()
    for row in rows.value { print(row) }   // no array built from the sorted view's tree
    #expect(rows.value.map(\.title) == ["a", "b"])
}

// MARK: element-field views

private final class Person: Hashable {
    let name: Variable<String>
    init(_ name: String) { self.name = Variable(name) }
    static func == (left: Person, right: Person) -> Bool { left === right }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

@Test func glueElementFieldArticleSample() {
    final class Todo {
        let title: Variable<String>
        let done = Variable(false)
        let priority: Variable<Int>
        init(_ title: String, priority: Int) {
            self.title = Variable(title)
            self.priority = Variable(priority)
        }
    }

    let todos = ArrayVariable([Todo("write", priority: 2), Todo("test", priority: 3)])
    let remaining = todos.filter(observing: \.done) { !$0 }     // both todos
    let urgentFirst = todos.sorted(observing: \.priority, by: >) // test, write
    let titles = todos.map(observing: \.title)                  // ["write", "test"]

    todos.value[1].done.value = true   // remaining loses "test", at 1; nothing else is read
    todos.value[0].priority.value = 5  // urgentFirst moves "write" to 0

    #expect(remaining.value.map(\.title.value) == ["write"])
    #expect(urgentFirst.value.map(\.title.value) == ["write", "test"])
    #expect(titles.value == ["write", "test"])

    // The doc comments' samples.
    do {
        let todos = ArrayVariable([Todo("write", priority: 2), Todo("test", priority: 3)])
        let people = SetVariable([Person("grace"), Person("ada")])

        let titles = todos.map(observing: \.title)
        let finished = todos.filter(observing: \.done)
        let remaining = todos.filter(observing: \.done) { !$0 }
        let byPriority = todos.sorted(observing: \.priority, by: >)
        let byName = people.sorted(observing: \.name, by: <)

        #expect(titles.value == ["write", "test"] && finished.value.isEmpty && remaining.count == 2)
        #expect(byPriority.value.map(\.title.value) == ["test", "write"])
        #expect(byName.value.map(\.name.value) == ["ada", "grace"])
    }
}
