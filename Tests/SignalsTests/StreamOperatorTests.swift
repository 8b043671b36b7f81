import Dispatch
import ReactiveTesting
import Signals
import TestSupport
import Testing

/// A signal of strings played from a marble diagram, as an inline source.
private func played(_ diagram: String, in test: MarbleTest) -> (Signal<String>, MessageSource<String>) {
    let signal = Signal<String>()
    test.play(diagram, failure: Broken() as any Error, events: signal.send(event:))
    return (signal, signal.fired.noDispatch())
}

@Suite("Stream operators: limiting and shaping")
struct LimitShapingOperatorTests {
    @Test("prefix passes the first messages, then ends and releases its input")
    func prefix() {
        let test = MarbleTest()
        let (signal, source) = played("-a-b-c-d-|", in: test)
        let recording = test.record(source.prefix(2))
        test.run()
        test.expect(recording, "-a-(b|)")
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("prefix(0) ends at once without connecting; a negative count is refused")
    func prefixZero() {
        let signal = Signal<Int>(value: 1)
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().prefix(0).logged(into: log, in: observables)
        #expect(log.all == [.finished])
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("prefix(while:), first(where:), dropFirst and drop(while:)")
    func predicates() {
        let test = MarbleTest()
        let (_, source) = played("-a-b-c-a-|", in: test)
        let whileSmall = test.record(source.prefix(while: { $0 < "c" }))
        let firstC = test.record(source.first(where: { $0 == "c" }))
        let afterTwo = test.record(source.dropFirst(2))
        let fromC = test.record(source.drop(while: { $0 != "c" }))
        let first = test.record(source.first())
        test.run()
        test.expect(whileSmall, "-a-b-|")
        test.expect(firstC, "-----(c|)")
        test.expect(afterTwo, "-----c-a-|")
        test.expect(fromC, "-----c-a-|")
        test.expect(first, "-(a|)")
    }

    @Test("prefix(untilOutputFrom:) ends when the trigger sends; drop(untilOutputFrom:) starts then")
    func triggers() {
        let test = MarbleTest()
        let (_, source) = played("-a-b-c-d-|", in: test)
        let (trigger, triggerSource) = played("----x----", in: test)
        let until = test.record(source.prefix(untilOutputFrom: triggerSource))
        let after = test.record(source.drop(untilOutputFrom: triggerSource))
        test.run()
        test.expect(until, "-a-b|")
        test.expect(after, "-----c-d-|")
        #expect(trigger.fired.connectedCount == 0)
    }

    @Test("a trigger with a last message ends prefix(untilOutputFrom:) before it connects")
    func triggerWithLastMessage() {
        let trigger = Property(value: true)
        let signal = Signal<Int>(value: 1)
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().take(until: trigger.didSet).logged(into: log, in: observables)
        #expect(log.all == [.finished])
        #expect(signal.fired.connectedCount == 0)
        #expect(trigger.didSet.connectedCount == 0)
    }

    @Test("a handler that fires the trigger during a delivery ends the chain after that message")
    func reentrantTrigger() {
        let signal = Signal<Int>()
        let stop = Signal<Void>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        let limited = signal.fired.noDispatch().prefix(untilOutputFrom: stop.fired)
        limited.then { if $0 == 2 { stop.fire() } }.logged(into: log, in: observables)
        for value in 1...4 { signal.fire(with: value) }
        #expect(log.all == [.message(1), .message(2), .finished])
    }

    @Test("pairwise, combinePrevious, collect(n), collect(), last, reduce and append")
    func shaping() {
        let test = MarbleTest()
        let (_, source) = played("-a-b-c-|", in: test)
        let pairs = test.record(source.pairwise().map { $0 + $1 })
        let previous = test.record(source.combinePrevious("z").map { $0 + $1 })
        let twos = test.record(source.collect(2).map { $0.joined() })
        let all = test.record(source.collect().map { $0.joined() })
        let last = test.record(source.last())
        let joined = test.record(source.reduce("") { $0 + $1 })
        let appended = test.record(source.append("x", "y"))
        test.run()
        test.expect(pairs, "---[ab]-[bc]-|")
        test.expect(previous, "-[za]-[ab]-[bc]-|")
        test.expect(twos, "---[ab]---(c|)")
        test.expect(all, "-------([abc]|)")
        test.expect(last, "-------(c|)")
        test.expect(joined, "-------([abc]|)")
        test.expect(appended, "-a-b-c-(xy|)")
    }

    @Test("a failure passes through the ending operators without their held values")
    func failureDropsHeldValues() {
        let test = MarbleTest()
        let (_, source) = played("-a-b-#", in: test)
        let all = test.record(source.collect().map { $0.joined() })
        let last = test.record(source.last())
        test.run()
        test.expect(all, "-----#")
        test.expect(last, "-----#")
    }

    @Test("removeDuplicates(by:) compares with the message passed before")
    func removeDuplicates() {
        let test = MarbleTest()
        let (_, source) = played("-a-A-b-B-a-|", in: test)
        let recording = test.record(source.removeDuplicates(by: { $0.lowercased() == $1.lowercased() }))
        let equal = test.record(source.removeDuplicates())
        test.run()
        test.expect(recording, "-a---b---a-|")
        test.expect(equal, "-a-A-b-B-a-|")
    }
}

@Suite("Stream operators: model")
struct StreamOperatorModelTests {
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
            let log = Log<Recorded>()
            let observables = ObservableCollection()
            func record<Output: Sendable>(
                _ name: String, _ chain: StreamModifier<Int, Output>, _ row: @escaping @Sendable (Output) -> [Int]
            ) {
                chain.then { log.append(Recorded(name: name, row: row($0))) }.append(to: observables)
            }
            let source = input.fired.noDispatch()
            let otherSource = other.fired.noDispatch()
            record("prefix", source.prefix(count)) { [$0] }
            record("dropFirst", source.dropFirst(count)) { [$0] }
            record("prefixWhile", source.prefix(while: { $0 < limit })) { [$0] }
            record("prefixWhileInclusive", source.prefix(while: { $0 < limit }, inclusive: true)) { [$0] }
            record("collectEvery", source.collect(count: max(count, 1), every: every)) { $0 }
            record("dropWhile", source.drop(while: { $0 < limit })) { [$0] }
            record("firstWhere", source.first(where: { $0 >= limit })) { [$0] }
            record("pairwise", source.pairwise()) { [$0, $1] }
            record("collect", source.collect(max(count, 1))) { $0 }
            record("zip", source.zip(otherSource)) { [$0, $1] }
            record("withLatestFrom", source.withLatestFrom(otherSource)) { [$0, $1] }
            record("sample", source.sample(on: otherSource)) { [$0] }
            // The references for the operators that depend on the interleaving, kept as it goes.
            var latest: Int?
            var held: Int?
            var expected: [String: [[Int]]] = [:]
            var left = values[...]
            var right = otherValues[...]
            while !left.isEmpty || !right.isEmpty {
                if !left.isEmpty, right.isEmpty || Bool.random(using: &random) {
                    let value = left.removeFirst()
                    held = value
                    if let latest { expected["withLatestFrom", default: []].append([value, latest]) }
                    input.fire(with: value)
                } else {
                    let value = right.removeFirst()
                    latest = value
                    if let sampled = held { expected["sample", default: []].append([sampled]) }
                    held = nil
                    other.fire(with: value)
                }
            }
            expected.merge(
                orderFreeOperatorReferences(
                    values: values, otherValues: otherValues, count: count, limit: limit, every: every)
            ) { _, new in new }
            var outputs: [String: [[Int]]] = [:]
            for recorded in log.all { outputs[recorded.name, default: []].append(recorded.row) }
            for name in Set(expected.keys).union(outputs.keys).sorted() {
                #expect((outputs[name] ?? []) == (expected[name] ?? []), "\(name)")
            }
            observables.removeAll()
        }
    }

    /// One row an operator passed.
    struct Recorded: Sendable {
        var name: String
        var row: [Int]
    }
}

@Suite("Stream operators: combining")
struct CombiningOperatorTests {
    @Test("zip pairs messages in order; it ends when a finished input has nothing queued")
    func zip() {
        let test = MarbleTest()
        let (_, first) = played("-a-b-c-|", in: test)
        let (_, second) = played("--x----y-z-", in: test)
        let recording = test.record(first.zip(second).map { $0 + $1 })
        test.run()
        test.expect(recording, "--[ax]----[by]-([cz]|)")
    }

    @Test("zip of three and of a collection; combineLatest of three and of a collection")
    func manyInputs() {
        let test = MarbleTest()
        let (_, first) = played("-a---b-|", in: test)
        let (_, second) = played("--x----|", in: test)
        let (_, third) = played("---1---|", in: test)
        let zip3 = test.record(first.zip(second, third).map { $0 + $1 + $2 })
        let zipAll = test.record(MessageSource.zip([first, second, third]).map { $0.joined() })
        let latest3 = test.record(first.combineLatest(second, third).map { $0 + $1 + $2 })
        let latestAll = test.record(MessageSource.combineLatest([first, second, third]).map { $0.joined() })
        test.run()
        test.expect(zip3, "---[ax1]---|")
        test.expect(zipAll, "---[ax1]---|")
        test.expect(latest3, "---[ax1]-[bx1]-|")
        test.expect(latestAll, "---[ax1]-[bx1]-|")
    }

    @Test("withLatestFrom pairs each message with the other's latest; sample passes the latest on each trigger")
    func latestPairing() {
        let test = MarbleTest()
        let (_, main) = played("-a--b-c--|", in: test)
        let (_, other) = played("--x--y--|", in: test)
        let (_, trigger) = played("---t-t---t", in: test)
        let pairs = test.record(main.withLatestFrom(other).map { $0 + $1 })
        let samples = test.record(main.sample(on: trigger))
        test.run()
        test.expect(pairs, "----[bx]-[cy]--|")
        test.expect(samples, "---a-b---|")
    }

    @Test("merge of a collection finishes when all finished")
    func mergeMany() {
        let test = MarbleTest()
        let (_, first) = played("-a---|", in: test)
        let (_, second) = played("--b----|", in: test)
        let (_, third) = played("---c|", in: test)
        let recording = test.record(MessageSource.merge([first, second, third]))
        test.run()
        test.expect(recording, "-abc---|")
    }
}

@Suite("Stream operators: flattening")
struct FlattenOperatorTests {
    /// Inner signals by name, each played from its own diagram (ticks count from time zero).
    private static func inners(_ diagrams: [String: String], in test: MarbleTest) -> [String: Signal<String>] {
        diagrams.mapValues { played($0, in: test).0 }
    }

    @Test("flatMap merges every inner source; the chain finishes when all have")
    func flatMap() {
        let test = MarbleTest()
        let (_, outer) = played("-a--b---|", in: test)
        let inners = Self.inners(["a": "--1---2-|", "b": "-----3---4-|"], in: test)
        let recording = test.record(outer.flatMap { inners[$0]!.fired.noDispatch() })
        test.run()
        test.expect(recording, "--1--32--4-|")
    }

    @Test("flatMap(maxConcurrent:) queues; concatMap runs one inner at a time")
    func concat() {
        let test = MarbleTest()
        let (_, outer) = played("-ab----|", in: test)
        let inners = Self.inners(["a": "--1-2|", "b": "--3---4-|"], in: test)
        let recording = test.record(outer.concatMap { inners[$0]!.fired.noDispatch() })
        let limited = test.record(outer.flatMap(maxConcurrent: 1) { inners[$0]!.fired.noDispatch() })
        test.run()
        // b connects when a finishes (tick 5) and is replayed its last message, 3.
        test.expect(recording, "--1-234-|")
        test.expect(limited, "--1-234-|")
    }

    @Test("flatMapLatest releases the previous inner source at once; its later messages are dropped")
    func latest() {
        let test = MarbleTest()
        let (_, outer) = played("-a---b-----|", in: test)
        let inners = Self.inners(["a": "--1---2----", "b": "-------3--|"], in: test)
        let recording = test.record(outer.flatMapLatest { inners[$0]!.fired.noDispatch() })
        test.run()
        test.expect(recording, "--1----3---|")
        #expect(inners["a"]!.fired.connectedCount == 0)
        #expect(inners["b"]!.fired.connectedCount == 0)
    }

    @Test("switching frees the previous inner chain at once, and removal frees the last one")
    func switchFreesInnerChains() {
        final class Box: @unchecked Sendable { weak var chain: AnyObject? }
        let first = Box()
        let second = Box()
        let outer = Signal<Int>()
        let inner = Signal<Int>()
        let observables = ObservableCollection()
        outer.fired.noDispatch().flatMapLatest { index -> MessageSource<Int> in
            let chain = inner.fired.noDispatch().map { $0 + index }
            (index == 0 ? first : second).chain = chain
            return chain
        }.then { _ in }.append(to: observables)
        outer.fire(with: 0)
        #expect(first.chain != nil)
        outer.fire(with: 1)
        #expect(first.chain == nil)
        #expect(second.chain != nil)
        observables.removeAll()
        #expect(second.chain == nil)
        #expect(inner.fired.connectedCount == 0)
    }

    @Test("switchToLatest over a source of sources")
    func switchToLatest() {
        let first = Signal<Int>()
        let second = Signal<Int>()
        let sources = Signal<MessageSource<Int>>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        sources.fired.noDispatch().switchToLatest().logged(into: log, in: observables)
        sources.fire(with: first.fired.noDispatch())
        first.fire(with: 1)
        sources.fire(with: second.fired.noDispatch())
        #expect(first.fired.connectedCount == 0)
        first.fire(with: 2)
        second.fire(with: 3)
        observables.removeAll()
        #expect(second.fired.connectedCount == 0)
        #expect(sources.fired.connectedCount == 0)
        #expect(log.all == [.message(1), .message(3), .interrupted])
    }

    @Test("an inner source's last message is replayed when it connects")
    func innerReplay() {
        let property = Property(value: 10)
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().flatMapLatest { offset in property.didSet.noDispatch().map { $0 + offset } }
            .logged(into: log, in: observables)
        signal.fire(with: 1)
        property.value = 20
        signal.fire(with: 2)
        #expect(log.all == [.message(11), .message(21), .message(22)])
    }

    @Test("a handler that sends to the outer source during an inner's delivery switches after it")
    func reentrantSwitch() {
        let inner = Signal<Int>()
        let other = Signal<Int>()
        let outer = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        let switched = outer.fired.noDispatch().flatMapLatest {
            $0 == 0 ? inner.fired.noDispatch() : other.fired.noDispatch()
        }
        switched.then { if $0 == 1 { outer.fire(with: 1) } }.logged(into: log, in: observables)
        outer.fire(with: 0)
        inner.fire(with: 1)
        inner.fire(with: 2)
        other.fire(with: 3)
        #expect(log.all == [.message(1), .message(3)])
        #expect(inner.fired.connectedCount == 0)
    }

    @Test("a failing inner source fails the chain and releases every input")
    func innerFailure() {
        let test = MarbleTest()
        let (outerSignal, outer) = played("-ab-----", in: test)
        let inners = Self.inners(["a": "---1---", "b": "----#"], in: test)
        let recording = test.record(outer.flatMap { inners[$0]!.fired.noDispatch() })
        test.run()
        test.expect(recording, "---1#")
        #expect(outerSignal.fired.connectedCount == 0)
        #expect(inners["a"]!.fired.connectedCount == 0)
    }

    @Test("inner and outer sources sending from many threads: every inner message of the latest inner passes, in order")
    func concurrentFlatten() async {
        for _ in 0..<10 {
            let outer = Signal<Int>()
            let inners = (0..<4).map { _ in Signal<Int>() }
            let log = Log<Int>()
            let observables = ObservableCollection()
            outer.fired.noDispatch().flatMap { inners[$0].fired.noDispatch() }.then { log.append($0) }
                .append(to: observables)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for index in 0..<4 { outer.fire(with: index) } }
                for (index, inner) in inners.enumerated() {
                    group.addTask { for value in 0..<200 { inner.fire(with: index * 1_000 + value) } }
                }
            }
            // Messages that waited while an inner connected, from other threads, are handed on
            // by a global queue (so that connecting ends): wait until they have been.
            let complete = await eventually {
                let all = log.all
                return (0..<4).allSatisfy { index in
                    let last = all.last { $0 / 1_000 == index }
                    return last == nil || last == index * 1_000 + 199
                }
            }
            #expect(complete)
            // Each inner's messages after it connected pass, in the order sent.
            for index in 0..<4 {
                let mine = log.all.filter { $0 / 1_000 == index }
                #expect(mine == mine.sorted())
                #expect(mine.last == nil || mine.last == index * 1_000 + 199)
            }
        }
    }

    @Test("an inner source connected while another thread fires it is replayed first, then only newer messages")
    func innerReplayWhileFiring() async {
        // Rounds, so that messages arrive while an inner input connects (and wait behind its
        // replay) in nearly every run.
        for _ in 0..<6 {
            let outer = Signal<Int>()
            let inner = Signal<Int>(value: 0)
            let log = Log<Int>()
            let observables = ObservableCollection()
            // Every outer message reconnects to the same inner source.
            outer.fired.noDispatch().flatMapLatest { _ in inner.fired.noDispatch() }.then { log.append($0) }
                .append(to: observables)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for value in 1...20_000 { inner.fire(with: value) } }
                group.addTask { for index in 0..<2_000 { outer.fire(with: index) } }
            }
            // Messages that waited while the last connection connected, from the firing thread,
            // are handed on by a global queue (so that connecting ends): wait until they have
            // been.
            #expect(await eventually { log.all.last == 20_000 })
            let values = log.all
            // Each connection's replay is the newest message remembered, so nothing goes back
            // (a message the previous connection passed may come again as the replay). A
            // connection superseded before its replay arrived passes nothing, so not every
            // switch shows a message; the last connection stays, and passes the newest.
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(values.last == 20_000)
            observables.removeAll()
            #expect(inner.fired.connectedCount == 0)
        }
    }

    @Test("a chain removed on one thread while another switches it: no inner source stays connected")
    func removeWhileSwitching() async {
        for _ in 0..<50 {
            let outer = Signal<Int>()
            let inners = [Signal<Int>(value: 0), Signal<Int>(value: 0)]
            let observables = ObservableCollection()
            weak var weakModifier: StreamModifier<Int, Int>?
            do {
                let switched = outer.fired.noDispatch().flatMapLatest { inners[$0 % 2].fired.noDispatch() }
                weakModifier = switched
                switched.then { _ in }.append(to: observables)
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for index in 0..<200 { outer.fire(with: index) } }
                group.addTask { for value in 0..<200 { inners[value % 2].fire(with: value) } }
                group.addTask { observables.removeAll() }
            }
            // A connect that raced the removal disconnected itself, and let go of its source.
            #expect(inners[0].fired.connectedCount == 0)
            #expect(inners[1].fired.connectedCount == 0)
            #expect(weakModifier == nil)
        }
    }
}

extension FlattenOperatorTests {
    @Test(
        "random programs of outer and inner messages and ends through flatMap, flatMap(maxConcurrent:), concatMap and flatMapLatest match a step-by-step reference; every input is released"
    )
    func flatteningModel() {
        for (round, program) in FlattenProgram.randomPrograms(endings: true).enumerated() {
            let test = MarbleTest()
            let outer = Signal<Int>()
            let inners = (0..<program.innerCount).map { _ in Signal<Int>() }
            func fire(_ signal: Signal<Int>, _ event: StreamEvent<Int, Never>) {
                switch event {
                case .value(let value): signal.fire(with: value)
                case .completion: signal.finish()
                }
            }
            program.play(in: test, outer: { fire(outer, $0) }, inner: { fire(inners[$0], $1) })
            let source = outer.fired.noDispatch()
            let transform: @Sendable (Int) -> MessageSource<Int> = { inners[$0].fired.noDispatch() }
            let cases: [(FlattenReferencePolicy, MarbleRecording<Int, any Error>)] = [
                (.merge(maximum: nil), test.record(source.flatMap(transform))),
                (.merge(maximum: 1), test.record(source.flatMap(maxConcurrent: 1, transform))),
                (.merge(maximum: 1), test.record(source.concatMap(transform))),
                (.merge(maximum: 2), test.record(source.flatMap(maxConcurrent: 2, transform))),
                (.latest, test.record(source.flatMapLatest(transform))),
            ]
            test.run()
            expectFlattening(cases.map { ($0, $1.flattenDeliveries) }, for: program, replaysLast: true, round: round)
            #expect(outer.fired.connectedCount == 0, "round \(round)")
            #expect(inners.allSatisfy { $0.fired.connectedCount == 0 }, "round \(round):\n\(program)")
        }
    }
}

@Suite("Stream operators: time")
struct TimedOperatorTests {
    @Test("delay shifts messages and the finish; a failure passes at once")
    func delay() {
        let test = MarbleTest()
        let (_, source) = played("-a-b---|", in: test)
        let (_, failing) = played("-a-#", in: test)
        let delayed = test.record(source.delay(for: .seconds(2), scheduler: test.scheduler))
        let failed = test.record(failing.delay(for: .seconds(2), scheduler: test.scheduler))
        test.run()
        test.expect(delayed, "---a-b---|")
        test.expect(failed, "---#")
    }

    @Test("timeout ends the chain after a silence; customError makes it fail")
    func timeout() {
        let test = MarbleTest()
        let (signal, source) = played("-a-b------c", in: test)
        let finished = test.record(source.timeout(.seconds(3), scheduler: test.scheduler))
        let failed = test.record(
            source.timeout(.seconds(3), scheduler: test.scheduler, customError: { Broken(code: 9) }))
        test.run()
        test.expect(finished, "-a-b--|")
        test.expect(failed, "-a-b--#")
        #expect(signal.fired.connectedCount == 0)
    }

    @Test("collect(for:maxCount:) sends a window's messages when it closes or fills")
    func collectByTime() {
        let test = MarbleTest()
        let (_, source) = played("-abc---d--|", in: test)
        let recording = test.record(
            source.collect(for: .seconds(3), maxCount: 2, scheduler: test.scheduler).map { $0.joined() })
        test.run()
        test.expect(recording, "--[ab]---c---(d|)")
    }

    @Test("a negative delay, and zip, combineLatest or merge of no source, are precondition failures")
    func streamOperatorMisuse() async {
        let delay = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.delay(for: .seconds(-1), scheduler: TestScheduler())
        }
        expectStandardError(of: delay, contains: "Signals: delay needs an interval of zero or more, got -1")
        let merge = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MessageSource<Int>.merge([])
        }
        expectStandardError(of: merge, contains: "Signals: merge needs at least one source")
        let zip = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MessageSource<Int>.zip([])
        }
        expectStandardError(of: zip, contains: "Signals: zip and combineLatest need at least one source")
        let latest = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MessageSource<Int>.combineLatest([])
        }
        expectStandardError(of: latest, contains: "Signals: zip and combineLatest need at least one source")
        let prefix = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Signal<Int>().fired.prefix(-1)
        }
        expectStandardError(of: prefix, contains: "prefix(_:) needs a count of zero or more, got -1")
    }

    @Test("removing a delayed chain cancels its timers: nothing runs after, and the chain is freed")
    func removalCancelsTimers() {
        let scheduler = TestScheduler()
        let signal = Signal<Int>()
        let log = Log<Seen>()
        let observables = ObservableCollection()
        signal.fired.noDispatch().delay(for: .seconds(1), scheduler: scheduler).logged(into: log, in: observables)
        signal.fire(with: 1)
        observables.removeAll()
        scheduler.advance(by: .seconds(5))
        #expect(log.all == [.interrupted])
        #expect(signal.fired.connectedCount == 0)
    }
}

@Suite("Stream operators: lifetime")
struct StreamOperatorLifetimeTests {
    @Test("removing a chain of stream operators frees every core and releases every input")
    func chainIsFreed() {
        weak var weakModifier: StreamModifier<Int, (Int, Int)>?
        let first = Signal<Int>()
        let second = Signal<Int>()
        let trigger = Signal<Void>()
        let observables = ObservableCollection()
        do {
            let zipped = first.fired.noDispatch().zip(second.fired.noDispatch())
            weakModifier = zipped
            zipped.prefix(untilOutputFrom: trigger.fired).then { _ in }.append(to: observables)
        }
        #expect(weakModifier != nil)
        #expect(trigger.fired.connectedCount == 1)
        observables.removeAll()
        #expect(weakModifier == nil)
        #expect(first.fired.connectedCount == 0)
        #expect(second.fired.connectedCount == 0)
        #expect(trigger.fired.connectedCount == 0)
    }

    @Test("a chain on a queue runs every operator there, and the end after the messages")
    func onAQueue() {
        let queue = DispatchQueue(label: "StreamOperatorLifetimeTests.queue")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let signal = Signal<Int>()
        let other = Signal<Int>()
        let log = Log<Seen>()
        let onQueue = Log<Bool>()
        let observables = ObservableCollection()
        signal.fired.dispatch(to: queue).zip(other.fired).map { $0 + $1 }
            .then { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == true) }
            .then { log.append(.message($0)) }.onEnd { log.append(Seen($0)) }
            .append(to: observables)
        for value in 0..<20 {
            signal.fire(with: value)
            other.fire(with: value)
        }
        signal.finish()
        queue.sync {}
        queue.sync {}
        #expect(log.all == (0..<20).map { .message($0 * 2) } + [.finished])
        #expect(onQueue.all.allSatisfy { $0 })
    }
}
