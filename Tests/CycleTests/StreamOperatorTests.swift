import Cycle
import ReactiveCore
import ReactiveTesting
import TestSupport
import Testing

@Suite("Cycle: event streams that finish, and their operators, as marbles")
struct StreamOperatorTests {
    /// A subject and the function that plays a diagram's events into it.
    final class Input<Value> {
        let subject = EventSubject<Value>()
        var stream: EventStream<Value> { subject.stream }
        func send(_ event: StreamEvent<Value, Never>) { subject.send(event: event) }
    }

    @Test("a subject finishes once: its subscribers get the end, later ones get it at once, later values are dropped")
    func subjectFinishes() {
        let subject = EventSubject<Int>()
        var log: [String] = []
        let connection = subject.stream.subscribe({ log.append("\($0)") }, onCompleted: { log.append("end") })
        subject.send(1)
        subject.finish()
        subject.send(2)
        subject.finish()
        #expect(log == ["1", "end"])
        #expect(subject.subscriberCount == 0, "the end releases the subscription")
        var late: [String] = []
        _ = subject.stream.subscribe({ late.append("\($0)") }, onCompleted: { late.append("end") })
        #expect(late == ["end"])
        #expect(!connection.isConnected, "the end disconnects the subscriber's connection")
    }

    @Test("events after a stream's completion are dropped, and its connection is released at the end")
    func gate() {
        var released = false
        let unruly = EventStream<Int>(subscribeEvents: { sink in
            sink(.value(1))
            sink(.completion(.finished))
            sink(.value(2))
            sink(.completion(.finished))
            return Connection(isolated: { released = true })
        })
        let recording = unruly.record()
        #expect(recording.values == [1])
        #expect(released, "a stream that finished while being subscribed is released at once")
        var events: [StreamEvent<Int, Never>] = []
        _ = unruly.subscribe(events: { events.append($0) })
        #expect(events == [.value(1), .completion(.finished)])
    }

    @Test("map, filter, compactMap pass the end on; merge ends when every input has; of, from and empty end at once")
    func basics() {
        let marbles = MarbleTest()
        let a = Input<String>()
        let b = Input<String>()
        marbles.play("-a-b-|", events: a.send)
        marbles.play("--x----y|", events: b.send)
        let mapped = marbles.record(a.stream.map { $0.uppercased() })
        let filtered = marbles.record(a.stream.filter { $0 != "a" })
        let merged = marbles.record(EventStream.merge(a.stream, b.stream))
        let of = marbles.record(EventStream.of("p", "q"))
        let empty = marbles.record(EventStream<String>.empty)
        let never = marbles.record(EventStream<String>.never)
        marbles.run()
        marbles.expect(mapped, "-A-B-|")
        marbles.expect(filtered, "---b-|")
        marbles.expect(merged, "-axb---y|")
        marbles.expect(of, "(pq|)")
        marbles.expect(empty, "|")
        marbles.expect(never, "")
    }

    @Test("limiting: prefix, first, prefix(while:), endWhen end early; drops skip; all release their inputs")
    func limiting() {
        let marbles = MarbleTest()
        let input = Input<String>()
        let trigger = Input<String>()
        marbles.play("-a-b-c-d|", events: input.send)
        marbles.play("----x----", events: trigger.send)
        let cases = [
            (marbles.record(input.stream.prefix(2)), "-a-(b|)"),
            (marbles.record(input.stream.take(2)), "-a-(b|)"),
            (marbles.record(input.stream.prefix(0)), "|"),
            (marbles.record(input.stream.prefix(9)), "-a-b-c-d|"),
            (marbles.record(input.stream.first()), "-(a|)"),
            (marbles.record(input.stream.first(where: { $0 > "b" })), "-----(c|)"),
            (marbles.record(input.stream.prefix(while: { $0 < "c" })), "-a-b-|"),
            (marbles.record(input.stream.prefix(untilOutputFrom: trigger.stream)), "-a-b|"),
            (marbles.record(input.stream.endWhen(trigger.stream)), "-a-b|"),
            (marbles.record(input.stream.dropFirst(2)), "-----c-d|"),
            (marbles.record(input.stream.drop(2)), "-----c-d|"),
            (marbles.record(input.stream.drop(while: { $0 < "c" })), "-----c-d|"),
            (marbles.record(input.stream.drop(untilOutputFrom: trigger.stream)), "-----c-d|"),
        ]
        var subscribers: [Int] = []
        let probe = marbles.scheduler.schedule(
            after: .milliseconds(5500),
            isolated: { subscribers = [input.subject.subscriberCount, trigger.subject.subscriberCount] })
        marbles.run()
        for (recording, diagram) in cases { marbles.expect(recording, diagram) }
        // After c: the four drops and prefix(9) hold the input, nothing else; the
        // drop(untilOutputFrom:) released its trigger at tick 4, and prefix(untilOutputFrom:)
        // and endWhen theirs when it ended them.
        #expect(subscribers == [5, 0])
        _ = probe
    }

    @Test("shaping: prepend, append, pairwise, collect, last, reduce, scan, fold, removeDuplicates")
    func shaping() {
        let marbles = MarbleTest()
        let input = Input<String>()
        marbles.play("-a-b-b-c|", events: input.send)
        let empty = Input<String>()
        marbles.play("--|", events: empty.send)
        let cases = [
            (marbles.record(input.stream.prepend("x", "y")), "(xy)a-b-b-c|"),
            (marbles.record(input.stream.startWith("s")), "sa-b-b-c|"),
            (marbles.record(input.stream.append("z")), "-a-b-b-c(z|)"),
            (marbles.record(input.stream.pairwise().map { $0 + $1 }), "---[ab]-[bb]-[bc]|"),
            (marbles.record(input.stream.combinePrevious("w").map { $0 + $1 }), "-[wa]-[ab]-[bb]-[bc]|"),
            (marbles.record(input.stream.collect(3).map { $0.joined() }), "-----[abb]--(c|)"),
            (marbles.record(input.stream.collect().map { $0.joined() }), "--------([abbc]|)"),
            (marbles.record(input.stream.last()), "--------(c|)"),
            (marbles.record(empty.stream.last()), "--|"),
            (marbles.record(input.stream.reduce("") { $0 + $1 }), "--------([abbc]|)"),
            (marbles.record(input.stream.scan("") { $0 + $1 }), "-a-[ab]-[abb]-[abbc]|"),
            (marbles.record(input.stream.fold("") { $0 + $1 }), "[]a-[ab]-[abb]-[abbc]|"),
            (marbles.record(input.stream.removeDuplicates()), "-a-b---c|"),
            (marbles.record(input.stream.dropRepeats()), "-a-b---c|"),
        ]
        marbles.run()
        for (recording, diagram) in cases { marbles.expect(recording, diagram) }
    }

    @Test(
        "combining: zip ends when an ended input is used up; combineLatest when all end; withLatestFrom with its input")
    func combining() {
        let marbles = MarbleTest()
        let letters = Input<String>()
        let numbers = Input<String>()
        let signs = Input<String>()
        let silent = Input<String>()
        marbles.play("-a-b---c|", events: letters.send)
        marbles.play("--1-2|", events: numbers.send)
        marbles.play("---+-----", events: signs.send)
        marbles.play("--|", events: silent.send)
        let cases = [
            (marbles.record(letters.stream.zip(numbers.stream).map { $0 + $1 }), "--[a1]-[b2]|"),
            (marbles.record(letters.stream.zip(numbers.stream, signs.stream).map { $0 + $1 + $2 }), "---[a1+]"),
            (marbles.record(EventStream.zip([letters.stream, numbers.stream]).map { $0.joined() }), "--[a1]-[b2]|"),
            (
                marbles.record(letters.stream.combineLatest(numbers.stream).map { $0 + $1 }),
                "--[a1][b1][b2]--[c2]|"
            ),
            (marbles.record(letters.stream.combineLatest(silent.stream).map { $0 + $1 }), "--|"),
            (
                marbles.record(EventStream.combineLatest([letters.stream, numbers.stream]).map { $0.joined() }),
                "--[a1][b1][b2]--[c2]|"
            ),
            (marbles.record(letters.stream.withLatestFrom(numbers.stream).map { $0 + $1 }), "---[b1]---[c2]|"),
            (marbles.record(letters.stream.sampleCombine(numbers.stream).map { $0 + $1 }), "---[b1]---[c2]|"),
            (marbles.record(letters.stream.sample(on: numbers.stream)), "--a-b|"),
        ]
        marbles.run()
        for (recording, diagram) in cases { marbles.expect(recording, diagram) }
    }

    @Test("flattening: merge, merge with a maximum, concat and latest, with inner streams that end")
    func flattening() {
        let marbles = MarbleTest()
        let outer = Input<String>()
        marbles.play("-a-b-c---|", events: outer.send)
        // Each inner stream sends its letter twice, two ticks apart, then ends.
        func inner(_ letter: String) -> EventStream<String> {
            let subject = EventSubject<String>()
            return EventStream(subscribeEvents: { sink in
                let connection = subject.stream.subscribe(events: sink)
                let timers = [
                    marbles.scheduler.schedule(after: .seconds(1), isolated: { subject.send(letter) }),
                    marbles.scheduler.schedule(after: .seconds(3), isolated: { subject.send(letter.uppercased()) }),
                    marbles.scheduler.schedule(after: .seconds(3), isolated: { subject.finish() }),
                ]
                return Connection(isolated: {
                    connection.disconnect()
                    for timer in timers { timer.disconnect() }
                })
            })
        }
        let merged = marbles.record(outer.stream.flatMap(inner))
        let two = marbles.record(outer.stream.flatMap(maxConcurrent: 1, inner))
        let concat = marbles.record(outer.stream.concatMap(inner))
        let latest = marbles.record(outer.stream.flatMapLatest(inner))
        let switched = marbles.record(outer.stream.map(inner).switchToLatest())
        marbles.run()
        marbles.expect(merged, "--a-(Ab)-(Bc)-C|")
        marbles.expect(two, "--a-Ab-Bc-(C|)")
        marbles.expect(concat, "--a-Ab-Bc-(C|)")
        marbles.expect(latest, "--a-b-c-C|")
        marbles.expect(switched, "--a-b-c-C|")
    }

    @Test("delay delays the end too; timeout ends the stream; collect by time flushes its window at the end")
    func timed() {
        let marbles = MarbleTest()
        let input = Input<String>()
        marbles.play("-ab--c-d----e-|", events: input.send)
        let scheduler = marbles.scheduler
        let delayed = marbles.record(input.stream.delay(for: .seconds(2), scheduler: scheduler))
        let timedOut = marbles.record(input.stream.timeout(.seconds(3), scheduler: scheduler))
        let windows = marbles.record(
            input.stream.collect(for: .seconds(3), scheduler: scheduler).map { $0.joined() })
        let counted = marbles.record(
            input.stream.collect(for: .seconds(3), maxCount: 2, scheduler: scheduler).map { $0.joined() })
        marbles.run()
        marbles.expect(delayed, "---ab--c-d----e-|")
        marbles.expect(timedOut, "-ab--c-d--|")
        marbles.expect(windows, "----[ab]---[cd]-----(e|)")
        marbles.expect(counted, "--[ab]----[cd]------(e|)")
    }

    @Test("a replaced inner stream is released at once; disconnecting releases the outer and every inner")
    func flattenReleases() {
        let outer = EventSubject<Int>()
        let inners = [EventSubject<String>(), EventSubject<String>()]
        var received: [String] = []
        let connection = outer.stream.flatMapLatest { inners[$0].stream }.subscribe { received.append($0) }
        outer.send(0)
        inners[0].send("a")
        outer.send(1)
        #expect(inners[0].subscriberCount == 0)
        inners[0].send("stale")
        inners[1].send("b")
        #expect(received == ["a", "b"])
        connection.disconnect()
        #expect(outer.subscriberCount == 0 && inners[1].subscriberCount == 0)
    }

    @Test("a sink that sends into a flattened stream's inner during a delivery gets the value after, never nested")
    func flattenReentrant() {
        let outer = EventSubject<Int>()
        let inner = EventSubject<Int>()
        let other = EventSubject<Int>()
        var log: [String] = []
        var depth = 0
        let connection = outer.stream.flatMap { $0 == 0 ? inner.stream : other.stream }.subscribe { value in
            depth += 1
            defer { depth -= 1 }
            log.append("\(value)@\(depth)")
            if value == 1 { other.send(2) }
        }
        outer.send(0)
        outer.send(1)
        inner.send(1)
        #expect(log == ["1@1", "2@1"])
        connection.disconnect()
    }

    @Test(
        "random interleavings through the limiting, shaping, combining and ending operators match plain-array references"
    )
    func model() {
        var random = SeededGenerator(seed: 43)
        for round in 0..<200 {
            let values = (0..<Int.random(in: 0...12, using: &random)).map { _ in Int.random(in: 0...9, using: &random) }
            let otherValues = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Int.random(in: 0...9, using: &random)
            }
            let count = Int.random(in: 0...4, using: &random)
            let limit = Int.random(in: 0...9, using: &random)
            let every = Int.random(in: 1...5, using: &random)
            let a = EventSubject<Int>()
            let b = EventSubject<Int>()
            var outputs: [String: [[Int]]] = [:]
            func record(_ name: String) -> ([Int]) -> Void { { outputs[name, default: []].append($0) } }
            let size = max(count, 1)
            let connections = [
                a.stream.prefix(count).subscribe { record("prefix")([$0]) },
                a.stream.dropFirst(count).subscribe { record("dropFirst")([$0]) },
                a.stream.prefix(while: { $0 < limit }).subscribe { record("prefixWhile")([$0]) },
                a.stream.prefix(while: { $0 < limit }, inclusive: true).subscribe {
                    record("prefixWhileInclusive")([$0])
                },
                a.stream.collect(count: size, every: every).subscribe(record("collectEvery")),
                a.stream.drop(while: { $0 < limit }).subscribe { record("dropWhile")([$0]) },
                a.stream.first(where: { $0 >= limit }).subscribe { record("firstWhere")([$0]) },
                a.stream.pairwise().subscribe { record("pairwise")([$0, $1]) },
                a.stream.collect(size).subscribe(record("collect")),
                a.stream.zip(b.stream).subscribe { record("zip")([$0, $1]) },
                a.stream.combineLatest(b.stream).subscribe { record("combineLatest")([$0, $1]) },
                a.stream.withLatestFrom(b.stream).subscribe { record("withLatestFrom")([$0, $1]) },
                a.stream.sample(on: b.stream).subscribe { record("sample")([$0]) },
                a.stream.reduce(0, +).subscribe { record("reduce")([$0]) },
                a.stream.collect().subscribe(record("collectAll")),
            ]
            // The references for the operators that depend on the interleaving, kept as it goes.
            var latest: (Int?, Int?) = (nil, nil)
            var held: Int?
            var expected: [String: [[Int]]] = [:]
            var left = values[...]
            var right = otherValues[...]
            while !left.isEmpty || !right.isEmpty {
                if !left.isEmpty, right.isEmpty || Bool.random(using: &random) {
                    let value = left.removeFirst()
                    latest.0 = value
                    held = value
                    if let r = latest.1 { expected["withLatestFrom", default: []].append([value, r]) }
                    if let r = latest.1 { expected["combineLatest", default: []].append([value, r]) }
                    a.send(value)
                } else {
                    let value = right.removeFirst()
                    latest.1 = value
                    if let l = latest.0 { expected["combineLatest", default: []].append([l, value]) }
                    if let sampled = held { expected["sample", default: []].append([sampled]) }
                    held = nil
                    b.send(value)
                }
            }
            a.finish()
            b.finish()
            expected.merge(
                orderFreeOperatorReferences(
                    values: values, otherValues: otherValues, count: count, limit: limit, every: every)
            ) { _, new in new }
            // Cycle's streams end: what the ending operators hold is sent at the finish.
            expected["collectEvery", default: []] += openCollectArrays(values: values, count: size, every: every)
            expected["collect"] = stride(from: 0, to: values.count, by: size).map {
                Array(values[$0..<min($0 + size, values.count)])
            }
            expected["reduce"] = [[values.reduce(0, +)]]
            expected["collectAll"] = [values]
            for name in Set(expected.keys).union(outputs.keys).sorted() {
                #expect((outputs[name] ?? []) == (expected[name] ?? []), "round \(round): \(name)")
            }
            for connection in connections { connection.disconnect() }
            #expect(a.subscriberCount == 0 && b.subscriberCount == 0, "round \(round)")
        }
    }

    @Test(
        "random programs of outer and inner events and ends through flatMap, flatMap(maxConcurrent:), concatMap, flatMapLatest and switchToLatest match a step-by-step reference; every input is released"
    )
    func flatteningModel() {
        for (round, program) in FlattenProgram.randomPrograms(endings: true).enumerated() {
            let test = MarbleTest()
            let outer = EventSubject<Int>()
            let inners = (0..<program.innerCount).map { _ in EventSubject<Int>() }
            program.play(in: test, outer: outer.send(event:), inner: { inners[$0].send(event: $1) })
            let transform = { (index: Int) in inners[index].stream }
            let cases = [
                (FlattenReferencePolicy.merge(maximum: nil), test.record(outer.stream.flatMap(transform))),
                (.merge(maximum: 1), test.record(outer.stream.flatMap(maxConcurrent: 1, transform))),
                (.merge(maximum: 1), test.record(outer.stream.concatMap(transform))),
                (.merge(maximum: 2), test.record(outer.stream.flatMap(maxConcurrent: 2, transform))),
                (.latest, test.record(outer.stream.flatMapLatest(transform))),
                (.latest, test.record(outer.stream.map(transform).switchToLatest())),
            ]
            test.run()
            expectFlattening(cases.map { ($0, $1.flattenDeliveries) }, for: program, replaysLast: false, round: round)
            #expect(outer.subscriberCount == 0, "round \(round)")
            #expect(inners.allSatisfy { $0.subscriberCount == 0 }, "round \(round):\n\(program)")
        }
    }

    @Test("everything an operator holds is freed after the end or the disconnection")
    func freed() {
        weak var weakSubject: EventSubject<Int>?
        do {
            let subject = EventSubject<Int>()
            weakSubject = subject
            let other = EventSubject<Int>()
            let connections = [
                subject.stream.zip(other.stream).subscribe { _ in },
                subject.stream.combineLatest(other.stream).subscribe { _ in },
                subject.stream.withLatestFrom(other.stream).subscribe { _ in },
                subject.stream.sample(on: other.stream).subscribe { _ in },
                subject.stream.flatMap { _ in other.stream }.subscribe { _ in },
                subject.stream.prefix(untilOutputFrom: other.stream).subscribe { _ in },
            ]
            subject.send(1)
            other.send(2)
            for connection in connections { connection.disconnect() }
            #expect(subject.subscriberCount == 0 && other.subscriberCount == 0)
        }
        #expect(weakSubject == nil)
    }

    @Test("collect(0), a flatMap with no room, and zip of no streams are precondition failures")
    func preconditions() async {
        let collect = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EventSubject<Int>().stream.collect(0)
        }
        expectStandardError(of: collect, contains: "Cycle: collect(_:) needs a count of at least 1, got 0")
        let zip = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EventStream<Int>.zip([])
        }
        expectStandardError(of: zip, contains: "Cycle: zip and combineLatest need at least one stream")
        let flatMap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EventSubject<Int>().stream.flatMap(maxConcurrent: 0) { _ in EventStream<Int>.empty }
        }
        expectStandardError(of: flatMap, contains: "flatMap needs a maximum of at least 1 inner stream, got 0")
        let delay = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EventSubject<Int>().stream.delay(for: .seconds(-1), scheduler: TestScheduler())
        }
        expectStandardError(of: delay, contains: "Cycle: delay needs an interval of zero or more, got -1.0 seconds")
    }
}
