import ReactiveCore
import ReactiveTesting
import Testing

/// Random programs for the model tests of the flattening operators (`flatMap`, with and
/// without a maximum, `concatMap`, `flatMapLatest`) in Glue, Signals and Cycle, and what each
/// operator must deliver for them, worked out step by step with plain collections, apart from
/// every operator under test and from ReactiveCore's machines.
///
/// A program has one event per tick: the outer input opens inner input `i` (its value is
/// `i`, and the operator's transform returns inner `i`), an inner input sends a digit or
/// finishes, or the outer input finishes. Inner inputs may send before the outer input opens
/// them: a paradigm whose sources replay their last value (Signals) then hands that value to
/// the operator as it connects.
public struct FlattenProgram: CustomStringConvertible, Sendable {
    /// One event of a program.
    public enum Step: Equatable, Sendable {
        /// The outer input sends `i`: the operator's transform returns inner input `i`.
        case open(Int)
        /// Inner input `i` sends `value`, a digit.
        case send(Int, value: Int)
        /// Inner input `i` finishes.
        case finishInner(Int)
        /// The outer input finishes.
        case finishOuter
    }

    /// How many inner inputs the program uses.
    public let innerCount: Int
    /// The events, the one at index `t` on tick `t + 1` (tick 0 is the subscription).
    public let steps: [Step]

    /// A random program of `length` events over `innerCount` inner inputs; with `endings`
    /// false, nothing finishes (Glue's sources never end).
    public static func random(
        length: Int, innerCount: Int, endings: Bool, using random: inout SeededGenerator
    ) -> FlattenProgram {
        var steps: [Step] = []
        var opened = 0
        var finished = Set<Int>()
        var outerFinished = false
        for _ in 0..<length {
            var choices: [Step] = []
            if !outerFinished, opened < innerCount { choices += [.open(opened), .open(opened)] }
            for inner in 0..<innerCount where !finished.contains(inner) {
                choices.append(.send(inner, value: Int.random(in: 0...9, using: &random)))
                if endings { choices.append(.finishInner(inner)) }
            }
            if endings, !outerFinished { choices.append(.finishOuter) }
            guard let step = choices.randomElement(using: &random) else { break }
            switch step {
            case .open: opened += 1
            case .send: break
            case .finishInner(let inner): finished.insert(inner)
            case .finishOuter: outerFinished = true
            }
            steps.append(step)
        }
        return FlattenProgram(innerCount: innerCount, steps: steps)
    }

    /// The outer input's marble diagram: `i` where it opens inner `i`, `|` where it finishes.
    public var outerDiagram: String {
        diagram { step in
            switch step {
            case .open(let inner): "\(inner)"
            case .finishOuter: "|"
            default: nil
            }
        }
    }

    /// Inner input `inner`'s marble diagram: its digits, and `|` where it finishes.
    public func innerDiagram(_ inner: Int) -> String {
        diagram { step in
            switch step {
            case .send(inner, let value): "\(value)"
            case .finishInner(inner): "|"
            default: nil
            }
        }
    }

    private func diagram(_ symbol: (Step) -> String?) -> String {
        var text = "-"
        for step in steps {
            guard let character = symbol(step) else {
                text += "-"
                continue
            }
            text += character
            if character == "|" { break }
        }
        return text
    }

    /// Plays the program in `test`: the outer input's events into `outer`, inner input
    /// `i`'s into `inner(i, event)`.
    public func play(
        in test: MarbleTest, outer: @escaping (StreamEvent<Int, Never>) -> Void,
        inner: @escaping (Int, StreamEvent<Int, Never>) -> Void
    ) {
        test.play(outerDiagram, values: Self.digits, events: outer)
        for index in 0..<innerCount {
            test.play(innerDiagram(index), values: Self.digits) { inner(index, $0) }
        }
    }

    private static let digits = Dictionary(uniqueKeysWithValues: (0...9).map { ("\($0)", $0) })

    /// The diagrams of the outer input and of every inner input, a line each.
    public var description: String {
        (["outer: " + outerDiagram] + (0..<innerCount).map { "inner \($0): " + innerDiagram($0) })
            .joined(separator: "\n")
    }
}

/// Which flattening operator a reference is worked out for.
public enum FlattenReferencePolicy: Sendable, CustomStringConvertible {
    /// `flatMap`: every opened inner input at once, or at most `maximum`, the rest waiting in
    /// order (`concatMap` is a maximum of 1).
    case merge(maximum: Int?)
    /// `flatMapLatest`: an opened inner input replaces the one before it.
    case latest

    /// The operator's name, as it is called.
    public var description: String {
        switch self {
        case .merge(let maximum?): "flatMap(maxConcurrent: \(maximum))"
        case .merge(nil): "flatMap"
        case .latest: "flatMapLatest"
        }
    }
}

/// One event a flattening operator delivered, and its tick.
public struct FlattenDelivery: Equatable, Sendable, CustomStringConvertible {
    /// The tick of the program's step that caused it.
    public var tick: Int
    /// The value delivered, or `nil` for the operator's finish.
    public var value: Int?

    /// A delivery of `value` (the finish if `nil`) at `tick`.
    public init(tick: Int, value: Int?) {
        self.tick = tick
        self.value = value
    }

    /// The tick and the value, or `|` for the finish.
    public var description: String { "\(tick):\(value.map(String.init) ?? "|")" }
}

/// What a flattening operator with `policy` delivers for `program`.
///
/// `replaysLast`: an inner input hands its last value, if it sent one and has not finished,
/// to the operator as the operator connects to it (Signals). A connection to an inner input
/// that has finished ends at once, and the operator goes on as if that input had just
/// finished. The operator finishes when the outer input has finished and no inner input is
/// connected or waiting; nothing follows its finish.
public func flattenReference(
    _ program: FlattenProgram, policy: FlattenReferencePolicy, replaysLast: Bool
) -> [FlattenDelivery] {
    var deliveries: [FlattenDelivery] = []
    var last: [Int: Int] = [:]
    var finished = Set<Int>()
    var connected: [Int] = []
    var waiting: [Int] = []
    var outerFinished = false
    var ended = false

    func deliver(_ value: Int?, at tick: Int) {
        guard !ended else { return }
        deliveries.append(FlattenDelivery(tick: tick, value: value))
        if value == nil { ended = true }
    }
    func room() -> Bool {
        if case .merge(let maximum?) = policy { return connected.count < maximum }
        return true
    }
    // Connects the waiting inner inputs while there is room; one that has finished ends at once.
    func connectWaiting(at tick: Int) {
        while room(), !waiting.isEmpty {
            let inner = waiting.removeFirst()
            if finished.contains(inner) { continue }
            connected.append(inner)
            if replaysLast, let value = last[inner] { deliver(value, at: tick) }
        }
    }
    func finishIfDone(at tick: Int) {
        if outerFinished, connected.isEmpty, waiting.isEmpty { deliver(nil, at: tick) }
    }

    for (index, step) in program.steps.enumerated() {
        let tick = index + 1
        guard !ended else { break }
        switch step {
        case .open(let inner):
            if case .latest = policy { connected.removeAll() }
            waiting.append(inner)
            connectWaiting(at: tick)
            finishIfDone(at: tick)
        case .send(let inner, let value):
            last[inner] = value
            if connected.contains(inner) { deliver(value, at: tick) }
        case .finishInner(let inner):
            finished.insert(inner)
            last[inner] = nil
            connected.removeAll { $0 == inner }
            connectWaiting(at: tick)
            finishIfDone(at: tick)
        case .finishOuter:
            outerFinished = true
            finishIfDone(at: tick)
        }
    }
    return deliveries
}

extension MarbleRecording where Value == Int {
    /// What the recording holds, as a flattening reference states it: each value with its
    /// tick, and the finish as `nil`. A failure or an interruption, which no program makes,
    /// shows as the value -1, so that it differs from every reference.
    public var flattenDeliveries: [FlattenDelivery] {
        events.map { tick, event in
            switch event {
            case .value(let value): FlattenDelivery(tick: tick, value: value)
            case .completion(.finished): FlattenDelivery(tick: tick, value: nil)
            case .completion: FlattenDelivery(tick: tick, value: -1)
            }
        }
    }
}

extension FlattenProgram {
    /// `count` random programs drawn from `seed`, each of 0 to 24 events over 1 to 5 inner
    /// inputs: what the paradigms' flattening model tests run.
    public static func randomPrograms(count: Int = 150, seed: UInt64 = 3939, endings: Bool) -> [FlattenProgram] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            FlattenProgram.random(
                length: Int.random(in: 0...24, using: &generator), innerCount: Int.random(in: 1...5, using: &generator),
                endings: endings, using: &generator)
        }
    }
}

/// Records an issue for each operator whose deliveries for `program` (the `round`th) differ
/// from ``flattenReference(_:policy:replaysLast:)``'s.
public func expectFlattening(
    _ cases: [(policy: FlattenReferencePolicy, deliveries: [FlattenDelivery])], for program: FlattenProgram,
    replaysLast: Bool, round: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
    for (policy, deliveries) in cases {
        let expected = flattenReference(program, policy: policy, replaysLast: replaysLast)
        #expect(deliveries == expected, "round \(round), \(policy):\n\(program)", sourceLocation: sourceLocation)
    }
}
