import Glue
import ReactiveCore
import ReactiveTesting
import TestSupport
import Testing

@Suite("Glue: stream operators, as marbles")
struct StreamOperatorTests {
    @Test("prefix sends the first values, then lets go of its input in the delivery of the last")
    func prefix() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        marbles.play("-a-b-c-d", into: input.send)
        var subscribersAtB: Int?
        let firstTwo = marbles.record(
            input.prefix(2).map { value in
                if value == "b" { subscribersAtB = input.subscriberCount }
                return value
            })
        let none = marbles.record(input.prefix(0))
        let alias = marbles.record(input.take(first: 3))
        let connection = input.prefix(1).subscribe { _ in }
        marbles.run()
        #expect(!connection.isConnected, "a prefix that stopped reports its connection disconnected")
        marbles.expect(firstTwo, "-a-b")
        marbles.expect(none, "")
        marbles.expect(alias, "-a-b-c")
        // When b is passed on, prefix(2) has already let go: take(first: 3) is the only one left.
        #expect(subscribersAtB == 1)
        #expect(input.subscriberCount == 0)
    }

    @Test("prefix(while:), first() and first(where:) stop at their value")
    func prefixWhileAndFirst() {
        let marbles = MarbleTest()
        let input = Signal<Int>()
        let values = ["1": 1, "2": 2, "3": 3, "4": 4]
        marbles.play("-1-2-3-4-1", values: values, into: input.send)
        let small = marbles.record(input.prefix(while: { $0 < 3 }))
        let first = marbles.record(input.first())
        let firstEven = marbles.record(input.first(where: { $0.isMultiple(of: 2) }))
        marbles.run()
        marbles.expect(small, "-1-2", values: values)
        marbles.expect(first, "-1", values: values)
        marbles.expect(firstEven, "---2", values: values)
        #expect(input.subscriberCount == 0)
    }

    @Test("prefix(untilOutputFrom:) stops when the trigger sends, and lets go of both")
    func prefixUntil() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        let trigger = Signal<String>()
        marbles.play("-a-b-c-d", into: input.send)
        marbles.play("----x---", into: trigger.send)
        let output = marbles.record(input.prefix(untilOutputFrom: trigger))
        let alias = marbles.record(input.take(until: trigger))
        marbles.run()
        marbles.expect(output, "-a-b")
        marbles.expect(alias, "-a-b")
        #expect(input.subscriberCount == 0)
        #expect(trigger.subscriberCount == 0)
    }

    @Test("dropFirst, drop(while:) and drop(untilOutputFrom:) skip, then pass everything")
    func drops() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        let trigger = Signal<Void>()
        marbles.play("-a-b-c-a", into: input.send)
        marbles.play("---x", into: { _ in trigger.send() })
        let dropTwo = marbles.record(input.dropFirst(2))
        let dropOne = marbles.record(input.dropFirst())
        let dropWhileA = marbles.record(input.drop(while: { $0 == "a" }))
        let dropUntil = marbles.record(input.drop(untilOutputFrom: trigger))
        var triggerSubscribersAtEnd: Int?
        let probe = marbles.scheduler.schedule(
            after: .seconds(7), isolated: { triggerSubscribersAtEnd = trigger.subscriberCount })
        marbles.run()
        marbles.expect(dropTwo, "-----c-a")
        marbles.expect(dropOne, "---b-c-a")
        marbles.expect(dropWhileA, "---b-c-a")
        // At tick 3 the input sends before the trigger (it was played first): b is dropped.
        marbles.expect(dropUntil, "-----c-a")
        _ = probe
        #expect(triggerSubscribersAtEnd == 0, "drop(untilOutputFrom:) lets go of its trigger once it sent")
    }

    @Test("prepend starts each subscriber with its values; pairwise pairs; collect gathers")
    func shaping() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        marbles.play("-a-b-c-d-e", into: input.send)
        let prepended = marbles.record(input.prepend("x", "y"))
        let started = marbles.record(input.startWith("s"))
        let pairs = marbles.record(input.pairwise().map { "\($0)\($1)" })
        let previous = marbles.record(input.combinePrevious("z").map { "\($0)\($1)" })
        let batches = marbles.record(input.collect(2).map { $0.joined() })
        marbles.run()
        marbles.expect(prepended, "(xy)a-b-c-d-e")
        marbles.expect(started, "sa-b-c-d-e")
        marbles.expect(pairs, "---[ab]-[bc]-[cd]-[de]")
        marbles.expect(previous, "-[za]-[ab]-[bc]-[cd]-[de]")
        marbles.expect(batches, "---[ab]---[cd]")
    }

    @Test("removeDuplicates is distinct, in Combine's spelling")
    func removeDuplicates() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        marbles.play("-a-a-b-B-b", into: input.send)
        let plain = marbles.record(input.removeDuplicates())
        let caseless = marbles.record(input.removeDuplicates(by: { $0.lowercased() == $1.lowercased() }))
        marbles.run()
        marbles.expect(plain, "-a---b-B-b")
        marbles.expect(caseless, "-a---b")
    }

    @Test("zip pairs the n-th values; values wait for their partner")
    func zip() {
        let marbles = MarbleTest()
        let letters = Signal<String>()
        let numbers = Signal<Int>()
        let signs = Signal<String>()
        marbles.play("-a-b---c-d", into: letters.send)
        marbles.play("--1-2-3", values: ["1": 1, "2": 2, "3": 3], into: numbers.send)
        marbles.play("------+-", into: signs.send)
        let pairs = marbles.record(letters.zip(numbers).map { "\($0)\($1)" })
        let triples = marbles.record(letters.zip(numbers, signs).map { "\($0)\($1)\($2)" })
        let all = marbles.record(
            Source.zip([letters.source, letters.map { $0.uppercased() }.source]).map { $0.joined() })
        marbles.run()
        marbles.expect(pairs, "--[a1]-[b2]--[c3]")
        marbles.expect(triples, "------[a1+]")
        marbles.expect(all, "-[aA]-[bB]---[cC]-[dD]")
    }

    @Test("combineLatest sends the latest of each once all have sent")
    func combineLatest() {
        let marbles = MarbleTest()
        let letters = Signal<String>()
        let digits = Signal<String>()
        let signs = Signal<String>()
        marbles.play("-a-b---c", into: letters.send)
        marbles.play("---1-2--", into: digits.send)
        marbles.play("--+-----", into: signs.send)
        let pairs = marbles.record(letters.combineLatest(digits).map { $0 + $1 })
        let triples = marbles.record(letters.combineLatest(digits, signs).map { $0 + $1 + $2 })
        let all = marbles.record(Source.combineLatest([letters.source, digits.source]).map { $0.joined() })
        marbles.run()
        // At tick 3, b comes before 1 (letters were played first): a is never paired.
        marbles.expect(pairs, "---[b1]-[b2]-[c2]")
        marbles.expect(triples, "---[b1+]-[b2+]-[c2+]")
        marbles.expect(all, "---[b1]-[b2]-[c2]")
    }

    @Test("withLatestFrom pairs each value with the other's latest; sample sends what arrived since")
    func latestPairing() {
        let marbles = MarbleTest()
        let taps = Signal<String>()
        let form = Signal<String>()
        let frames = Signal<String>()
        marbles.play("-a---b-c", into: taps.send)
        marbles.play("--1-2--3", into: form.send)
        marbles.play("--x-x-xx", into: frames.send)
        let submitted = marbles.record(taps.withLatestFrom(form).map { $0 + $1 })
        let sampled = marbles.record(taps.sample(on: frames))
        marbles.run()
        marbles.expect(submitted, "-----[b2]-[c2]")
        marbles.expect(sampled, "--a---bc")
    }

    @Test("the diagrams of the StreamOperators article")
    func articleDiagrams() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        let trigger = Signal<String>()
        let letters = Signal<String>()
        let numbers = Signal<String>()
        let taps = Signal<String>()
        let form = Signal<String>()
        let frames = Signal<String>()
        marbles.play("-a-b-c-d", into: input.send)
        marbles.play("----x---", into: trigger.send)
        marbles.play("-a-b---c", into: letters.send)
        marbles.play("--1-2-3-", into: numbers.send)
        marbles.play("-a---b-c", into: taps.send)
        marbles.play("--1-2--3", into: form.send)
        marbles.play("--x-x-xx", into: frames.send)
        let limited = [
            (marbles.record(input.prefix(2)), "-a-b"),
            (marbles.record(input.take(first: 2)), "-a-b"),
            (marbles.record(input.prefix(while: { $0 < "c" })), "-a-b"),
            (marbles.record(input.first(where: { $0 > "a" })), "---b"),
            (marbles.record(input.dropFirst(2)), "-----c-d"),
            (marbles.record(input.drop(while: { $0 < "c" })), "-----c-d"),
            (marbles.record(input.prefix(untilOutputFrom: trigger)), "-a-b"),
            (marbles.record(input.take(until: trigger)), "-a-b"),
            (marbles.record(input.drop(untilOutputFrom: trigger)), "-----c-d"),
            (marbles.record(input.prepend("x", "y")), "(xy)a-b-c-d"),
            (marbles.record(input.pairwise().map { $0 + $1 }), "---[ab]-[bc]-[cd]"),
            (marbles.record(input.combinePrevious("z").map { $0 + $1 }), "-[za]-[ab]-[bc]-[cd]"),
            (marbles.record(input.collect(2).map { $0.joined() }), "---[ab]---[cd]"),
            (marbles.record(letters.zip(numbers).map { $0 + $1 }), "--[a1]-[b2]--[c3]"),
            (marbles.record(letters.combineLatest(numbers).map { $0 + $1 }), "--[a1][b1][b2]-[b3][c3]"),
            (marbles.record(taps.withLatestFrom(form).map { $0 + $1 }), "-----[b2]-[c2]"),
            (marbles.record(taps.sample(on: frames)), "--a---bc"),
        ]
        marbles.run()
        for (recording, diagram) in limited { marbles.expect(recording, diagram) }
    }

    @Test("delay, timeout and collect by time run on the marble test's scheduler")
    func timed() {
        let marbles = MarbleTest()
        let input = Signal<String>()
        marbles.play("-ab--c-d----e", into: input.send)
        let scheduler = marbles.scheduler
        let delayed = marbles.record(input.delay(for: .seconds(2), scheduler: scheduler))
        let timedOut = marbles.record(input.timeout(.seconds(3), scheduler: scheduler))
        let windows = marbles.record(input.collect(for: .seconds(3), scheduler: scheduler).map { $0.joined() })
        let counted = marbles.record(
            input.collect(for: .seconds(3), maxCount: 2, scheduler: scheduler).map { $0.joined() })
        marbles.run()
        marbles.expect(delayed, "---ab--c-d----e")
        // Silent from d (tick 7) for 3 ticks: stopped at 10, before e.
        marbles.expect(timedOut, "-ab--c-d")
        #expect(input.subscriberCount == 0)
        marbles.expect(windows, "----[ab]---[cd]------e")
        marbles.expect(counted, "--[ab]----[cd]-------e")
    }

    @Test("a delay's waiting values are dropped when it disconnects")
    func delayDisconnect() {
        let scheduler = TestScheduler()
        let input = Signal<Int>()
        var received: [Int] = []
        let connection = input.delay(for: .seconds(1), scheduler: scheduler).subscribe { received.append($0) }
        input.send(1)
        connection.disconnect()
        scheduler.advance(by: .seconds(2))
        #expect(received.isEmpty)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("a negative delay is a precondition failure")
    func negativeDelay() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().delay(for: .seconds(-1), scheduler: TestScheduler())
        }
        expectStandardError(of: result, contains: "Glue: delay needs an interval of zero or more, got -1.0 seconds")
    }

    @Test("flatMap merges every inner source; flatMapLatest and switchToLatest keep the latest only")
    func flattening() {
        let marbles = MarbleTest()
        let outer = Signal<String>()
        let inners = ["a": Signal<String>(), "b": Signal<String>()]
        marbles.play("-a---b---", into: outer.send)
        marbles.play(
            "--1-2-3-4",
            into: { value in
                inners["a"]!.send("a" + value)
                inners["b"]!.send("b" + value)
            })
        let merged = marbles.record(outer.flatMap { inners[$0]! })
        let latest = marbles.record(outer.flatMapLatest { inners[$0]! })
        let switched = marbles.record(outer.map { inners[$0]!.source }.switchToLatest())
        marbles.run()
        marbles.expect(merged, "--[a1]-[a2]-([a3][b3])-([a4][b4])")
        marbles.expect(latest, "--[a1]-[a2]-[b3]-[b4]")
        marbles.expect(switched, "--[a1]-[a2]-[b3]-[b4]")
        #expect(inners["a"]!.subscriberCount == 0 && outer.subscriberCount == 0)
    }

    @Test("a replaced inner source is released at once, and a value it sends on the way is dropped")
    func flattenReleases() {
        let outer = Signal<Int>()
        let first = Signal<String>()
        let second = Signal<String>()
        var received: [String] = []
        let connection = outer.flatMapLatest { $0 == 0 ? first : second }.subscribe { value in
            received.append(value)
            // While "a" is delivered, the outer source switches: "late" was already sent by
            // the first inner, after the switch, and must not pass.
            if value == "a" {
                outer.send(1)
                first.send("late")
            }
        }
        outer.send(0)
        first.send("a")
        second.send("b")
        #expect(received == ["a", "b"])
        #expect(first.subscriberCount == 0)
        connection.disconnect()
        #expect(second.subscriberCount == 0 && outer.subscriberCount == 0)
    }

    @Test("a sink that sends into a zipped input gets the new row after the current one, never nested")
    func zipReentrant() {
        let left = Signal<Int>()
        let right = Signal<Int>()
        var log: [String] = []
        var depth = 0
        let connection = left.zip(right).subscribe { a, b in
            depth += 1
            defer { depth -= 1 }
            log.append("\(a)\(b) at depth \(depth)")
            if a == 1 {
                left.send(2)
                right.send(20)
                log.append("sent")
            }
        }
        left.send(1)
        right.send(10)
        #expect(log == ["110 at depth 1", "sent", "220 at depth 1"])
        connection.disconnect()
        #expect(left.subscriberCount == 0 && right.subscriberCount == 0)
    }

    @Test("a sink that disconnects its prefix during a delivery receives nothing more")
    func disconnectDuringDelivery() {
        let input = Signal<Int>()
        var received: [Int] = []
        var connection: Connection?
        connection = input.prefix(5).subscribe { value in
            received.append(value)
            if value == 2 { connection?.disconnect() }
            if value < 10 { input.send(value + 10) }
        }
        input.send(1)
        input.send(2)
        input.send(3)
        #expect(received == [1, 11, 2])
        #expect(input.subscriberCount == 0)
    }

    @Test("a trigger that sends as it is subscribed ends prefix(untilOutputFrom:) before the input is subscribed")
    func immediateTrigger() {
        let input = Signal<Int>()
        let trigger = Source<Int>.merge(Signal<Int>().source).prepend(0)
        var received: [Int] = []
        let connection = input.prefix(untilOutputFrom: trigger).subscribe { received.append($0) }
        input.send(1)
        #expect(received.isEmpty)
        #expect(input.subscriberCount == 0)
        connection.disconnect()
    }

    @Test("the operators hold their inputs only while subscribed: all freed after disconnection")
    func freedAfterTeardown() {
        weak var weakInput: Signal<Int>?
        weak var weakOther: Signal<Int>?
        do {
            let input = Signal<Int>()
            let other = Signal<Int>()
            weakInput = input
            weakOther = other
            let connections = [
                input.zip(other).subscribe { _ in },
                input.combineLatest(other).subscribe { _ in },
                input.withLatestFrom(other).subscribe { _ in },
                input.sample(on: other).subscribe { _ in },
                input.prefix(untilOutputFrom: other).subscribe { _ in },
                input.drop(untilOutputFrom: other).subscribe { _ in },
                input.pairwise().subscribe { _ in },
                input.collect(3).subscribe { _ in },
            ]
            input.send(1)
            other.send(2)
            for connection in connections { connection.disconnect() }
        }
        #expect(weakInput == nil)
        #expect(weakOther == nil)
    }

    @Test("random interleavings through the limiting, shaping and combining operators match plain-array references")
    func model() {
        var random = SeededGenerator(seed: 39)
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...12, using: &random)).map { _ in Int.random(in: 0...9, using: &random) }
            let otherValues = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Int.random(in: 0...9, using: &random)
            }
            let count = Int.random(in: 0...4, using: &random)
            let limit = Int.random(in: 0...9, using: &random)
            let every = Int.random(in: 1...5, using: &random)
            let input = Signal<Int>()
            let other = Signal<Int>()
            var outputs: [String: [[Int]]] = [:]
            func record(_ name: String) -> ([Int]) -> Void { { outputs[name, default: []].append($0) } }
            let connections = [
                input.prefix(count).subscribe { record("prefix")([$0]) },
                input.dropFirst(count).subscribe { record("dropFirst")([$0]) },
                input.prefix(while: { $0 < limit }).subscribe { record("prefixWhile")([$0]) },
                input.prefix(while: { $0 < limit }, inclusive: true).subscribe {
                    record("prefixWhileInclusive")([$0])
                },
                input.collect(count: max(count, 1), every: every).subscribe(record("collectEvery")),
                input.drop(while: { $0 < limit }).subscribe { record("dropWhile")([$0]) },
                input.first(where: { $0 >= limit }).subscribe { record("firstWhere")([$0]) },
                input.pairwise().subscribe { record("pairwise")([$0, $1]) },
                input.collect(max(count, 1)).subscribe(record("collect")),
                input.zip(other).subscribe { record("zip")([$0, $1]) },
                input.combineLatest(other).subscribe { record("combineLatest")([$0, $1]) },
                input.withLatestFrom(other).subscribe { record("withLatestFrom")([$0, $1]) },
                input.sample(on: other).subscribe { record("sample")([$0]) },
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
                    input.send(value)
                } else {
                    let value = right.removeFirst()
                    latest.1 = value
                    if let l = latest.0 { expected["combineLatest", default: []].append([l, value]) }
                    if let sampled = held { expected["sample", default: []].append([sampled]) }
                    held = nil
                    other.send(value)
                }
            }
            expected.merge(
                orderFreeOperatorReferences(
                    values: values, otherValues: otherValues, count: count, limit: limit, every: every)
            ) { _, new in new }
            for name in Set(expected.keys).union(outputs.keys).sorted() {
                #expect((outputs[name] ?? []) == (expected[name] ?? []), "\(name)")
            }
            for connection in connections { connection.disconnect() }
        }
    }

    @Test(
        "random programs of outer and inner values through flatMap and flatMapLatest match a step-by-step reference; every input is released"
    )
    func flatteningModel() {
        for (round, program) in FlattenProgram.randomPrograms(endings: false).enumerated() {
            let test = MarbleTest()
            let outer = Signal<Int>()
            let inners = (0..<program.innerCount).map { _ in Signal<Int>() }
            program.play(
                in: test, outer: { $0.value.map(outer.send) },
                inner: { index, event in event.value.map(inners[index].send) })
            let cases = [
                (FlattenReferencePolicy.merge(maximum: nil), test.record(outer.flatMap { inners[$0] })),
                (.latest, test.record(outer.flatMapLatest { inners[$0] })),
                (.latest, test.record(outer.map { inners[$0] }.switchToLatest())),
            ]
            test.run()
            expectFlattening(cases.map { ($0, $1.flattenDeliveries) }, for: program, replaysLast: false, round: round)
            #expect(outer.subscriberCount == 0, "round \(round)")
            #expect(inners.allSatisfy { $0.subscriberCount == 0 }, "round \(round):\n\(program)")
        }
    }

    @Test("a negative prefix is a precondition failure")
    func negativePrefix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().prefix(-1)
        }
        expectStandardError(of: result, contains: "prefix(_:) needs a count of zero or more, got -1")
    }

    @Test("collect(0) is a precondition failure")
    func collectZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().collect(0)
        }
        expectStandardError(of: result, contains: "Glue: collect(_:) needs a count of at least 1, got 0")
    }

    @Test("zip of no sources is a precondition failure")
    func zipOfNothing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Source<Int>.zip([])
        }
        expectStandardError(of: result, contains: "Glue: zip and combineLatest need at least one source")
    }
}
