import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread-safe value that sends every new value to the chains connected to ``didSet``.
///
/// ```swift
/// let property = Property<Int>(value: 0)
/// let observables = ObservableCollection()
/// property.didSet
///     .then { print("Value changed to \($0)") }
///     .append(to: observables)
/// for _ in 0..<10 { property.value += 1 }
/// ```
///
/// Reading and writing ``value`` is safe from any thread; `value += 1` and other
/// read-modify-writes are atomic, so increments from many threads are never lost. Reading
/// blocks while another thread writes. The initial value counts as the last message: a
/// chain connected to ``didSet`` receives the current value at once.
public final class Property<Value: Sendable>: Sendable {
    /// The endpoint modifiers connect to.
    public let didSet: Endpoint<Value>
    private let storage: LockedState<(value: Value, sequence: UInt64)>
    /// The thread changing the value in place (holding the lock across a closure), or zero:
    /// a read or write from that thread would wait for itself. Relaxed: only the thread that
    /// stored its own identity can find it here, and it cleared it before unlocking.
    private let changingThread = Atomic<UInt>(0)

    /// A property holding `value`.
    public init(value: Value) {
        storage = LockedState((value, 0))
        didSet = Endpoint(last: value)
    }

    /// The value; setting it, or changing it in place (`value += 1`), is atomic and sends the
    /// new value.
    ///
    /// - Precondition: Not read or written from inside the same property's ``modify(_:)`` (the
    ///   lock is held there: the access would wait for itself). Use the value the closure is
    ///   given.
    public var value: Value {
        get {
            checkNotChanging()
            return storage.withLock { $0.value }
        }
        set { modify { $0 = newValue } }
        _modify {
            checkNotChanging()
            let pointer = storage.lockAndAccess()
            changingThread.store(currentThreadIdentity(), ordering: .relaxed)
            defer {
                changingThread.store(0, ordering: .relaxed)
                unlockAndSend(pointer)
            }
            yield &pointer.pointee.value
        }
    }

    /// Changes the value in place, atomically, and sends the new value.
    ///
    /// ```swift
    /// counter.modify { $0 += step }
    /// ```
    ///
    /// - Precondition: `body` does not read or write this property's ``value`` (nor call
    ///   `modify` on it): the property is locked while `body` runs, so the access would wait
    ///   for itself. Read what you need before, or use the value `body` is given.
    public func modify(_ body: (inout Value) -> Void) {
        checkNotChanging()
        let pointer = storage.lockAndAccess()
        changingThread.store(currentThreadIdentity(), ordering: .relaxed)
        defer {
            changingThread.store(0, ordering: .relaxed)
            unlockAndSend(pointer)
        }
        body(&pointer.pointee.value)
    }

    /// Changes the value in place, atomically, and sends the new value only if `body`
    /// returns true; returns what `body` returned. For a change that depends on the value (a
    /// test and set) and must not send when it does not happen.
    func modify(sendingIf body: (inout Value) -> Bool) -> Bool {
        checkNotChanging()
        let pointer = storage.lockAndAccess()
        changingThread.store(currentThreadIdentity(), ordering: .relaxed)
        let changed = body(&pointer.pointee.value)
        changingThread.store(0, ordering: .relaxed)
        if changed { unlockAndSend(pointer) } else { storage.unlock() }
        return changed
    }

    private func checkNotChanging() {
        precondition(
            changingThread.load(ordering: .relaxed) != currentThreadIdentity(),
            "Signals: a Property was read or written inside its own modify(_:), which holds its lock; use the value the closure is given"
        )
    }

    /// Numbers the write while holding the lock, then sends outside it (so a chain that runs
    /// inline may read the property without deadlock). The endpoint remembers the
    /// highest-numbered value, so its last message always equals the property's value.
    private func unlockAndSend(_ pointer: UnsafeMutablePointer<(value: Value, sequence: UInt64)>) {
        pointer.pointee.sequence += 1
        let (value, sequence) = pointer.pointee
        storage.unlock()
        didSet.fire(value, sequence: sequence)
    }
}

/// The calling thread's identity, never zero.
private func currentThreadIdentity() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
