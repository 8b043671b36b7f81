import ReactiveCore
import TestSupport
import Testing

@Suite("Stream operators' state machines, against plain references")
struct StreamStateMachineTests {
    /// Runs `machine` over `values`, with a trigger after `triggerAt` values (if any),
    /// returning what passed and whether it ended, and checking that nothing passes after
    /// an end.
    static func run(
        _ rule: LimitStateMachine<Int>.Rule, _ values: [Int], triggerAt: Int? = nil
    ) -> (passed: [Int], ended: Bool) {
        var machine = LimitStateMachine(rule)
        var passed: [Int] = []
        var ended = machine.isFinished
        for (index, value) in values.enumerated() {
            if index == triggerAt, machine.triggerFired() == .finish { ended = true }
            let action = machine.receive(value)
            if ended {
                guard case .drop = action else {
                    Issue.record("\(rule): \(action) after the end")
                    continue
                }
            }
            switch action {
            case .pass(let value): passed.append(value)
            case .passAndFinish(let value):
                passed.append(value)
                ended = true
            case .drop: break
            case .finish: ended = true
            }
        }
        return (passed, ended)
    }

    @Test("the limiting rules match Swift's prefix, first and drop on random arrays")
    func limits() {
        var random = SeededGenerator(seed: 1)
        for _ in 0..<500 {
            let values = (0..<Int.random(in: 0...10, using: &random)).map { _ in Int.random(in: 0...5, using: &random) }
            let count = Int.random(in: 0...6, using: &random)
            let limit = Int.random(in: 0...5, using: &random)
            let below = { (value: Int) in value < limit }
            let triggerAt = Int.random(in: 0...values.count, using: &random)

            let prefix = Self.run(.prefix(count), values)
            #expect(prefix.passed == Array(values.prefix(count)))
            #expect(prefix.ended == (values.count >= count))

            let prefixWhile = Self.run(.prefixWhile(below), values)
            #expect(prefixWhile.passed == Array(values.prefix(while: below)))
            #expect(prefixWhile.ended == values.contains { !below($0) })
            // Inclusive: the same, and the first value that fails the predicate passes too.
            let inclusive = Self.run(.prefixWhile(below, inclusive: true), values)
            let failing = values.first { !below($0) }
            #expect(inclusive.passed == Array(values.prefix(while: below)) + (failing.map { [$0] } ?? []))
            #expect(inclusive.ended == (failing != nil))

            let first = Self.run(.first(where: below), values)
            #expect(first.passed == values.first(where: below).map { [$0] } ?? [])
            #expect(first.ended == values.contains(where: below))

            #expect(Self.run(.dropFirst(count), values).passed == Array(values.dropFirst(count)))
            #expect(Self.run(.dropWhile(below), values).passed == Array(values.drop(while: below)))

            let until = Self.run(.prefixUntilTrigger, values, triggerAt: triggerAt)
            #expect(until.passed == Array(values.prefix(triggerAt)))
            let after = Self.run(.dropUntilTrigger, values, triggerAt: triggerAt)
            #expect(after.passed == Array(values.dropFirst(triggerAt)))
        }
    }

    @Test("a trigger after the end, or a second one, does nothing; dropping until a trigger stops watching it")
    func triggers() {
        var until = LimitStateMachine<Int>(.prefixUntilTrigger)
        #expect(until.watchesTrigger)
        #expect(until.triggerFired() == .finish)
        #expect(!until.watchesTrigger)
        #expect(until.triggerFired() == .none)
        var after = LimitStateMachine<Int>(.dropUntilTrigger)
        #expect(after.triggerFired() == .releaseTrigger)
        #expect(!after.watchesTrigger)
        #expect(after.triggerFired() == .none)
        var prefix = LimitStateMachine<Int>(.prefix(2))
        #expect(!prefix.watchesTrigger)
        #expect(prefix.triggerFired() == .none)
        prefix.finish()
        guard case .drop = prefix.receive(1) else {
            Issue.record("a finished machine passed a value")
            return
        }
    }

    @Test("zip emits the n-th rows and ends when an ended input has nothing left, against a counting reference")
    func zip() {
        var random = SeededGenerator(seed: 2)
        for _ in 0..<500 {
            let inputs = Int.random(in: 1...3, using: &random)
            var machine = ZipStateMachine<Int>(inputs: inputs)
            // The reference counts values per input and rows made; it never queues.
            var received = Array(repeating: [Int](), count: inputs)
            var ended = Array(repeating: false, count: inputs)
            var rows = 0
            var referenceFinished = false
            var emitted: [[Int]] = []
            var expected: [[Int]] = []
            for step in 0..<Int.random(in: 0...20, using: &random) {
                let input = Int.random(in: 0..<inputs, using: &random)
                if Int.random(in: 0..<8, using: &random) == 0 {
                    let action = machine.inputFinished(input)
                    if !referenceFinished, !ended[input] {
                        ended[input] = true
                        if received[input].count == rows {
                            referenceFinished = true
                            #expect(action == .finish)
                        } else {
                            #expect(action == .none)
                        }
                    } else {
                        #expect(action == .none)
                    }
                } else {
                    let action = machine.receive(step, from: input)
                    if referenceFinished {
                        #expect(action == .none)
                        continue
                    }
                    received[input].append(step)
                    if received.allSatisfy({ $0.count > rows }) {
                        expected.append(received.map { $0[rows] })
                        rows += 1
                        let last = (0..<inputs).contains { ended[$0] && received[$0].count == rows }
                        if last { referenceFinished = true }
                        #expect(action == (last ? .emitAndFinish : .emit))
                        var row = Array(repeating: -1, count: inputs)
                        machine.popRow { row[$0] = $1 }
                        emitted.append(row)
                    } else {
                        #expect(action == .none)
                    }
                }
                #expect(machine.isFinished == referenceFinished)
            }
            #expect(emitted == expected)
        }
    }

    @Test("combineLatest emits every input's latest once all sent, and ends when all end or one ends empty")
    func combineLatest() {
        var random = SeededGenerator(seed: 3)
        for _ in 0..<500 {
            let inputs = Int.random(in: 1...3, using: &random)
            var machine = CombineLatestStateMachine<Int>(inputs: inputs)
            var latest: [Int: Int] = [:]
            var ended: Set<Int> = []
            var finished = false
            for step in 0..<Int.random(in: 0...20, using: &random) {
                let input = Int.random(in: 0..<inputs, using: &random)
                if Int.random(in: 0..<6, using: &random) == 0 {
                    let action = machine.inputFinished(input)
                    if finished {
                        #expect(action == .none)
                        continue
                    }
                    ended.insert(input)
                    finished = latest[input] == nil || ended.count == inputs
                    #expect(action == (finished ? .finish : .none))
                } else {
                    let action = machine.receive(step, from: input)
                    if finished {
                        #expect(action == .none)
                        continue
                    }
                    latest[input] = step
                    if latest.count == inputs {
                        #expect(action == .emit)
                        var row: [Int] = []
                        machine.forEachLatest { _, value in row.append(value) }
                        #expect(row == (0..<inputs).map { latest[$0]! })
                    } else {
                        #expect(action == .none)
                    }
                }
                #expect(machine.isFinished == finished)
            }
        }
    }

    @Test("withLatestFrom pairs with the other's latest; sample passes what was held since the last trigger")
    func latestPairing() {
        var machine = LatestPairingStateMachine<String, Int>()
        #expect(machine.mainSent("a") == nil)
        machine.otherSent(1)
        machine.otherSent(2)
        #expect(machine.mainSent("b").map { "\($0)\($1)" } == "b2")
        #expect(machine.sample() == nil)
        machine.hold("c")
        machine.hold("d")
        #expect(machine.sample() == "d")
        #expect(machine.sample() == nil)
        machine.finish()
        machine.otherSent(3)
        machine.hold("e")
        #expect(machine.mainSent("f") == nil)
        #expect(machine.sample() == nil)
    }

    @Test(
        "flattening: merge with a maximum queues in order, concat runs one, latest replaces; all end when everything has"
    )
    func flatten() {
        var random = SeededGenerator(seed: 4)
        for policy in [FlattenStateMachine<Int>.Policy.merge(maximum: nil), .merge(maximum: 2), .concat, .latest] {
            for _ in 0..<300 {
                var machine = FlattenStateMachine<Int>(policy)
                // The reference: inners started, in order, and which are still running.
                var started: [Int] = []
                var running: [FlattenStateMachine<Int>.InnerID] = []
                var waiting: [Int] = []
                var outerEnded = false
                var finished = false
                func apply(_ action: FlattenStateMachine<Int>.Action) {
                    switch action {
                    case .subscribe(let value, let id, let releasing):
                        if let released = releasing {
                            #expect(running.contains(released))
                            running.removeAll { $0 == released }
                        }
                        started.append(value)
                        running.append(id)
                    case .finish:
                        #expect(!finished)
                        finished = true
                    case .none:
                        break
                    }
                }
                for step in 0..<Int.random(in: 0...25, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<5:
                        guard !outerEnded else { continue }
                        let action = machine.outerSent(step)
                        if case .merge(let maximum?) = policy, running.count >= maximum {
                            waiting.append(step)
                            guard case .none = action else {
                                Issue.record("\(policy): an outer value at the maximum started an inner")
                                continue
                            }
                        }
                        apply(action)
                    case 5..<8:
                        guard let id = running.randomElement(using: &random) else { continue }
                        running.removeAll { $0 == id }
                        let action = machine.innerFinished(id)
                        if !waiting.isEmpty {
                            guard case .subscribe(let value, _, _) = action, value == waiting.removeFirst() else {
                                Issue.record("\(policy): a waiting outer value did not start next, in order")
                                continue
                            }
                        }
                        apply(action)
                    default:
                        guard !outerEnded else { continue }
                        outerEnded = true
                        apply(machine.outerFinished())
                    }
                    if case .merge(let maximum?) = policy { #expect(running.count <= maximum) }
                    if policy == .latest { #expect(running.count <= 1) }
                    #expect(machine.runningInners == running)
                    #expect(finished == (outerEnded && running.isEmpty && waiting.isEmpty))
                    #expect(machine.isFinished == finished)
                    for id in running { #expect(machine.innerMaySend(id) == !finished) }
                }
                #expect(started.count + waiting.count >= started.count)
            }
        }
    }

    @Test("a replaced inner's values may not pass, even when already on their way")
    func replacedInner() {
        var machine = FlattenStateMachine<String>(.latest)
        guard case .subscribe(_, let first, let none) = machine.outerSent("a") else {
            Issue.record("the first outer value started nothing")
            return
        }
        #expect(none == nil)
        guard case .subscribe(_, let second, let released) = machine.outerSent("b") else {
            Issue.record("the second outer value started nothing")
            return
        }
        #expect(released == first)
        #expect(!machine.innerMaySend(first))
        #expect(machine.innerMaySend(second))
        guard case .none = machine.innerFinished(first) else {
            Issue.record("a replaced inner's end did something")
            return
        }
        #expect(machine.cancel() == [second])
        #expect(!machine.innerMaySend(second))
    }

    @Test("collect gathers arrays of its count and flushes the rest; pairwise pairs each value with the one before")
    func shaping() {
        var random = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            let values = (0..<Int.random(in: 0...15, using: &random)).map { _ in Int.random(in: 0...9, using: &random) }
            let count = Int.random(in: 1...4, using: &random)
            var collect = CollectStateMachine<Int>(count: count)
            var batches = values.compactMap { collect.receive($0) }
            batches += collect.finish()
            #expect(
                batches
                    == stride(from: 0, to: values.count, by: count).map {
                        Array(values[$0..<min($0 + count, values.count)])
                    })
            #expect(collect.flush() == nil)

            // Overlapping or spaced arrays: one starts at every `every`-th value, written here
            // from that definition: a full array goes out with its last value, the rest at
            // the end, by their first value.
            let every = Int.random(in: 1...5, using: &random)
            var sliding = CollectStateMachine<Int>(count: count, every: every)
            var emitted: [(at: Int, array: [Int])] = []
            for (index, value) in values.enumerated() {
                if let array = sliding.receive(value) { emitted.append((index, array)) }
            }
            let rest = sliding.finish()
            let starts = Array(stride(from: 0, to: values.count, by: every))
            let full = starts.filter { $0 + count <= values.count }
            #expect(emitted.map(\.at) == full.map { $0 + count - 1 }, "count \(count), every \(every), \(values)")
            #expect(emitted.map(\.array) == full.map { Array(values[$0..<$0 + count]) })
            #expect(rest == starts.filter { $0 + count > values.count }.map { Array(values[$0...]) })
            #expect(sliding.finish().isEmpty && sliding.pending.isEmpty, "finishing again finds nothing open")

            var pairwise = PairwiseStateMachine<Int>()
            #expect(
                values.compactMap { pairwise.receive($0) }.map { [$0, $1] }
                    == Swift.zip(values, values.dropFirst()).map { [$0, $1] })
            var seeded = PairwiseStateMachine<Int>(initial: -1)
            #expect(
                values.compactMap { seeded.receive($0) }.map { [$0, $1] }
                    == Swift.zip([-1] + values, values).map { [$0, $1] })
        }
    }

    @Test("a completion and a stream event carry their values; a Never failure promotes to any failure")
    func vocabulary() {
        struct Failure: Error, Equatable {}
        let event = StreamEvent<Int, Failure>.value(2)
        #expect(event.value == 2 && event.completion == nil)
        #expect(event.map { $0 * 10 } == .value(20))
        let failed = StreamEvent<Int, Failure>.completion(.failed(Failure()))
        #expect(failed.value == nil && failed.completion == .failed(Failure()))
        #expect(Completion<Failure>.failed(Failure()).mapFailure { _ in Failure() } == .failed(Failure()))
        #expect(Completion<Never>.finished.promoted(to: Failure.self) == .finished)
        #expect(Completion<Never>.interrupted.promoted(to: Failure.self) == .interrupted)
    }

    @Test("machines with counts or inputs below their minimum are precondition failures")
    func preconditions() async {
        let prefix = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = LimitStateMachine<Int>(.prefix(-1))
        }
        expectStandardError(of: prefix, contains: "prefix(_:) needs a count of zero or more, got -1")
        let drop = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = LimitStateMachine<Int>(.dropFirst(-2))
        }
        expectStandardError(of: drop, contains: "dropFirst(_:) needs a count of zero or more, got -2")
        let zip = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ZipStateMachine<Int>(inputs: 0)
        }
        expectStandardError(of: zip, contains: "zip needs at least one input, got 0")
        let combine = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CombineLatestStateMachine<Int>(inputs: 0)
        }
        expectStandardError(of: combine, contains: "combineLatest needs at least one input, got 0")
        let flatten = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FlattenStateMachine<Int>(.merge(maximum: 0))
        }
        expectStandardError(of: flatten, contains: "flatMap needs a maximum of at least 1 inner stream, got 0")
        let collect = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CollectStateMachine<Int>(count: 0)
        }
        expectStandardError(of: collect, contains: "collect(_:) needs a count of at least 1, got 0")
    }

    @Test("taking a row or the latest values before the machine says so is a precondition failure")
    func earlyReads() async {
        let row = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = ZipStateMachine<Int>(inputs: 2)
            _ = machine.receive(1, from: 0)
            machine.popRow { _, _ in }
        }
        expectStandardError(of: row, contains: "ZipStateMachine.popRow: an input has no value waiting")
        let latest = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = CombineLatestStateMachine<Int>(inputs: 2)
            _ = machine.receive(1, from: 0)
            machine.forEachLatest { _, _ in }
        }
        expectStandardError(
            of: latest, contains: "CombineLatestStateMachine.forEachLatest: an input has sent nothing yet")
    }
}

@Suite("Timed stream machines: timeout and windows")
struct TimedStreamStateMachineTests {
    static func at(_ seconds: Int) -> SchedulerInstant { .zero + .seconds(seconds) }

    @Test("timeout: each value restarts the timer; only the latest timer times out; nothing after the end")
    func timeout() {
        var machine = TimeoutStateMachine(interval: .seconds(3))
        let first = machine.start(at: Self.at(0))
        #expect(first.deadline == Self.at(3))
        let second = machine.receive(at: Self.at(2))
        #expect(second?.deadline == Self.at(5))
        let staleFired = machine.timerFired(first)
        #expect(!staleFired, "a replaced timer is stale")
        let latestFired = machine.timerFired(second!)
        #expect(latestFired)
        #expect(machine.isFinished)
        #expect(machine.receive(at: Self.at(6)) == nil)
        var ended = TimeoutStateMachine(interval: .seconds(1))
        let timer = ended.start(at: Self.at(0))
        ended.finish()
        let firedAfterEnd = ended.timerFired(timer)
        #expect(!firedAfterEnd)
    }

    @Test("timeout of the first value: a value before the deadline stops the watch for good; none times out")
    func timeoutFirst() {
        var answered = TimeoutStateMachine(interval: .seconds(3), rule: .first)
        let timer = answered.start(at: Self.at(0))
        #expect(answered.receive(at: Self.at(2)) == nil, "no timer after the first value")
        #expect(!answered.isWatching && !answered.isFinished)
        let fired = answered.timerFired(timer)
        #expect(!fired, "the first value made the running timer stale")
        #expect(answered.receive(at: Self.at(100)) == nil && !answered.isFinished, "later silences never time out")

        var silent = TimeoutStateMachine(interval: .seconds(3), rule: .first)
        let deadline = silent.start(at: Self.at(0))
        let timedOut = silent.timerFired(deadline)
        #expect(timedOut && silent.isFinished && !silent.isWatching)
        #expect(silent.receive(at: Self.at(4)) == nil && silent.isFinished, "a value after the timeout is not passed")
        let again = silent.timerFired(deadline)
        #expect(!again, "a timer fires once")
    }

    @Test("windows against a reference that replays the rule: open on a value, close at the deadline or the count")
    func windows() {
        var random = SeededGenerator(seed: 6)
        for _ in 0..<300 {
            let window = Int.random(in: 1...4, using: &random)
            let maxCount: Int? = Bool.random(using: &random) ? Int.random(in: 1...4, using: &random) : nil
            var time = 0
            let arrivals = (0..<Int.random(in: 0...15, using: &random)).map { value -> (Int, Int) in
                time += Int.random(in: 0...2, using: &random)
                return (time, value)
            }
            // The machine, with its timer fired before any value that arrives at or after it.
            var machine = WindowStateMachine<Int>(window: .seconds(window), maxCount: maxCount)
            var timer: StreamTimer?
            var batches: [[Int]] = []
            for (time, value) in arrivals {
                if let running = timer, running.deadline <= Self.at(time) {
                    if let values = machine.timerFired(running) { batches.append(values) }
                    timer = nil
                }
                switch machine.receive(value, at: Self.at(time)) {
                case .none: break
                case .startTimer(let started): timer = started
                case .emit(let values):
                    batches.append(values)
                    timer = nil
                }
            }
            if let values = machine.finish() { batches.append(values) }
            // The reference: windows as spans of arrivals.
            var expected: [[Int]] = []
            var open: (deadline: Int, values: [Int])?
            for (time, value) in arrivals {
                if let current = open, current.deadline <= time {
                    expected.append(current.values)
                    open = nil
                }
                if open == nil { open = (time + window, []) }
                open!.values.append(value)
                if let maxCount, open!.values.count == maxCount {
                    expected.append(open!.values)
                    open = nil
                }
            }
            if let current = open { expected.append(current.values) }
            #expect(batches == expected)
            #expect(batches.allSatisfy { !$0.isEmpty })
        }
    }

    @Test("a timeout or a window of no time, and a window of no values, are precondition failures")
    func timedPreconditions() async {
        let timeout = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TimeoutStateMachine(interval: .zero)
        }
        expectStandardError(of: timeout, contains: "timeout needs a positive interval, got 0")
        let window = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WindowStateMachine<Int>(window: .zero)
        }
        expectStandardError(of: window, contains: "collect by time needs a positive window, got 0")
        let count = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WindowStateMachine<Int>(window: .seconds(1), maxCount: 0)
        }
        expectStandardError(of: count, contains: "collect by time or count needs a count of at least 1, got 0")
        let none = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CollectStateMachine<Int>(count: 0, every: 1)
        }
        expectStandardError(of: none, contains: "collect(count:every:) needs a count of at least 1, got 0")
        let every = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CollectStateMachine<Int>(count: 2, every: 0)
        }
        expectStandardError(of: every, contains: "collect(count:every:) needs an every of at least 1, got 0")
        let neither = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PacingRule.throttle(leading: false, trailing: false)
        }
        expectStandardError(
            of: neither, contains: "a throttle needs its leading or its trailing edge, or both; got neither")
    }
}
