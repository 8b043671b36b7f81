// swift-format-ignore-file
// (The samples are kept exactly as the documentation writes them.)

// The samples of the stream operators, their state machines, the completion vocabulary and
// the marble kit, verbatim, with what they need around them.

import Glue
import ReactiveCore
import ReactiveTesting
import Testing

// MARK: ReactiveCore's vocabulary and machines

func completionSample(completion: Completion<any Error>) {
    switch completion {
    case .finished: print("done")
    case .failed(let error): print("failed: \(error)")
    case .interrupted: print("stopped before its end")
    }
}

func streamEventSample(stream: some CompletableSubscribable<Int, Never>) {
    let connection = stream.subscribe(events: { event in
        switch event {
        case .value(let value): print(value)
        case .completion(let completion): print("ended: \(completion)")
        }
    })
    connection.disconnect()
}

func printAll(_ stream: some CompletableSubscribable<Int, Never>) -> Connection {
    stream.subscribe(events: { print($0) })
}

@Test func limitStateMachineSample() {
    var machine = LimitStateMachine<Int>(.prefix(2))
    _ = machine.receive(1)   // .pass(1)
    _ = machine.receive(2)   // .passAndFinish(2): pass it, then end
    _ = machine.receive(3)   // .drop: the machine has finished
    #expect(machine.isFinished)
}

@Test func zipStateMachineSample() {
    var machine = ZipStateMachine<Int>(inputs: 2)
    _ = machine.receive(1, from: 0)   // .none: input 1 has nothing yet
    if machine.receive(10, from: 1) == .emit {
        var row: [Int] = []
        machine.popRow { _, value in row.append(value) }   // row == [1, 10]
    }
    #expect(machine.receive(2, from: 0) == .none)
}

@Test func combineLatestStateMachineSample() {
    var machine = CombineLatestStateMachine<Int>(inputs: 2)
    _ = machine.receive(1, from: 0)   // .none: input 1 has sent nothing
    if machine.receive(10, from: 1) == .emit {
        machine.forEachLatest { input, value in print(input, value) }   // 0 1, then 1 10
    }
}

@Test func latestPairingSample() {
    var machine = LatestPairingStateMachine<String, Int>()
    machine.otherSent(1)
    let pair = machine.mainSent("a")   // ("a", 1)
    #expect(pair?.1 == 1)
}

@Test func flattenStateMachineSample() {
    var machine = FlattenStateMachine<String>(.latest)
    guard case .subscribe(_, let first, _) = machine.outerSent("sw"),
        case .subscribe(_, let second, let releasing) = machine.outerSent("swift")
    else { return }
    // releasing == first: disconnect it. A value of it still on its way is dropped:
    let stale = machine.innerMaySend(first)    // false
    let fresh = machine.innerMaySend(second)   // true
    #expect(releasing == first && !stale && fresh)
}

@Test func pairwiseStateMachineSample() {
    var machine = PairwiseStateMachine<Int>()
    _ = machine.receive(1)   // nil
    _ = machine.receive(2)   // (1, 2)
}

@Test func timeoutStateMachineSample() {
    var machine = TimeoutStateMachine(interval: .seconds(5))
    let first = machine.start(at: .zero)                    // due at 5 s
    let second = machine.receive(at: .zero + .seconds(2))   // a value: due at 7 s instead
    let stale = machine.timerFired(first)                   // false: replaced
    let timedOut = machine.timerFired(second!)              // true: the stream times out
    #expect(!stale && timedOut)
}

@Test func windowStateMachineSample() {
    var machine = WindowStateMachine<Int>(window: .seconds(1), maxCount: 3)
    var batch: [Int]?
    if case .startTimer(let timer) = machine.receive(1, at: .zero) {   // the window opens
        _ = machine.receive(2, at: .zero + .milliseconds(500))
        batch = machine.timerFired(timer)                              // [1, 2], at 1 s
    }
    #expect(batch == [1, 2])
}

// MARK: Glue's operators

@Test func glueTimedSamples() {
    let scheduler = TestScheduler()
    let clicks = Signal<Void>()
    let updates = Signal<Double>()
    let events = Signal<String>()
    let echoes = clicks.delay(for: .milliseconds(200), scheduler: scheduler)
    let progress = updates.timeout(.seconds(30), scheduler: scheduler)
    let batches = events.collect(for: .seconds(1), maxCount: 100, scheduler: scheduler)
    _ = (echoes, progress, batches)
}

@Test func glueLimitSamples() {
    let clicks = Signal<Void>()
    let progress = Signal<Double>()
    let cancelTaps = Signal<Void>()
    let firstThree = clicks.prefix(3)
    let untilCancelled = progress.prefix(untilOutputFrom: cancelTaps)
    _ = (firstThree, untilCancelled)
}

@Test func glueShapingSamples() {
    let typed = Signal<String>()
    let positions = Signal<Int>()
    let rows = Signal<String>()
    let queries = typed.prepend("")   // starts every subscriber from an empty query
    let moves = positions.pairwise().map { from, to in to - from }
    let pages = rows.collect(50)
    _ = (queries, moves, pages)
}

@Test func glueCombiningSamples() {
    let requests = Signal<Int>()
    let responses = Signal<String>()
    let name = Variable("")
    let password = Variable("")
    let submitTaps = Signal<Void>()
    let form = Variable("draft")
    let positions = Signal<Int>()
    let frames = Signal<Void>()
    let pairs = requests.zip(responses)   // (request 1, response 1), (request 2, response 2), ...
    let canSubmit = name.futureValues.combineLatest(password.futureValues)
        .map { name, password in !name.isEmpty && password.count >= 8 }
    let submissions = submitTaps.withLatestFrom(form.futureValues).map { _, form in form }
    let shown = positions.sample(on: frames)
    _ = (pairs, canSubmit, submissions, shown)
}

/// A stand-in for a chat room, for the flattening samples.
private struct Room {
    let messages = Signal<String>()
}

/// A stand-in backend whose answers are a source.
private struct Backend {
    func results(for query: String) -> Source<[String]> { Source.just([query]) }
}

@Test func glueFlattenSamples() {
    let rooms = Signal<Room>()
    let queries = Signal<String>()
    let backend = Backend()
    let messages = rooms.flatMap { room in room.messages }
    let results = queries.flatMapLatest { query in backend.results(for: query) }
    let recorder = results.record()
    queries.send("swift")
    #expect(recorder.values == [["swift"]])
    _ = messages
}

// MARK: The marble kit

@Test func prefixStopsAfterTwo() {
    let marbles = MarbleTest()
    let input = Signal<String>()
    marbles.play("-a-b-c-d", into: input.send)
    let output = marbles.record(input.prefix(2))
    marbles.run()
    marbles.expect(output, "-a-b")
}

@Test func zipWaitsForPartners() {
    let marbles = MarbleTest()
    let letters = Signal<String>()
    let numbers = Signal<String>()
    marbles.play("-a-b---c", into: letters.send)
    marbles.play("--1-2-3-", into: numbers.send)
    let pairs = marbles.record(letters.zip(numbers).map { $0 + $1 })
    marbles.run()
    marbles.expect(pairs, "--[a1]-[b2]--[c3]")
}

@Test func marbleDiagramSample() throws {
    let diagram = try MarbleDiagram(parsing: "-a-(bc)-|")
    // diagram.events: a at 1, b and c at 3, finished at 5
    #expect(diagram.events.map(\.tick) == [1, 3, 3, 5])
}
