/// The rule of `zip`: the n-th values of every input go out together, as one row.
///
/// Each input's values wait in a queue of their own; when every queue holds one, the
/// machine says `.emit` and its owner takes the row with ``popRow(_:)``. The zipped stream
/// ends when an input has ended and its queue is empty: no row can be made any more.
///
/// ```swift
/// var machine = ZipStateMachine<Int>(inputs: 2)
/// _ = machine.receive(1, from: 0)   // .none: input 1 has nothing yet
/// if machine.receive(10, from: 1) == .emit {
///     var row: [Int] = []
///     machine.popRow { _, value in row.append(value) }   // row == [1, 10]
/// }
/// ```
public struct ZipStateMachine<Element> {
    /// What to do after a value or an input's end.
    public enum Action: Equatable, Sendable {
        /// Nothing yet.
        case none
        /// A row is complete: take it with ``ZipStateMachine/popRow(_:)``.
        case emit
        /// A row is complete: take it, then end the stream.
        case emitAndFinish
        /// End the stream.
        case finish
    }

    @usableFromInline
    var queues: [FIFOBuffer<Element>]
    @usableFromInline
    var ended: [Bool]
    /// How many queues are empty (S1).
    @usableFromInline
    var emptyQueues: Int
    /// Whether the zipped stream has ended.
    @usableFromInline var _isFinished = false
    /// Whether the stream has ended.
    @inlinable public var isFinished: Bool { _isFinished }

    /// A machine zipping `inputs` streams.
    ///
    /// - Precondition: `inputs` is at least 1.
    @inlinable
    public init(inputs: Int) {
        precondition(inputs >= 1, "zip needs at least one input, got \(inputs)")
        queues = Array(repeating: FIFOBuffer(), count: inputs)
        ended = Array(repeating: false, count: inputs)
        emptyQueues = inputs
    }

    /// The number of inputs.
    @inlinable
    public var inputCount: Int { queues.count }

    /// Takes in a value of input `input`.
    @inlinable
    public mutating func receive(_ value: Element, from input: Int) -> Action {
        guard !isFinished else { return .none }
        if queues[input].isEmpty { emptyQueues -= 1 }
        queues[input].append(value)
        checkInvariantsAfterOperation()
        guard emptyQueues == 0 else { return .none }
        return endsAfterNextRow() ? .emitAndFinish : .emit
    }

    /// Takes in that input `input` ended.
    @inlinable
    public mutating func inputFinished(_ input: Int) -> Action {
        guard !isFinished, !ended[input] else { return .none }
        ended[input] = true
        guard queues[input].isEmpty else { return .none }
        cancel()
        return .finish
    }

    /// Removes the oldest value of every input, calling `body` with each, first input first.
    ///
    /// - Precondition: the last action was `.emit` or `.emitAndFinish`.
    @inlinable
    public mutating func popRow(_ body: (Int, Element) -> Void) {
        precondition(emptyQueues == 0, "ZipStateMachine.popRow: an input has no value waiting")
        for input in queues.indices {
            let value = queues[input].popFirst()!
            if queues[input].isEmpty { emptyQueues += 1 }
            body(input, value)
        }
        if queues.indices.contains(where: { ended[$0] && queues[$0].isEmpty }) {
            _isFinished = true
            for input in queues.indices { queues[input].removeAll() }
            emptyQueues = queues.count
        }
        checkInvariantsAfterOperation()
    }

    /// Whether the row about to be taken is the last: an ended input holds only it.
    @usableFromInline
    func endsAfterNextRow() -> Bool {
        queues.indices.contains { ended[$0] && queues[$0].count == 1 }
    }

    /// Drops every waiting value and ends: the owner's stream was disconnected.
    @inlinable
    public mutating func cancel() {
        _isFinished = true
        for input in queues.indices { queues[input].removeAll() }
        emptyQueues = queues.count
        checkInvariantsAfterOperation()
    }

    @inlinable @inline(__always)
    func checkInvariantsAfterOperation() {
        #if REACTIVECORE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// Checks S1, stopping with a message that names it when broken. Does nothing unless the
    /// module is built with `REACTIVECORE_INTERNAL_CHECKS`.
    @usableFromInline
    package func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            let empty = queues.count { $0.isEmpty }
            reactiveCoreCheck(
                emptyQueues == empty, "S1", "a zip counts \(emptyQueues) empty queues, and \(empty) are empty")
            reactiveCoreCheck(
                !isFinished || empty == queues.count, "S1", "a finished zip still holds values")
        #endif
    }
}

/// The rule of `combineLatest`: once every input has sent, each value goes out with the
/// latest value of every other input.
///
/// The combined stream ends when every input has ended, or at once when an input ends
/// without ever sending (no row can be made).
///
/// ```swift
/// var machine = CombineLatestStateMachine<Int>(inputs: 2)
/// _ = machine.receive(1, from: 0)   // .none: input 1 has sent nothing
/// if machine.receive(10, from: 1) == .emit {
///     machine.forEachLatest { input, value in print(input, value) }   // 0 1, then 1 10
/// }
/// ```
public struct CombineLatestStateMachine<Element> {
    /// What to do after a value or an input's end.
    public enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// Every input has a latest value: read the row with
        /// ``CombineLatestStateMachine/forEachLatest(_:)``.
        case emit
        /// End the stream.
        case finish
    }

    @usableFromInline
    var latest: [Element?]
    /// How many inputs have sent nothing yet (S2).
    @usableFromInline
    var missing: Int
    @usableFromInline
    var ended: [Bool]
    /// How many inputs have ended (S2).
    @usableFromInline
    var endedCount = 0
    /// Whether the combined stream has ended.
    @usableFromInline var _isFinished = false
    /// Whether the stream has ended.
    @inlinable public var isFinished: Bool { _isFinished }

    /// A machine combining `inputs` streams.
    ///
    /// - Precondition: `inputs` is at least 1.
    @inlinable
    public init(inputs: Int) {
        precondition(inputs >= 1, "combineLatest needs at least one input, got \(inputs)")
        latest = Array(repeating: nil, count: inputs)
        ended = Array(repeating: false, count: inputs)
        missing = inputs
    }

    /// Takes in a value of input `input`.
    @inlinable
    public mutating func receive(_ value: Element, from input: Int) -> Action {
        guard !isFinished else { return .none }
        if latest[input] == nil { missing -= 1 }
        latest[input] = value
        checkInvariantsAfterOperation()
        return missing == 0 ? .emit : .none
    }

    /// Takes in that input `input` ended.
    @inlinable
    public mutating func inputFinished(_ input: Int) -> Action {
        guard !isFinished, !ended[input] else { return .none }
        ended[input] = true
        endedCount += 1
        if latest[input] == nil || endedCount == latest.count {
            _isFinished = true
            latest = latest.map { _ in nil }
            missing = latest.count
        }
        checkInvariantsAfterOperation()
        return isFinished ? .finish : .none
    }

    /// Calls `body` with every input's latest value, first input first.
    ///
    /// - Precondition: the last action was `.emit`.
    @inlinable
    public func forEachLatest(_ body: (Int, Element) -> Void) {
        precondition(missing == 0, "CombineLatestStateMachine.forEachLatest: an input has sent nothing yet")
        for (input, value) in latest.enumerated() { body(input, value!) }
    }

    /// Forgets every value and ends: the owner's stream was disconnected.
    @inlinable
    public mutating func cancel() {
        _isFinished = true
        latest = latest.map { _ in nil }
        missing = latest.count
        checkInvariantsAfterOperation()
    }

    @inlinable @inline(__always)
    func checkInvariantsAfterOperation() {
        #if REACTIVECORE_INTERNAL_CHECKS
            _checkInvariants()
        #endif
    }

    /// Checks S2, stopping with a message that names it when broken. Does nothing unless the
    /// module is built with `REACTIVECORE_INTERNAL_CHECKS`.
    @usableFromInline
    package func _checkInvariants() {
        #if REACTIVECORE_INTERNAL_CHECKS
            let absent = latest.count { $0 == nil }
            reactiveCoreCheck(
                missing == absent, "S2",
                "a combination counts \(missing) inputs without a value, and \(absent) have none")
            let endedInputs = ended.count { $0 }
            reactiveCoreCheck(
                endedCount == endedInputs, "S2",
                "a combination counts \(endedCount) ended inputs, and \(endedInputs) ended")
            reactiveCoreCheck(!isFinished || absent == latest.count, "S2", "a finished combination still holds values")
        #endif
    }
}

/// The rule of `withLatestFrom` and `sample(on:)`: one stream sets a value aside, another
/// decides when it goes out.
///
/// - `withLatestFrom`: each value of the main stream goes out paired with the latest value of
///   the other stream (dropped while the other has sent nothing). The other stream's values
///   alone send nothing. The result ends when the main stream ends.
/// - `sample(on:)`: each value of the main stream replaces the one held; when the trigger
///   sends, the held value goes out and is forgotten (a trigger with nothing held sends
///   nothing). The result ends when the main stream or the trigger ends.
///
/// ```swift
/// var machine = LatestPairingStateMachine<String, Int>()
/// machine.otherSent(1)
/// let pair = machine.mainSent("a")   // ("a", 1)
/// ```
public struct LatestPairingStateMachine<Main, Other> {
    @usableFromInline
    var latestOther: Other?
    @usableFromInline
    var heldMain: Main?
    /// Whether the stream has ended.
    @usableFromInline var _isFinished = false
    /// Whether the stream has ended.
    @inlinable public var isFinished: Bool { _isFinished }

    /// A machine with nothing held.
    @inlinable
    public init() {}

    /// `withLatestFrom`: takes in a value of the main stream, and returns the pair to pass on,
    /// or `nil` (the other stream has sent nothing yet, or the stream ended).
    @inlinable
    public mutating func mainSent(_ value: Main) -> (Main, Other)? {
        guard !isFinished, let latestOther else { return nil }
        return (value, latestOther)
    }

    /// `withLatestFrom`: takes in a value of the other stream.
    @inlinable
    public mutating func otherSent(_ value: Other) {
        guard !isFinished else { return }
        latestOther = value
    }

    /// `sample(on:)`: takes in a value of the sampled stream, which replaces the held one.
    @inlinable
    public mutating func hold(_ value: Main) {
        guard !isFinished else { return }
        heldMain = value
    }

    /// `sample(on:)`: takes in that the trigger sent, and returns the held value to pass on,
    /// which is forgotten, or `nil`.
    @inlinable
    public mutating func sample() -> Main? {
        guard !isFinished else { return nil }
        defer { heldMain = nil }
        return heldMain
    }

    /// Ends: forgets what was held; every later call does nothing.
    @inlinable
    public mutating func finish() {
        _isFinished = true
        latestOther = nil
        heldMain = nil
    }
}
