import Cycle
import Glue
import ReactiveCore
import Resin
import Signals
import TestSupport
import Testing

/// Counts, offsets and durations a user passes, at `Int.max` (and, where a negative one is
/// allowed, `Int.min`), through every paradigm that takes them: nothing traps on overflow or
/// allocates for the count up front.
@Suite("Extreme counts, offsets and durations")
struct ExtremeArgumentTests {
    @Test(
        "collect, prefix, take and dropFirst of Int.max in Glue, Cycle and Signals pass values on as for any large count"
    )
    func extremeCounts() {
        let glue = Glue.Signal<Int>()
        var glueSeen: [String] = []
        let glueConnections = [
            glue.collect(Int.max).subscribe { glueSeen.append("collect \($0)") },
            glue.prefix(Int.max).subscribe { glueSeen.append("prefix \($0)") },
            glue.dropFirst(Int.max).subscribe { glueSeen.append("drop \($0)") },
        ]
        glue.send(1)
        #expect(glueSeen == ["prefix 1"])

        let cycle = EventSubject<Int>()
        var cycleSeen: [String] = []
        let cycleConnections = [
            cycle.stream.collect(Int.max).subscribe { cycleSeen.append("collect \($0)") },
            cycle.stream.take(first: Int.max).subscribe { cycleSeen.append("take \($0)") },
            cycle.stream.dropFirst(Int.max).subscribe { cycleSeen.append("drop \($0)") },
        ]
        cycle.send(1)
        cycle.finish()
        #expect(cycleSeen == ["take 1", "collect [1]"])

        let property = Property(value: 0)
        let signalsSeen = LockedBox<[String]>([])
        let chains = ObservableCollection()
        property.didSet.noDispatch().collect(Int.max).then { value in
            signalsSeen.mutate { $0.append("collect \(value)") }
        }
        .append(to: chains)
        property.didSet.noDispatch().prefix(Int.max).then { value in signalsSeen.mutate { $0.append("prefix \(value)") }
        }
        .append(to: chains)
        property.didSet.noDispatch().discard(first: Int.max).then { value in
            signalsSeen.mutate { $0.append("discard \(value)") }
        }
        .append(to: chains)
        property.value = 1
        #expect(signalsSeen.read { $0 }.filter { $0.hasPrefix("prefix") } == ["prefix 0", "prefix 1"])
        #expect(!signalsSeen.read { $0 }.contains { $0.hasPrefix("discard") || $0.hasPrefix("collect") })
        _ = (glueConnections, cycleConnections)
    }

    @Test(
        "the largest delays and advances trap nowhere: time stops at the last instant a Duration holds, where timers set past it fire"
    )
    func extremeDurations() {
        let scheduler = TestScheduler()
        let fired = LockedBox(0)
        let far = scheduler.schedule(after: .seconds(Int64.max)) { fired.mutate { $0 += 1 } }
        scheduler.advance(by: .seconds(Int64.max / 2))
        #expect(fired.read { $0 } == 0)
        for _ in 0..<40 { scheduler.advance(by: .seconds(Int64.max)) }
        #expect(fired.read { $0 } == 1)
        #expect(scheduler.now == SchedulerInstant(offset: Duration(attoseconds: .max)))
        let later = scheduler.schedule(after: .seconds(Int64.max)) { fired.mutate { $0 += 10 } }
        scheduler.advance(by: .seconds(1))
        #expect(fired.read { $0 } == 11, "a timer past the end of time is at the end of time")
        #expect(
            SchedulerInstant.zero.advanced(by: Duration(attoseconds: .min)).advanced(by: .seconds(-1)).offset
                == Duration(attoseconds: .min))
        _ = (far, later)
    }

    @Test("a stack pops Int.max elements as all of them")
    func extremeStackCounts() {
        var stack = StackState(["a", "b"])
        stack.apply(.pop(count: Int.max))
        #expect(stack.isEmpty)
        stack.append("c")
        #expect(stack.count == 1)
    }
}
