#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a ``DeltaSource`` sends: its changes, grouped by its transactions.
///
/// Every ``delta(_:)`` comes between a ``begin`` and its ``end``; transactions may nest, and
/// only the outermost one counts: a receiver shows the deltas of an outermost transaction
/// together, never some of them.
public enum DeltaEvent<Delta> {
    /// A transaction begins.
    case begin
    /// A change: for a collection, a ``CollectionDelta``; for a single value, the new value.
    case delta(Delta)
    /// The transaction begun by the matching ``begin`` ends.
    case end
}

extension DeltaEvent: Equatable where Delta: Equatable {}
extension DeltaEvent: Sendable where Delta: Sendable {}

/// Something whose changes can drive another paradigm synchronously, delta by delta.
///
/// A source's first transaction, sent while ``subscribeDeltas(_:)`` runs, holds one delta
/// that is its whole current state (a reset, for a collection); every later transaction
/// holds the deltas of one of its own transactions (a Glue transaction, an Incremental
/// propagation, a SignalGraph transition, a Resin action). Applying them in order to that
/// first state always gives the source's state.
///
/// Deltas are delivered where the source delivers its changes: in its isolation domain
/// for single-threaded paradigms, and, for Signals, on the thread that made the change.
public protocol DeltaSource<Delta> {
    /// What one change is: a ``CollectionDelta`` or a whole value.
    associatedtype Delta

    /// Sends the current state to `sink` as one transaction, at once, then every change,
    /// until the returned connection disconnects.
    func subscribeDeltas(_ sink: @escaping (DeltaEvent<Delta>) -> Void) -> Connection

    /// The object whose state these deltas change, if it is one: the object a bridge into
    /// that state names as its target (a variable, an input, a storage, a property).
    ///
    /// A ring of bridges (`a.drive(b)` with `b.drive(a)`) stops where a change comes back to
    /// where it started by comparing these identities with its targets' (see ``drive(_:)``).
    /// The default is the source itself when it is an object, and `nil` otherwise; a source
    /// that wraps an object (a struct that sends a node's or a storage's changes) returns that
    /// object's.
    var bridgeIdentity: ObjectIdentifier? { get }
}

extension DeltaSource {
    /// The source itself when it is an object, `nil` otherwise.
    public var bridgeIdentity: ObjectIdentifier? {
        Self.self is AnyClass ? ObjectIdentifier(self as AnyObject) : nil
    }
}

/// Something another paradigm can drive with deltas, keeping its transactions.
///
/// ``DeltaSource/drive(_:)`` calls ``beginTransaction()`` when an outermost transaction of
/// the source begins, ``apply(_:)`` once with all of its deltas when it ends, then
/// ``endTransaction()``. A target that has transactions of its own (an Incremental graph's
/// batch, a Glue transaction) opens one in ``beginTransaction()`` and closes it in
/// ``endTransaction()``, so that several bridges into one graph, driven by one transaction
/// of the other side, make one change there; a target without them (a SignalGraph storage,
/// a Signals property) applies the deltas as one change of its own.
public protocol DeltaTarget<IncomingDelta>: AnyObject {
    /// What one change is: a ``CollectionDelta`` or a whole value. (Named apart from
    /// ``DeltaSource/Delta`` so that an input that is also a source of other deltas, such
    /// as an Incremental array input, can be both.)
    associatedtype IncomingDelta

    /// A transaction of the source begins; deltas follow.
    func beginTransaction()

    /// Applies the deltas of one transaction of the source, in order, as one change.
    func apply(_ deltas: [IncomingDelta])

    /// The transaction ends: the target may show the change now.
    func endTransaction()
}

extension DeltaTarget {
    /// Does nothing: the target has no transactions of its own.
    public func beginTransaction() {}

    /// Does nothing: the target has no transactions of its own.
    public func endTransaction() {}
}

extension DeltaSource {
    /// Makes `target` follow this source, synchronously and delta by delta, until the
    /// returned connection disconnects.
    ///
    /// ```swift
    /// let rows = ArrayVariable(["a", "b"])          // Glue
    /// let mirror = EditableArrayStorage<String>()    // SignalGraph
    /// let bridge = rows.drive(mirror)                // mirror.state == ["a", "b"]
    /// rows.append("c")                               // one transition: insert "c" at 2
    /// ```
    ///
    /// The target takes the source's state at once, then each of the source's outermost
    /// transactions as one change: a transaction of several edits is one transition of a
    /// SignalGraph storage, one propagation of an Incremental graph, one transaction of a
    /// Glue variable. Each transaction costs O(its edits): nothing is diffed or copied.
    ///
    /// The connection holds the source's subscription and the target. Disconnecting it in the
    /// middle of a transaction ends the target's transaction, without the deltas the
    /// bridge held for it, so the target is never left inside a transaction. A transaction the
    /// source began before the bridge subscribed, and ends after, is not one the target sees:
    /// its deltas reach the target at once.
    ///
    /// The bridge runs where the source delivers (see ``DeltaSource``): in the target's
    /// isolation domain when both are single-threaded and share one. A Signals source
    /// delivers on the thread that changed it; dispatch to the target's queue first.
    ///
    /// ## Rings and two-way bindings
    ///
    /// Bridges may form a ring: `a.drive(b)` with `b.drive(a)` binds two values both ways,
    /// and rings of three or more work alike. A change reaches every member of the ring once
    /// and stops where it began: a bridge leaves out a change of its source that another
    /// bridge is making (its source is that bridge's target) when its own target already took
    /// part in the same cascade of bridge calls (it started the change or was changed by it).
    /// The whole transaction is left out, its begin and end included, so both sides'
    /// transactions stay balanced. A change a handler makes (not a bridge) is never left out.
    ///
    /// The cascade is the bridges' calls into their targets on one thread, nested: a hop
    /// through a queue (Signals' `dispatch(to:)`) starts a new one, so a ring through a queue
    /// stops only where a target ignores a value equal to its own. A ring through sources that
    /// are not objects (``DeltaSource/bridgeIdentity`` is `nil`) cannot be recognized, nor one
    /// whose transformations never agree (`b = 2a` with `a = b`): each is a loop.
    public func drive<Target: DeltaTarget>(_ target: Target) -> Connection where Target.IncomingDelta == Delta {
        let bridge = DeltaBridge(target: target, source: bridgeIdentity)
        let upstream = subscribeDeltas { event in bridge.receive(event) }
        let closing: any ClosableBridge = bridge
        return Connection {
            upstream.disconnect()
            closing.close()
        }
    }
}

/// A bridge as its connection sees it, whatever its target's type.
protocol ClosableBridge: Sendable {
    func close()
}

/// The state of one ``DeltaSource/drive(_:)``: the source's transaction depth and the deltas
/// of the transaction under way.
///
/// Unchecked: deliveries come in the source's domain; `close` may come from any thread
/// through the connection, so every field is guarded by the lock, and the target is called
/// with it released (a target may disconnect the bridge while it applies).
final class DeltaBridge<Target: DeltaTarget>: ClosableBridge, @unchecked Sendable {
    private struct State {
        var target: Target?
        var depth = 0
        var pending: [Target.IncomingDelta] = []
        /// The transactions of the source being left out as echoes of a ring (see
        /// `BridgeCascade`), nested: their events are dropped until the outermost one ends.
        var echoDepth = 0
        /// The thread the source's open transaction began on: where the target lives.
        var transactionThread: pthread_t?
        /// Closed from another thread while the source's transaction was open there: the
        /// source's thread ends the target's transaction at the source's end, and lets go.
        var closing = false
    }

    private let state: LockedState<State>
    private let call: BridgeCascade.Call

    init(target: Target, source: ObjectIdentifier?) {
        state = LockedState(State(target: target))
        call = BridgeCascade.Call(source: source, target: ObjectIdentifier(target))
    }

    func receive(_ event: DeltaEvent<Target.IncomingDelta>) {
        // Whether the event is part of an echo (see `BridgeCascade`) is asked only outside
        // one, at the first event of a transaction or of a change of its own.
        let cascade = BridgeCascade.current
        switch event {
        case .begin:
            let target: Target? = state.withLock { state in
                if state.echoDepth > 0 || cascade.isEcho(call) {
                    state.echoDepth += 1
                    return nil
                }
                state.depth += 1
                guard state.depth == 1, !state.closing else { return nil }
                state.transactionThread = pthread_self()
                return state.target
            }
            if let target { cascade.calling(call) { target.beginTransaction() } }
        case .delta(let delta):
            let target: Target? = state.withLock { state in
                guard state.echoDepth == 0, !state.closing else { return nil }
                guard state.depth == 0 else {
                    state.pending.append(delta)
                    return nil
                }
                return cascade.isEcho(call) ? nil : state.target
            }
            // Outside any transaction (one that began before the bridge subscribed): a
            // change of its own.
            if let target {
                cascade.calling(call) {
                    target.beginTransaction()
                    target.apply([delta])
                    target.endTransaction()
                }
            }
        case .end:
            let finished: (Target, [Target.IncomingDelta])? = state.withLock { state in
                if state.echoDepth > 0 {
                    state.echoDepth -= 1
                    return nil
                }
                guard state.depth > 0 else { return nil }
                state.depth -= 1
                guard state.depth == 0, let target = state.target else { return nil }
                state.transactionThread = nil
                if state.closing {
                    // Closed from another thread meanwhile: end the target's transaction
                    // here, where it lives, without the deltas, and let go.
                    state.closing = false
                    state.target = nil
                    return (target, [])
                }
                defer { state.pending = [] }
                return (target, state.pending)
            }
            if let (target, deltas) = finished {
                cascade.calling(call) {
                    if !deltas.isEmpty { target.apply(deltas) }
                    target.endTransaction()
                }
            }
        }
    }

    /// Lets go of the target, ending its transaction if one is open.
    ///
    /// The target is touched only on the thread where the source delivers: closed there (by
    /// a handler, or between transactions), the open transaction ends at once; closed from
    /// another thread while the source's transaction is open on its own, the source's thread
    /// ends it when the source's transaction ends (the deltas left are dropped), so a graph
    /// on a queue is never called from the disconnecting thread.
    func close() {
        let open: Target? = state.withLock { state in
            state.pending = []
            if state.depth > 0, let thread = state.transactionThread, pthread_equal(thread, pthread_self()) == 0 {
                state.closing = true
                return nil
            }
            defer {
                state.target = nil
                state.depth = 0
                state.echoDepth = 0
                state.transactionThread = nil
                state.closing = false
            }
            return state.depth > 0 ? state.target : nil
        }
        open?.endTransaction()
    }
}

/// The calls bridges are making into their targets on the current thread, outermost first:
/// what lets a ring of bridges stop where a change began.
///
/// A bridge from `a` to `b` calls into `b` (begin, apply, end); `b` tells its own bridges
/// inside that call, and so on around the ring, each call nested in the one before. When the
/// bridge from `b` back to `a` is calling into `a`, `a`'s bridge to `b` hears of the change;
/// its source `a` is the target of a call under way, so the change is a bridge's, and its
/// target `b` is in the cascade, so `b` already has it: an echo, left out. A change a handler
/// makes to `a` while `b` is being applied to is not an echo (`a` is not the target of a call
/// under way), and reaches `b` by the usual rules.
final class BridgeCascade {
    /// One bridge's call into its target: the identities of its source (if known) and target.
    struct Call {
        var source: ObjectIdentifier?
        var target: ObjectIdentifier
    }

    private var calls: [Call] = []

    private static let slot = ThreadLocal { BridgeCascade() }

    /// The current thread's cascade.
    static var current: BridgeCascade { slot.current }

    /// Whether a change of `call`'s source, heard now, is an echo: a bridge is applying it to
    /// the source, and `call`'s target started the cascade or was changed in it. O(depth).
    func isEcho(_ call: Call) -> Bool {
        guard let source = call.source, !calls.isEmpty else { return false }
        guard calls.contains(where: { $0.target == source }) else { return false }
        return calls.contains { $0.target == call.target || $0.source == call.target }
    }

    /// Runs `body`, a call of a bridge into its target, as part of the cascade.
    func calling(_ call: Call, _ body: () -> Void) {
        calls.append(call)
        defer { calls.removeLast() }
        body()
    }
}

/// Any ``Subscribable`` as a ``DeltaSource`` of whole values: each value it delivers is one
/// transaction holding that value.
///
/// ```swift
/// let count = ValueDeltas(store.focus(\.count))   // a Resin focus
/// let bridge = count.drive(variable)              // a Glue variable follows it
/// ```
///
/// The first transaction is whatever the base delivers on subscription: its current value
/// for those that deliver one (Glue observables, Incremental observed values, Resin stores,
/// Signals properties, SignalGraph storages), nothing until the next value for those that do
/// not (a Glue `Signal`, a Cycle stream). Deltas arrive where the base delivers: a Signals
/// source's on the thread it sends from, which must then be the target's domain (or dispatch
/// first, with Signals' `dispatch(to:)`).
public struct ValueDeltas<Base: Subscribable>: DeltaSource {
    /// The source of the values.
    public let base: Base

    /// The values of `base` as deltas.
    public init(_ base: Base) {
        self.base = base
    }

    /// The base, when it is an object (a Signals property, a Resin store, an observed value).
    public var bridgeIdentity: ObjectIdentifier? {
        Base.self is AnyClass ? ObjectIdentifier(base as AnyObject) : nil
    }

    /// Sends each value of the base as one transaction.
    public func subscribeDeltas(_ sink: @escaping (DeltaEvent<Base.Value>) -> Void) -> Connection {
        // The sink runs where the base delivers, which the documentation above makes the
        // caller's domain; see `IsolatedSink`.
        let sink = IsolatedSink(sink)
        return base.subscribe { value in
            sink(.begin)
            sink(.delta(value))
            sink(.end)
        }
    }
}
