/// A value in an incremental graph: an input, a constant, or a value derived from others.
///
/// ```swift
/// let graph = Graph()
/// let name = graph.input("Ada")
/// let greeting: I<String> = name.map { "Hello, \($0)!" }
/// let connection = greeting.observe { print($0) }   // prints "Hello, Ada!"
/// name.write("Grace")                               // prints "Hello, Grace!"
/// ```
///
/// Derived values recompute only when something needs them (an observer, or a read), at
/// most once per propagation, and only after every value they read is current. A closure
/// may throw: the error is then the node's state. See <doc:Semantics>.
public class I<Value>: IncrementalNode {
    // The value lives in a slot rather than in an `Optional<Value>` property: generic code
    // that touches `Optional<Value>` looks up its metadata at run time, which cost more
    // than the rest of a node's recomputation. The slot is at the node's `valueAddress`.
    @inlinable final var slot: UnsafeMutablePointer<Value> {
        @inline(__always) get { valueAddress.assumingMemoryBound(to: Value.self) }
    }
    /// Whether the slot holds a value (a bit of the node's flags).
    @inlinable final var hasValue: Bool {
        get { flags & Flags.hasValue != 0 }
        set { if newValue { flags |= Flags.hasValue } else { flags &= ~Flags.hasValue } }
    }
    // Unchecked: the graph is single-threaded and never holds an access to these across a
    // call that could reach them again; the dynamic checks cost a quarter of a recompute.
    /// Whether the cutoff is the value type's own `==`, applied by code specialized for the
    /// type (``storeEquatable(_:)``) instead of through `equality`. A field of its own, not a
    /// bit of `flags`: a map's store reads it right after the walk wrote `flags`, and reading
    /// the flags there made a deep chain's propagation 10% slower.
    @inlinable final var cutsOffWithEquatable: Bool {
        @inline(__always) get { flags & Flags.equatableCutoff != 0 }
        set { if newValue { flags |= Flags.equatableCutoff } else { flags &= ~Flags.equatableCutoff } }
    }
    /// The cutoff's comparison, unless the node has none, or compares with the type's own
    /// `==` in specialized code only (a `map` to an `Equatable` value).
    @exclusivity(unchecked) @usableFromInline final var equality: ((Value, Value) -> Bool)?
    // Observers in the order they were added: a list of records in the graph's arena (see
    // ``ObserverRecord``), so adding one allocates nothing more and removing one is O(1).
    // The first is `IncrementalNode.firstObserver`, with the fields a propagation reads.
    // Unchecked exclusivity as above.
    @exclusivity(unchecked) final var lastObserver: UnsafeMutablePointer<ObserverRecord>?
    /// Records removed while a delivery was under way, linked through `previous`: freed when
    /// the node's deliveries end.
    @exclusivity(unchecked) final var removedObservers: UnsafeMutablePointer<ObserverRecord>?

    /// `cutoff` nil: the node compares with its type's own `==` in specialized code only
    /// (see ``useEquatableCutoff()``).
    ///
    /// `edgeCapacity`: how many edges the node makes when it is created (its block has room
    /// for them).
    ///
    /// `graph` unmanaged: see ``IncrementalNode``'s initializer.
    init(
        graph: Unmanaged<Graph>, flags: UInt32 = 0, cutoff: Cutoff<Value>? = .default, edgeCapacity: Int = 0,
        first: Unmanaged<IncrementalNode>? = nil, second: Unmanaged<IncrementalNode>? = nil,
        third: Unmanaged<IncrementalNode>? = nil
    ) {
        let block = NodeBlock(for: Value.self, edgeCapacity: edgeCapacity, in: graph)
        block.value.bindMemory(to: Value.self, capacity: 1)
        super.init(graph: graph, flags: flags, block: block, first: first, second: second, third: third)
        if let cutoff {
            setCutoff(cutoff)
        } else {
            useEquatableCutoff()
        }
    }

    deinit {
        // Every observer's connection holds the node, and removed records are freed when
        // deliveries end; none is left, unless a delivery was cut short.
        freeRemovedObservers()
        // A custom cutoff's closure goes to the graph, as kinds' closures do (see `Graph`'s
        // `releaseAfterDeinit`).
        if let equality {
            graph.releaseAfterDeinit(equality)
            self.equality = nil
        }
        if hasValue && !_isPOD(Value.self) { slot.deinitialize(count: 1) }
        // The block itself is freed by `IncrementalNode`, after the edges in it.
        if UnsafeMutableRawPointer(slot) != block { deallocateSlot(slot) }
    }

    /// The stored value; only while ``hasValue``. Setting it stores a first value too.
    final var current: Value {
        get { slot.pointee }
        set {
            if hasValue {
                slot.pointee = newValue
            } else {
                slot.initialize(to: newValue)
                hasValue = true
            }
        }
    }

    /// Mutates the stored value in place (no copy of a copy-on-write buffer).
    final func mutateCurrent<Result>(_ body: (inout Value) -> Result) -> Result {
        body(&slot.pointee)
    }

    /// The current value.
    ///
    /// Reading brings the node up to date first if an input changed since it computed
    /// (observed or not, inside a batch or not), so it is always consistent with the
    /// inputs as last written. Reading an unobserved node computes what it needs on the
    /// spot, each node at most once, without connecting anything. Inside a
    /// ``Graph/computed(_:)-9iakp`` or ``Graph/effect(_:)`` closure, the read makes this node an
    /// input of that computation (unless inside ``Graph/untracked(_:)``).
    ///
    /// - Precondition: The node holds a value, not an error (its closure, or one below it,
    ///   threw). Use ``get()`` or ``result`` where a closure may throw.
    public var value: Value {
        graph.readValue(of: self)
        if let failure {
            preconditionFailure(
                "Incremental: value read of a node that holds an error (\(failure)); read it with get() or result where a closure may throw"
            )
        }
        return current
    }

    /// The current value, or the error the node holds, thrown. Brings the node up to date
    /// as ``value`` does.
    public final func get() throws -> Value {
        graph.readValue(of: self)
        if let failure { throw failure }
        return current
    }

    /// The current value or the error the node holds. Brings the node up to date as
    /// ``value`` does.
    public final var result: Result<Value, any Error> {
        graph.readValue(of: self)
        if let failure { return .failure(failure) }
        return .success(current)
    }

    /// Sets the node's cutoff: when a recomputed value counts as unchanged.
    ///
    /// ```swift
    /// let rounded = reading.map { ($0 * 10).rounded() / 10 }
    /// rounded.setCutoff(.custom { abs($0 - $1) < 0.05 })
    /// ```
    @discardableResult
    public final func setCutoff(_ cutoff: Cutoff<Value>) -> Self {
        cutsOffWithEquatable = false
        equality = cutoff.isEqual
        return self
    }

    /// Stores `newValue` unless the cutoff judges it equal to the current value; returns
    /// whether the value changed. Inlined into the code of a `map` (specialized for its
    /// types) so that storing a value calls no generic code.
    @inlinable @inline(__always)
    final func store(_ newValue: Value) -> Bool {
        if flags & (Flags.hasValue | Flags.failed) == Flags.hasValue {
            if let equality, equality(slot.pointee, newValue) { return false }
            slot.pointee = newValue
            return true
        }
        if flags & (Flags.hasValue | Flags.failed) == 0 {
            slot.initialize(to: newValue)
            flags |= Flags.hasValue
            return true
        }
        return storeFirst(newValue)
    }

    /// ``store(_:)`` for a value type with its own `==`: while the node's cutoff is the
    /// default, the comparison is a direct call to `==`.
    @inlinable @inline(__always)
    final func storeEquatable(_ newValue: Value) -> Bool where Value: Equatable {
        if flags & (Flags.hasValue | Flags.failed) == Flags.hasValue {
            if cutsOffWithEquatable {
                if slot.pointee == newValue { return false }
            } else if let equality, equality(slot.pointee, newValue) {
                return false
            }
            slot.pointee = newValue
            return true
        }
        if flags & (Flags.hasValue | Flags.failed) == 0 {
            slot.initialize(to: newValue)
            flags |= Flags.hasValue
            return true
        }
        return storeFirst(newValue)
    }

    /// Stores a value that replaces an error (or a first value).
    @usableFromInline
    final func storeFirst(_ newValue: Value) -> Bool {
        update(to: newValue) == .changed
    }

    /// Makes the cutoff the value type's own `==`, applied by ``storeEquatable(_:)``. Keeps
    /// `equality` (nil for a node made with `cutoff: nil`, which compares in specialized
    /// code only).
    final func useEquatableCutoff() {
        cutsOffWithEquatable = true
    }

    /// Stores `newValue` unless the cutoff judges it equal to the current value.
    final func update(to newValue: Value) -> Step {
        if hasValue {
            if failure != nil {
                failure = nil
            } else if let equality, equality(slot.pointee, newValue) {
                return .unchanged
            }
            slot.pointee = newValue
        } else {
            slot.initialize(to: newValue)
            hasValue = true
            failure = nil
        }
        return .changed
    }

    /// Makes `error` the node's state.
    final func fail(_ error: any Error) -> Step {
        failure = error
        return .changed
    }

    override var valueDescription: String {
        if let failure { return "error(\(failure))" }
        return hasValue ? String(describing: current) : "–"
    }

    // MARK: Observers

    /// Delivers the current value to `sink` at once, then the new value after each
    /// propagation that changes it, until the connection disconnects.
    ///
    /// Observing makes the node necessary: it and everything it reads are kept up to date.
    /// Observers run after the propagation has made every observed node current. While the
    /// node holds an error (a closure threw), `sink` is not called; use
    /// ``observeResult(_:)`` to receive errors too.
    ///
    /// - Precondition: Not called from inside a `map` or `flatMap` closure.
    @inlinable
    public final func observe(_ sink: __owned @escaping (Value) -> Void) -> Connection {
        // Inlinable: the sink's wrapper is then made for the concrete value type where
        // `observe` is called, rather than looked up at run time on every call. Owned, and
        // consumed: the closure moves into its record, with no reference counted for the
        // move. (Not a `consuming` parameter: Swift 6.3 miscompiles an escaping closure
        // parameter marked so in unoptimized builds, which then call a wrong closure.)
        let record = makeObserver(receivesResults: false)
        valueSink(of: record).initialize(to: Sink(call: consume sink))
        return addObserver(record)
    }

    /// Delivers the current value or error to `sink` at once, then each new value or error
    /// after each propagation that changes it, until the connection disconnects.
    ///
    /// ```swift
    /// let parsed = text.map { try parse($0) }
    /// let connection = parsed.observeResult { result in
    ///     switch result {
    ///     case .success(let number): show(number)
    ///     case .failure(let error): show(error)
    ///     }
    /// }
    /// ```
    ///
    /// - Precondition: Not called from inside a `map` or `flatMap` closure.
    public final func observeResult(_ sink: __owned @escaping (Result<Value, any Error>) -> Void) -> Connection {
        let record = makeObserver(receivesResults: true)
        resultSink(of: record).initialize(to: Sink(call: consume sink))
        return addObserver(record)
    }

    /// A new record from the graph's arena; its sink is for the caller to store.
    @usableFromInline
    final func makeObserver(receivesResults: Bool) -> UnsafeMutablePointer<ObserverRecord> {
        precondition(
            graph.recomputeDepth == 0,
            "Incremental: observe was called while the graph was recomputing (from inside a map or flatMap closure)")
        let memory = graph.allocateBlock(size: ObserverRecord.size, sizeClass: ObserverRecord.sizeClass)
        let record = memory.bindMemory(to: ObserverRecord.self, capacity: 1)
        record.initialize(to: ObserverRecord(receivesResults: receivesResults))
        return record
    }

    // The sink's address as a typed pointer, converted without naming its type's metadata
    // (which this generic code would look up at run time). The closure is wrapped in a
    // struct: stored as a bare pointee, it would be wrapped in a reabstraction thunk, an
    // allocation, because a pointee's function type returns even `Void` indirectly.

    @inlinable @inline(__always)
    final func valueSink(of record: UnsafeMutablePointer<ObserverRecord>) -> UnsafeMutablePointer<Sink<Value>> {
        UnsafeMutablePointer(OpaquePointer(record.sinkAddress))
    }

    @inline(__always)
    private func resultSink(
        of record: UnsafeMutablePointer<ObserverRecord>
    ) -> UnsafeMutablePointer<Sink<Result<Value, any Error>>> {
        UnsafeMutablePointer(OpaquePointer(record.sinkAddress))
    }

    /// Releases the record's sink and gives its memory back to the arena.
    private func free(_ record: UnsafeMutablePointer<ObserverRecord>) {
        // Destroyed without its type (looking it up here would cost more than the rest of an
        // observer's removal): every sink is a ``Sink``, one closure (see ``ErasedClosure``).
        record.sinkAddress.withMemoryRebound(to: ErasedClosure.self, capacity: 1) { _ = $0.move() }
        // Removed records gave their cleanups up; one freed otherwise drops them unrun.
        if record.pointee.hasCleanups { _ = graph.takeCleanups(of: UnsafeRawPointer(record)) }
        // A record is plain data: nothing to destroy.
        record.deinitialize(count: 1)
        graph.deallocateBlock(UnsafeMutableRawPointer(record), sizeClass: ObserverRecord.sizeClass)
    }

    /// Links `record` last, delivers the current value, and makes its connection: the node
    /// is the connection's source, the record's address its token.
    @usableFromInline
    final func addObserver(_ record: UnsafeMutablePointer<ObserverRecord>) -> Connection {
        if let last = lastObserver {
            last.pointee.next = record
            record.pointee.previous = last
        } else {
            firstObserver = record
        }
        lastObserver = record
        graph.addObserver(to: self)
        graph.read(self, propagating: false)
        // Writes the observer makes now are propagated after it returns, as they are when it
        // runs in a propagation: observers never nest.
        // Untracked: an observer added during an effect's run is no part of that run.
        graph.withoutTracking {
            graph.deliveringOutsidePropagation {
                deliver(to: record)
            }
        }
        return Connection(source: self, token: Int(bitPattern: record))
    }

    /// Removes `record` (its connection disconnected), then runs its cleanups and lets go of
    /// its sink (at once, or when the node's deliveries under way end).
    private func remove(_ record: UnsafeMutablePointer<ObserverRecord>) {
        guard record.pointee.isActive else { return }
        record.pointee.isActive = false
        // Unlinked at once; it keeps its `next` while a delivery loop may stand on it.
        let previous = record.pointee.previous
        let next = record.pointee.next
        if let next { next.pointee.previous = previous } else { lastObserver = previous }
        if let previous { previous.pointee.next = next } else { firstObserver = next }
        graph.removeObserver(from: self)
        let cleanups = record.pointee.hasCleanups ? takeCleanups(of: record) : []
        if deliveryDepth == 0 {
            free(record)
        } else {
            record.pointee.previous = removedObservers
            removedObservers = record
        }
        for cleanup in cleanups { cleanup() }
        graph.checkInvariantsAfterOperation()
    }

    #if INCREMENTAL_INTERNAL_CHECKS
        override final var lastObserverForChecks: UnsafeMutablePointer<ObserverRecord>? { lastObserver }

        override final func observerRecordsForChecks() -> [UnsafeMutablePointer<ObserverRecord>] {
            var records: [UnsafeMutablePointer<ObserverRecord>] = []
            var listed = firstObserver
            while let record = listed {
                records.append(record)
                listed = record.pointee.next
            }
            var removed = removedObservers
            while let record = removed {
                records.append(record)
                removed = record.pointee.previous
            }
            return records
        }
    #endif

    /// Frees the records removed during the deliveries that just ended.
    private func freeRemovedObservers() {
        while let record = removedObservers {
            removedObservers = record.pointee.previous
            free(record)
        }
    }

    override func notifyObservers() {
        guard hasComputed, let first = firstObserver else { return }
        // A sink may let go of the last connection to this node while its observers are told:
        // the node then loses its last observer while the round's queue lists it, and the
        // graph holds it until the propagation ends (`Graph.keepAliveIfListed`).
        // One observer (the usual case): no walk.
        if first.pointee.next == nil {
            if first.pointee.isActive && first.pointee.seen != version { deliver(to: first) }
            return
        }
        guard let last = lastObserver else { return }
        deliveryDepth += 1
        // The observers present now, in order; one added meanwhile received the value when
        // it was added. A removed one is skipped, and its `next` still leads on.
        var current: UnsafeMutablePointer<ObserverRecord>? = first
        while let record = current {
            if record.pointee.isActive && record.pointee.seen != version { deliver(to: record) }
            if record == last { break }
            current = record.pointee.next
        }
        deliveryDepth -= 1
        if deliveryDepth == 0 && removedObservers != nil { freeRemovedObservers() }
    }

    /// Calls a result observer's sink. Out of line: the generic `Result` it makes has its
    /// metadata looked up at run time, which a value observer's delivery does not pay.
    @inline(never)
    private func deliverResult(to record: UnsafeMutablePointer<ObserverRecord>) {
        let result: Result<Value, any Error> = failure.map { .failure($0) } ?? .success(slot.pointee)
        callSink(&resultSink(of: record).pointee, with: result)
    }

    /// Runs the observer's cleanups, then the observer with the current value or error.
    private func deliver(to record: UnsafeMutablePointer<ObserverRecord>) {
        // Counted from the start: a cleanup or the sink may disconnect this observer, and its
        // record must outlive this call.
        deliveryDepth += 1
        runObserver(record)
        deliveryDepth -= 1
        if deliveryDepth == 0 && removedObservers != nil { freeRemovedObservers() }
    }

    /// The body of ``deliver(to:)``, inside its count of deliveries.
    @inline(__always)
    private func runObserver(_ record: UnsafeMutablePointer<ObserverRecord>) {
        record.pointee.seen = version
        graph.countDelivery()
        if record.pointee.hasCleanups {
            for cleanup in takeCleanups(of: record) { cleanup() }
        }
        guard record.pointee.isActive else { return }
        let cleanupsBefore = graph.observerWillRun()
        // The value is copied out before the sink runs, so a write the sink makes does not
        // change what it holds.
        if record.pointee.receivesResults {
            deliverResult(to: record)
        } else if failure == nil {
            let value = slot.pointee
            callSink(&valueSink(of: record).pointee, with: value)
        }
        if let cleanups = graph.observerDidRun(cleanupsFrom: cleanupsBefore) { keep(cleanups, for: record) }
    }

    /// Takes the cleanups that `record`'s last run registered from the graph.
    @inline(never)
    private func takeCleanups(of record: UnsafeMutablePointer<ObserverRecord>) -> [() -> Void] {
        record.pointee.hasCleanups = false
        return graph.takeCleanups(of: UnsafeRawPointer(record))
    }

    /// Gives the cleanups registered while an observer ran to its record, or runs them if it
    /// was disconnected meanwhile.
    @inline(never)
    private func keep(_ cleanups: [() -> Void], for record: UnsafeMutablePointer<ObserverRecord>) {
        if record.pointee.isActive {
            graph.keepCleanups(cleanups, of: UnsafeRawPointer(record))
            record.pointee.hasCleanups = true
        } else {
            // Disconnected while it ran: its cleanups run at once.
            for cleanup in cleanups { cleanup() }
        }
    }
}

/// Calls `sink` with `argument`.
///
/// Through an `inout` access, so that the closure is called where it is stored, without
/// the retain and release of its context that copying it out costs (two atomic operations
/// per delivery). Safe because nothing writes a record's sink while a delivery to it is
/// under way: a record removed meanwhile keeps its sink until the node's deliveries end
/// (`deliveryDepth`, `removedObservers`), and a sink is written only when its record is
/// made and destroyed only when the record is freed.
@inline(__always)
private func callSink<Argument>(_ sink: inout Sink<Argument>, with argument: Argument) {
    sink.call(argument)
}

extension I: ConnectionSource {
    /// Removes the observer whose record is at `token` (see ``ObserverRecord``).
    package func disconnect(token: Int) {
        guard let record = UnsafeMutablePointer<ObserverRecord>(bitPattern: token) else { return }
        remove(record)
    }
}

extension I: Subscribable {
    /// Delivers the current value at once, then each new value, until the connection
    /// disconnects: ``observe(_:)`` under the name every paradigm of this package shares,
    /// so `.values` and code written against `Subscribable` work with incremental values.
    public func subscribe(_ sink: @escaping (Value) -> Void) -> Connection {
        observe(sink)
    }
}

/// The error that an invalidated node holds: it was made inside a `flatMap` whose
/// left-hand side has since changed, so its closure may hold values that no longer apply.
public struct InvalidatedNode: Error, CustomStringConvertible, Sendable {
    /// A sentence saying why the node is invalid.
    public var description: String {
        "the node was made inside a flatMap whose left-hand side has since changed"
    }
}
