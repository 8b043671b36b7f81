import ReactiveCore

/// A value that passed an operator at a time (whole ticks), as the references of the timed
/// operators give them.
public struct TimedPassage: Equatable, CustomStringConvertible, Sendable {
    /// When it passed, in ticks.
    public let time: Int
    /// What passed.
    public let value: Int
    /// `value`, passed at `time`.
    public init(time: Int, value: Int) {
        self.time = time
        self.value = value
    }
    /// `value@time`.
    public var description: String { "\(value)@\(time)" }
}

/// The rules written from their definitions, independently of the state machine: a walk over
/// the arrivals with the pause as a plain deadline. A pause ending at an arrival's instant
/// ends before the arrival (the test advances the scheduler, which runs due timers, then
/// sends). `cancels` holds the indices of arrivals just before which the pacer is cancelled.
public func pacingReference(
    _ rule: PacingRule, pause: Int, arrivals: [(time: Int, value: Int)], cancels: Set<Int> = []
) -> [TimedPassage] {
    var passed: [TimedPassage] = []
    switch rule {
    case .leadingThrottle:
        var pauseEnd: Int?
        for (index, arrival) in arrivals.enumerated() {
            if cancels.contains(index) { pauseEnd = nil }
            if let end = pauseEnd, arrival.time < end { continue }
            passed.append(TimedPassage(time: arrival.time, value: arrival.value))
            pauseEnd = arrival.time + pause
        }
    case .throttle, .trailingThrottle:
        // A value arriving with no pause running starts one: it passes at once (on both
        // edges), or is held (the trailing edge alone). One arriving during a pause is held if
        // it is the latest (or, with `latest: false`, the first held). A pause's end passes
        // what is held and starts the next pause, or ends the throttling. A pause of zero
        // passes everything at once.
        let leading = rule != .trailingThrottle
        let latest = rule != .throttle(latest: false)
        var pauseEnd: Int?
        var held: Int?
        func endPauses(upTo time: Int) {
            while let end = pauseEnd, end <= time {
                if let value = held {
                    passed.append(TimedPassage(time: end, value: value))
                    held = nil
                    pauseEnd = end + pause
                } else {
                    pauseEnd = nil
                }
            }
        }
        for (index, arrival) in arrivals.enumerated() {
            if pause > 0 { endPauses(upTo: arrival.time) }
            if cancels.contains(index) { (pauseEnd, held) = (nil, nil) }
            if pause == 0 {
                passed.append(TimedPassage(time: arrival.time, value: arrival.value))
            } else if pauseEnd == nil {
                pauseEnd = arrival.time + pause
                if leading {
                    passed.append(TimedPassage(time: arrival.time, value: arrival.value))
                } else {
                    held = arrival.value
                }
            } else if latest || held == nil {
                held = arrival.value
            }
        }
        if pause > 0 { endPauses(upTo: Int.max) }
    case .debounce:
        // A value passes a pause after it arrived, unless another arrives first or the pacer
        // is cancelled first.
        var pending: TimedPassage?
        for (index, arrival) in arrivals.enumerated() {
            if let due = pending, due.time <= arrival.time {
                passed.append(due)
                pending = nil
            }
            if cancels.contains(index) { pending = nil }
            pending = TimedPassage(time: arrival.time + pause, value: arrival.value)
        }
        if let due = pending { passed.append(due) }
    }
    return passed
}

/// What a timeout passes, written from its definition, independently of ReactiveCore's
/// machine: `arrivals` (increasing times, none at a deadline) pass while each comes before
/// the deadline, which is `interval` after the subscription (at 0) and, unless `first`, after
/// each value; with `first`, a value before the deadline ends the watch. At a deadline the
/// source is cut; then `fallback`'s arrivals after the cut pass, if there is a fallback, after
/// its last arrival before the cut, at the cut, if `replaysLast` (a fallback that hands a new
/// subscriber its last value, as Signals' sources do).
/// Returns what passed and when the source was cut, if it was.
public func timeoutReference(
    arrivals: [(time: Int, value: Int)], interval: Int, first: Bool, fallback: [(time: Int, value: Int)]?,
    replaysLast: Bool = false
) -> (passed: [TimedPassage], cut: Int?) {
    var passed: [TimedPassage] = []
    var deadline: Int? = interval
    var cut: Int?
    for arrival in arrivals {
        if let due = deadline, arrival.time > due {
            cut = due
            break
        }
        passed.append(TimedPassage(time: arrival.time, value: arrival.value))
        deadline = first ? nil : arrival.time + interval
    }
    if cut == nil, let due = deadline { cut = due }
    if let cut, let fallback {
        if replaysLast, let last = fallback.last(where: { $0.time < cut }) {
            passed.append(TimedPassage(time: cut, value: last.value))
        }
        passed += fallback.filter { $0.time > cut }.map { TimedPassage(time: $0.time, value: $0.value) }
    }
    return (passed, cut)
}
