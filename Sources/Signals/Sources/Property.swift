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

    /// A property holding `value`.
    public init(value: Value) {
        storage = LockedState((value, 0))
        didSet = Endpoint(last: value)
    }

    /// The value; setting it, or changing it in place (`value += 1`), is atomic and sends the
    /// new value.
    public var value: Value {
        get { storage.withLock { $0.value } }
        set { modify { $0 = newValue } }
        _modify {
            let pointer = storage.lockAndAccess()
            defer { unlockAndSend(pointer) }
            yield &pointer.pointee.value
        }
    }

    /// Changes the value in place, atomically, and sends the new value.
    public func modify(_ body: (inout Value) -> Void) {
        let pointer = storage.lockAndAccess()
        defer { unlockAndSend(pointer) }
        body(&pointer.pointee.value)
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
