#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed table of pthread mutexes, shared by small objects that are made in great numbers
/// and rarely contended (a ``Connection``), so that each needs no mutex of its own.
///
/// An object's mutex is picked by its address. Two objects may share a mutex; that is
/// correct as long as no code holds one while taking another (the table's one rule), and
/// cheap because the critical sections are a few stores. A pthread mutex, as in
/// ``LockedState``, so that ThreadSanitizer sees the locking.
package enum StripedLock {
    private static let count = 64

    // Safe without isolation: the pointer is written once, by the lazy initializer of this
    // global (which the runtime runs exactly once), and only read afterwards; the mutexes it
    // points to are never moved or freed.
    private nonisolated(unsafe) static let table: UnsafeMutablePointer<pthread_mutex_t> = {
        let table = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
        for index in 0..<count {
            (table + index).initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(table + index, nil)
            precondition(result == 0, "pthread_mutex_init failed with \(result)")
        }
        return table
    }()

    /// The mutex that guards `object`'s state.
    @inline(__always)
    package static func mutex(for object: AnyObject) -> UnsafeMutablePointer<pthread_mutex_t> {
        // Objects are at least 16-byte aligned; the bits above those pick the stripe.
        let address = UInt(bitPattern: ObjectIdentifier(object))
        return table + Int((address >> 4) & UInt(count - 1))
    }

    /// Runs `body` holding `object`'s mutex. `body` must not take another striped lock.
    @inline(__always)
    package static func withLock<Result>(for object: AnyObject, _ body: () throws -> Result) rethrows -> Result {
        let mutex = mutex(for: object)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
