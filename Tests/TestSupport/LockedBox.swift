import Foundation

/// A value shared between threads in a test, behind a lock that ThreadSanitizer sees
/// (`NSLock`, a pthread mutex).
public final class LockedBox<Value>: @unchecked Sendable {
    // Unchecked: `value` is read and written only with `lock` held.
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Changes the value, with the lock held.
    public func mutate(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&value)
    }

    /// Reads from the value, with the lock held.
    public func read<Result>(_ body: (Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(value)
    }
}
