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
    public func drive<Target: DeltaTarget>(_ target: Target) -> Connection where Target.IncomingDelta == Delta {
        let bridge = DeltaBridge(target: target)
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
    }

    private let state: LockedState<State>

    init(target: Target) {
        state = LockedState(State(target: target))
    }

    func receive(_ event: DeltaEvent<Target.IncomingDelta>) {
        switch event {
        case .begin:
            let target: Target? = state.withLock { state in
                state.depth += 1
                return state.depth == 1 ? state.target : nil
            }
            target?.beginTransaction()
        case .delta(let delta):
            let target: Target? = state.withLock { state in
                guard state.depth == 0 else {
                    state.pending.append(delta)
                    return nil
                }
                return state.target
            }
            // Outside any transaction (one that began before the bridge subscribed): a
            // change of its own.
            if let target {
                target.beginTransaction()
                target.apply([delta])
                target.endTransaction()
            }
        case .end:
            let finished: (Target, [Target.IncomingDelta])? = state.withLock { state in
                guard state.depth > 0 else { return nil }
                state.depth -= 1
                guard state.depth == 0, let target = state.target else { return nil }
                defer { state.pending = [] }
                return (target, state.pending)
            }
            if let (target, deltas) = finished {
                if !deltas.isEmpty { target.apply(deltas) }
                target.endTransaction()
            }
        }
    }

    /// Lets go of the target, ending its transaction if one is open.
    func close() {
        let open: Target? = state.withLock { state in
            defer {
                state.target = nil
                state.pending = []
                state.depth = 0
            }
            return state.depth > 0 ? state.target : nil
        }
        open?.endTransaction()
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
