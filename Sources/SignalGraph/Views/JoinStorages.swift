/// One input of a joining view: a sensor that hands what it senses to the view. Register it on
/// the storage that feeds that side, and deregister it from there before the view goes.
public final class JoinInput<Signal>: Sensor {
    /// The signals it receives.
    public typealias IncomingSignal = Signal
    /// It sends nothing itself: the view it belongs to does.
    public typealias OutgoingSignal = Never

    /// Where the input is registered.
    public let registration = SensorRegistration()
    private let receive: (Signal) -> Void
    /// The join the input belongs to, for inspection.
    weak var owner: AnyObject?

    init(_ receive: @escaping (Signal) -> Void) {
        self.receive = receive
    }

    /// Hands `signal` to the view.
    public func sense(_ signal: Signal) {
        receive(signal)
    }
}

/// A value combined from two value storages, glitch-free: SignalGraph's zip.
///
/// Register ``first`` on one storage and ``second`` on the other. However the two are fed, the
/// join shows each mutation whole: when one mutation reaches both sides (a diamond: two views
/// of one storage), the join changes once, from the value before the mutation to the value
/// after it, never with one side new and the other old.
///
/// ```swift
/// let rows = EditableDictionaryStorage<Int, Int>()
/// let total = DictionaryReducingValueStorage<Int, Int, Int>.sum()
/// let count = DictionaryReducingValueStorage<Int, Int, Int>.count()
/// let mean = ValueJoinStorage(0, 0) { total, count in count == 0 ? 0 : total / count }
/// rows.register(total)
/// rows.register(count)
/// total.register(mean.first)
/// count.register(mean.second)
/// rows[1] = 10
/// rows[2] = 20    // mean goes from 10 to 15 in one transition; it never shows 30 / 1
/// count.deregister(mean.second)
/// total.deregister(mean.first)
/// rows.deregister(count)
/// rows.deregister(total)
/// ```
///
/// How: a side's signal is recorded, and the join computes its value when the outermost
/// delivery on the thread ends (every emitter's entry point is such a delivery), by which time
/// every view the mutation reaches has sensed it. So changes that handlers make during that
/// delivery are folded into the same transition. It sends a transition only when the combined
/// value changes: a mutation that leaves it equal, or that is undone within the delivery,
/// sends nothing. Until both sides have initiated it holds the value it was made with; when a
/// side is deregistered it keeps its last value, as a value replication does, and combines
/// again once that side is registered anew.
///
/// Cost per mutation: one `combine` when the outermost delivery ends.
public final class ValueJoinStorage<First, Second, Value: Equatable>: StateStorage<Value, Value>, Storage {
    /// It takes no signals itself: its inputs do.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = ValueSignal<Value>

    /// The input for the first value.
    public private(set) var first: JoinInput<ValueSignal<First>>!
    /// The input for the second value.
    public private(set) var second: JoinInput<ValueSignal<Second>>!
    private var firstValue: First?
    private var secondValue: Second?
    private let pending = PendingUpdate()
    private let combine: (First, Second) -> Value

    /// A join of the two values with `combine`, holding `combine(first, second)` until its
    /// inputs have initiated.
    public init(_ first: First, _ second: Second, combine: @escaping (First, Second) -> Value) {
        self.combine = combine
        super.init(state: combine(first, second)) { new, state in state = new }
        self.first = JoinInput { [unowned self] signal in
            firstValue = Self.value(after: signal)
            pending.schedule(self) { $0.update() }
        }
        self.second = JoinInput { [unowned self] signal in
            secondValue = Self.value(after: signal)
            pending.schedule(self) { $0.update() }
        }
        self.first.owner = self
        self.second.owner = self
    }

    deinit {
        assert(
            !first.registration.isRegistered && !second.registration.isRegistered,
            "SignalGraph: a join was released while an input was still registered; deregister both first")
    }

    /// The side's value after `signal`; `nil` once the side has terminated.
    private static func value<Side>(after signal: ValueSignal<Side>) -> Side? {
        switch signal {
        case .initiation(let value), .transition(let value): value
        case .termination: nil
        }
    }

    /// Combines the sides, once the outermost delivery has ended.
    private func update() {
        guard let firstValue, let secondValue else { return }
        let value = combine(firstValue, secondValue)
        if value != state { commit(value) }
        #if SIGNALGRAPH_INTERNAL_CHECKS
            signalGraphCheck(state == value, "SG7", "a value join's state is not its sides combined")
        #endif
    }
}

/// An inner join of two dictionary storages by key, glitch-free: an entry for every key both
/// hold, combined from the two values.
///
/// Register ``left`` on one storage and ``right`` on the other. A mutation that reaches both
/// sides (two views of one storage) changes the join once, key by key, from the entries before
/// it to the entries after it: no key is ever shown combining a new value on one side with an
/// old one on the other, and no key appears or disappears in between.
///
/// ```swift
/// let names = EditableDictionaryStorage<Int, String>()
/// let scores = EditableDictionaryStorage<Int, Int>()
/// let board = DictionaryJoinStorage<Int, String, Int, String> { name, score in "\(name): \(score)" }
/// names.register(board.left)
/// scores.register(board.right)
/// names[1] = "ada"
/// scores[1] = 3       // board.state == [1: "ada: 3"]
/// ```
///
/// The join records the keys each side's signals touch and updates those keys when the
/// outermost delivery on the thread ends, sending one transition with an insert, update or
/// delete for each key whose combined value changed (none if none did). An initiation or a
/// termination of a side (a registration or a deregistration) compares every key. A side
/// that terminates is taken as empty, so its keys leave the join until it is registered anew.
///
/// Cost per mutation: O(1) per key a side's signal touches, and one `combine` per key that
/// both sides hold when the delivery ends.
public final class DictionaryJoinStorage<Key: Hashable, Left, Right, Value: Equatable>: StateStorage<
    [Key: Value], DictionaryTransition<Key, Value>
>, Storage
{
    /// It takes no signals itself: its inputs do.
    public typealias IncomingSignal = Never
    /// The signals it sends.
    public typealias OutgoingSignal = DictionarySignal<Key, Value>

    /// The input for the left dictionary.
    public private(set) var left: JoinInput<DictionarySignal<Key, Left>>!
    /// The input for the right dictionary.
    public private(set) var right: JoinInput<DictionarySignal<Key, Right>>!
    private var leftEntries: [Key: Left] = [:]
    private var rightEntries: [Key: Right] = [:]
    /// The keys touched since the join last updated, or `nil` when every key must be compared.
    private var touched: Set<Key>? = []
    private let pending = PendingUpdate()
    private let combine: (Left, Right) -> Value

    /// An empty join that combines the two values of each key with `combine`.
    public init(combine: @escaping (Left, Right) -> Value) {
        self.combine = combine
        super.init(state: [:]) { transition, state in transition.apply(to: &state) }
        left = JoinInput { [unowned self] signal in
            Self.follow(signal, into: &leftEntries, touched: &touched)
            pending.schedule(self) { $0.update() }
        }
        right = JoinInput { [unowned self] signal in
            Self.follow(signal, into: &rightEntries, touched: &touched)
            pending.schedule(self) { $0.update() }
        }
        left.owner = self
        right.owner = self
    }

    deinit {
        assert(
            !left.registration.isRegistered && !right.registration.isRegistered,
            "SignalGraph: a join was released while an input was still registered; deregister both first")
    }

    private static func follow<Side>(
        _ signal: DictionarySignal<Key, Side>, into entries: inout [Key: Side], touched: inout Set<Key>?
    ) {
        switch signal {
        case .initiation(let snapshot):
            entries = snapshot
            touched = nil
        case .termination:
            entries = [:]
            touched = nil
        case .transition(let transition):
            for mutation in transition.mutations {
                switch mutation {
                case .insert(let key, let value), .update(let key, let value):
                    entries[key] = value
                    touched?.insert(key)
                case .delete(let key):
                    entries[key] = nil
                    touched?.insert(key)
                }
            }
        }
    }

    /// Updates the keys the sides touched, once the outermost delivery has ended.
    private func update() {
        let keys = touched ?? Set(state.keys).union(leftEntries.keys)
        touched = []
        var mutations: [DictionaryMutation<Key, Value>] = []
        for key in keys {
            let old = state[key]
            let new = leftEntries[key].flatMap { left in rightEntries[key].map { combine(left, $0) } }
            switch (old, new) {
            case (nil, let new?): mutations.append(.insert(key, new))
            case (let old?, let new?) where old != new: mutations.append(.update(key, new))
            case (.some, nil): mutations.append(.delete(key))
            default: break
            }
        }
        if !mutations.isEmpty { commit(DictionaryTransition(mutations)) }
        _checkInvariants()
    }

    /// Checks SG7: the join's entries are the inner join of its sides, as they last sensed
    /// them. Does nothing unless the module is built with `SIGNALGRAPH_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if SIGNALGRAPH_INTERNAL_CHECKS
            var joined: [Key: Value] = [:]
            for (key, left) in leftEntries {
                if let right = rightEntries[key] { joined[key] = combine(left, right) }
            }
            signalGraphCheck(
                joined == state, "SG7",
                "a dictionary join holds \(state.count) entries; its sides join to \(joined.count), or differ in value")
        #endif
    }
}

extension ValueJoinStorage: JoiningView {
    var inputRegistrations: [SensorRegistration] { [first.registration, second.registration] }
    var inputNames: [String] { ["first", "second"] }
}

extension DictionaryJoinStorage: JoiningView {
    var inputRegistrations: [SensorRegistration] { [left.registration, right.registration] }
    var inputNames: [String] { ["left", "right"] }
}
