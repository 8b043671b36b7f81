import ReactiveCore
import Testing

/// A random program for the model tests of the timed operator options (the timeouts of the
/// first value, the timeouts that switch to a fallback, the trailing-edge throttle) in Glue,
/// Signals and Cycle: arrivals on an input and on a fallback, an interval and a pause, and
/// what each operator passes, from ``timeoutReference(arrivals:interval:first:fallback:)`` and
/// ``pacingReference(_:pause:arrivals:cancels:)``.
///
/// No arrival meets a deadline: the input's arrive at multiples of 4 ticks, the fallback's 2
/// ticks past them, and the interval is odd, so every timeout's deadline is odd. A pause may
/// end at an arrival's instant: the program advances the scheduler (which runs the timers due)
/// before it sends, as the pacing reference assumes.
public struct TimedOptionProgram: CustomStringConvertible, Sendable {
    /// The input's arrivals (values 0, 1, ...), in ticks.
    public let arrivals: [(time: Int, value: Int)]
    /// The fallback's arrivals (values 100, 101, ...), in ticks.
    public let fallbackArrivals: [(time: Int, value: Int)]
    /// The timeouts' interval, in ticks.
    public let intervalTicks: Int
    /// The throttle's pause, in ticks.
    public let pauseTicks: Int

    /// A program drawn from `random`.
    public init(random: inout SeededGenerator) {
        var time = 0
        var arrivals: [(time: Int, value: Int)] = []
        for value in 0..<Int.random(in: 0...8, using: &random) {
            time += 4 * Int.random(in: 0...3, using: &random)
            if let last = arrivals.last, last.time == time { time += 4 }
            arrivals.append((time, value))
        }
        self.arrivals = arrivals
        fallbackArrivals = (0..<Int.random(in: 0...5, using: &random)).map { index in
            (4 * Int.random(in: 0...8, using: &random) + 2, 100 + index)
        }.sorted { $0.time < $1.time }
        intervalTicks = 2 * Int.random(in: 0...4, using: &random) + 1
        pauseTicks = Int.random(in: 0...5, using: &random)
    }

    /// The timeouts' interval.
    public var interval: Duration { .seconds(intervalTicks) }
    /// The throttle's pause.
    public var pause: Duration { .seconds(pauseTicks) }

    /// Plays the arrivals in time order on `scheduler`, then runs it past every deadline.
    public func play(on scheduler: TestScheduler, input: (Int) -> Void, fallback: (Int) -> Void) {
        let all = (arrivals.map { ($0.time, $0.value, true) } + fallbackArrivals.map { ($0.time, $0.value, false) })
            .sorted { $0.0 < $1.0 }
        for (time, value, isInput) in all {
            scheduler.advance(to: .zero + .seconds(time))
            if isInput { input(value) } else { fallback(value) }
        }
        scheduler.advance(by: .seconds(intervalTicks + 3 * pauseTicks + 40))
    }

    /// What each operator passes, by name: "each" and "first" (the timeouts that end),
    /// "eachFallback" and "firstFallback" (those that switch), "trailing" (the throttle); for
    /// a fallback that hands a new subscriber its last value if `fallbackReplaysLast`
    /// (Signals' sources do).
    public func expected(fallbackReplaysLast: Bool) -> [String: [TimedPassage]] {
        let replaysLast = fallbackReplaysLast
        return [
            "each": timeoutReference(arrivals: arrivals, interval: intervalTicks, first: false, fallback: nil).passed,
            "first": timeoutReference(arrivals: arrivals, interval: intervalTicks, first: true, fallback: nil).passed,
            "eachFallback": timeoutReference(
                arrivals: arrivals, interval: intervalTicks, first: false, fallback: fallbackArrivals,
                replaysLast: replaysLast
            ).passed,
            "firstFallback": timeoutReference(
                arrivals: arrivals, interval: intervalTicks, first: true, fallback: fallbackArrivals,
                replaysLast: replaysLast
            ).passed,
            "trailing": pacingReference(.trailingThrottle, pause: pauseTicks, arrivals: arrivals),
        ]
    }

    /// The program's arrivals, interval and pause, for a failure's message.
    public var description: String {
        "arrivals \(arrivals), fallback \(fallbackArrivals), interval \(intervalTicks), pause \(pauseTicks)"
    }
}

/// What the operators of a timed model test passed, by name, each with the tick it passed at;
/// thread-safe, so that Signals' handlers record into it too.
public final class TimedRecording: Sendable {
    private let scheduler: TestScheduler
    private let passages = LockedBox<[String: [TimedPassage]]>([:])

    /// An empty recording, whose ticks are read from `scheduler`.
    public init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// A sink that records each value it is given under `name`, at the scheduler's tick.
    public func record(_ name: String) -> @Sendable (Int) -> Void {
        { [scheduler, passages] value in
            let tick = Int(scheduler.now.offset.components.seconds)
            passages.mutate { $0[name, default: []].append(TimedPassage(time: tick, value: value)) }
        }
    }

    /// What was recorded under each name.
    public var byName: [String: [TimedPassage]] { passages.read { $0 } }
}

extension TimedOptionProgram {
    /// The model test of a paradigm's timed options: for each of `count` seeded programs,
    /// `connect` subscribes the paradigm's operators to an input and a fallback it makes,
    /// recording each operator under its name in ``expected(fallbackReplaysLast:)``, and returns how to send into
    /// the input and the fallback and how to tear down. The program is played, what was
    /// recorded is compared with ``expected(fallbackReplaysLast:)``, and after the teardown
    /// `released` must say that nothing holds the inputs.
    public static func checkRandomPrograms(
        count: UInt64 = 150, fallbackReplaysLast: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ connect: (TimedOptionProgram, TestScheduler, TimedRecording) -> TimedModelRun
    ) {
        for seed in 0..<count {
            var random = SeededGenerator(seed: seed)
            let program = TimedOptionProgram(random: &random)
            let scheduler = TestScheduler()
            let recording = TimedRecording(scheduler: scheduler)
            let run = connect(program, scheduler, recording)
            program.play(on: scheduler, input: run.input, fallback: run.fallback)
            let got = recording.byName
            for (name, want) in program.expected(fallbackReplaysLast: fallbackReplaysLast).sorted(by: {
                $0.key < $1.key
            }) {
                #expect(got[name] ?? [] == want, "seed \(seed), \(name): \(program)", sourceLocation: sourceLocation)
            }
            run.tearDown()
            #expect(
                run.released(), "seed \(seed): an input is still held after the teardown",
                sourceLocation: sourceLocation)
        }
    }
}

/// One program's operators, as a paradigm's timed model test connects them (see
/// ``TimedOptionProgram/checkRandomPrograms(count:fallbackReplaysLast:sourceLocation:_:)``).
public struct TimedModelRun {
    /// Sends a value into the input.
    public var input: (Int) -> Void
    /// Sends a value into the fallback.
    public var fallback: (Int) -> Void
    /// Disconnects every operator.
    public var tearDown: () -> Void
    /// Whether nothing holds the input and the fallback any more.
    public var released: () -> Bool

    /// A run that sends with `input` and `fallback`, tears down with `tearDown`, and checks
    /// with `released`.
    public init(
        input: @escaping (Int) -> Void, fallback: @escaping (Int) -> Void, tearDown: @escaping () -> Void,
        released: @escaping () -> Bool
    ) {
        self.input = input
        self.fallback = fallback
        self.tearDown = tearDown
        self.released = released
    }
}
