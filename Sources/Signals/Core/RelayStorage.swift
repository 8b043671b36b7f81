#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A relay's lock, the state it guards and room for its last message, in one allocation:
/// the state is the buffer's header; the pthread mutex comes first among its elements, the
/// message after it. Before, the last message had an allocation of its own beside the lock's:
/// two more per subscription, and one more cache line per hop.
///
/// A pthread mutex, as in the common module's `LockedState`: ThreadSanitizer sees it, where
/// on Linux it cannot see `Synchronization.Mutex` and would report races in users' programs.
/// Not generic, so that making one and locking it look up no metadata.
final class RelayStorage: ManagedBuffer<ObservableState, pthread_mutex_t> {
    /// Makes the storage, with room for a message of `size` bytes aligned to `alignment`.
    static func make(messageSize size: Int, alignment: Int) -> RelayStorage {
        let mutexStride = MemoryLayout<pthread_mutex_t>.stride
        // One mutex, then enough whole mutex-sized units for the message and its padding.
        let units = 1 + (size + alignment + mutexStride - 1) / mutexStride
        let buffer = create(minimumCapacity: units) { _ in ObservableState() }
        // `create` always returns an instance of the class it is called on.
        let storage = unsafeDowncast(buffer, to: RelayStorage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(mutex, nil)
            precondition(result == 0, "pthread_mutex_init failed with \(result)")
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
        }
    }

    /// Where the message goes: after the mutex, aligned to `alignment`. Stable for the
    /// storage's life (a class instance never moves).
    func messageAddress(alignment: Int) -> UnsafeMutableRawPointer {
        withUnsafeMutablePointerToElements { mutex in
            let after = UInt(bitPattern: UnsafeMutableRawPointer(mutex + 1))
            let mask = UInt(alignment) - 1
            return UnsafeMutableRawPointer(bitPattern: (after + mask) & ~mask)!
        }
    }

    /// Runs `body` with exclusive access to the state.
    @inline(__always)
    func withLock<Result>(_ body: (inout ObservableState) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}
