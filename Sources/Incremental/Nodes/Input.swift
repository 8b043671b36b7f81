/// A value you write: the sources of an incremental graph.
///
/// ```swift
/// let count = graph.input(0)
/// count.write(1)                 // propagates at once, unless inside graph.batch { }
/// count.value += 1               // the same, through the property
/// ```
///
/// Whether a write changes anything is decided against the value the input's readers last
/// saw (by its cutoff: `==` for `Equatable` values, `===` for class instances): writing an
/// equal value, or writing a value and then, in the same batch, the old one back, changes
/// nothing and recomputes nothing. A write made by an observer applies at once and
/// propagates after the observers of the current propagation have run; a write made from
/// inside a `map` or `flatMap` closure applies after the computation under way.
public class Input<Value>: I<Value> {
    /// The value the readers saw before the writes of this propagation, while
    /// `Flags.hasBase` is set, and its version.
    @usableFromInline let base = allocateSlot(of: Value.self)
    // Unchecked exclusivity, as for the graph's bookkeeping: written on every first write of
    // a propagation, never held across a call that could reach it again.
    @exclusivity(unchecked) @usableFromInline var baseVersion = 0
    /// An object kept alive as long as this input: for owners that must live while anyone
    /// can read the input (Resin keeps a focus in its tree while the focus's state lives).
    /// If it is an ``InputOwner``, it is told when the input goes.
    package var owner: AnyObject?

    init(graph: Graph, value: Value) {
        super.init(graph: Unmanaged.passUnretained(graph), flags: Flags.source)
        current = value
        checkedAt = 0
    }

    deinit {
        if let owner { (owner as? any InputOwner)?.inputWillEnd() }
        if flags & Flags.hasBase != 0 { base.deinitialize(count: 1) }
        deallocateSlot(base)
    }

    /// The input as a derived-value handle, as in Chris Eidhof's Incremental.
    public var i: I<Value> { self }

    /// The input's value, as last written; setting it writes.
    override public var value: Value {
        get {
            if graph.tracker != nil { graph.trackedRead(self) } else { graph.checkNoOtherGraphTracks() }
            return current
        }
        set { write(newValue) }
    }

    /// Writes `newValue` and propagates (at the end of the batch, inside one; after the
    /// computation under way, from inside a closure).
    public func write(_ newValue: Value) {
        writeAny(newValue)
    }

    /// Writes `newValue` and propagates, as the general `write`; chosen when the value is
    /// `Equatable`, so that comparing it with the value the readers saw is specialized for
    /// its type where `write` is called.
    @inlinable
    public final func write(_ newValue: Value) where Value: Equatable {
        guard cutsOffWithEquatable, !graph.mustDeferWrites else { return writeAny(newValue) }
        if slot.pointee == newValue { return }
        if flags & Flags.hasBase == 0 {
            base.moveInitialize(from: slot, count: 1)
            slot.initialize(to: newValue)
            keepBase()
        } else if base.pointee == newValue {
            slot.pointee = newValue
            revertToBase()
        } else {
            slot.pointee = newValue
            graph.inputChanged(self)
        }
        graph.propagate()
    }

    @usableFromInline
    final func writeAny(_ newValue: Value) {
        if graph.mustDeferWrites {
            graph.deferWrite { [self] in apply(newValue) }
            return
        }
        apply(newValue)
        graph.propagate()
    }

    private func apply(_ newValue: Value) {
        guard let equality else {
            current = newValue
            graph.inputChanged(self)
            return
        }
        if equality(current, newValue) { return }
        if flags & Flags.hasBase != 0 {
            if equality(base.pointee, newValue) {
                current = newValue
                revertToBase()
                return
            }
            current = newValue
            graph.inputChanged(self)
        } else {
            base.moveInitialize(from: slot, count: 1)
            slot.initialize(to: newValue)
            keepBase()
        }
    }

    /// Called when the value the readers saw was just moved into `base` (the first change
    /// of this propagation): keeps it until the propagation ends, and records the change.
    @usableFromInline
    final func keepBase() {
        baseVersion = version
        flags |= Flags.hasBase
        graph.inputMovedToBase(self)
    }

    /// Called when a write brought the value back to `base`: to the readers, nothing
    /// changed.
    @usableFromInline
    final func revertToBase() {
        forgetBase()
        graph.inputChanged(self, version: baseVersion)
    }

    override func forgetBase() {
        guard flags & Flags.hasBase != 0 else { return }
        base.deinitialize(count: 1)
        flags &= ~Flags.hasBase
    }

    /// Mutates the stored value in place without telling the graph; for owners that keep
    /// their state in the input (Resin's root store) and report the change with
    /// ``markChanged()`` once they are done. Must not be called during a recomputation.
    package func mutateWithoutPropagating<Result>(_ body: (inout Value) -> Result) -> Result {
        mutateCurrent(body)
    }

    /// Reports that the value changed (in place), as a write that always propagates.
    package func markChanged() {
        graph.write { [self] in graph.inputChanged(self) }
    }

    /// Changes the value in place and propagates.
    public func modify(_ body: (inout Value) -> Void) {
        var copy = current
        body(&copy)
        write(copy)
    }
}

/// An ``Input/owner`` that refers back to its input without keeping it (and without a weak
/// reference, which would slow every retain of the input).
package protocol InputOwner: AnyObject {
    /// Called from the input's `deinit`: forget it.
    func inputWillEnd()
}

/// A node that never changes.
final class ConstantNode<Value>: I<Value> {
    init(graph: Graph, value: Value) {
        super.init(graph: Unmanaged.passUnretained(graph), flags: Flags.source)
        current = value
        checkedAt = 0
    }
}
