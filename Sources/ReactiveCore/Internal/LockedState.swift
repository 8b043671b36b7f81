#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// State guarded by a pthread mutex, stored with the mutex in one allocation.
///
/// The package's thread-safe types keep their state in a `LockedState` rather than in
/// `Synchronization.Mutex`. On Linux, `Mutex` locks with raw futex calls inside the
/// uninstrumented Synchronization library, so ThreadSanitizer cannot see it and reports a
/// race on every access it guards (a ten-line program shows it). A pthread mutex is
/// intercepted by ThreadSanitizer, so `swift test --sanitize=thread` checks our code and not
/// the lock. `package` access: the paradigm modules use it, users do not see it.
///
/// The lock is not recursive: calling `withLock` on the same state from inside `body`
/// deadlocks. Keep critical sections short and never call out to user code while holding it.
@usableFromInline
package struct LockedState<State> {
    @usableFromInline let storage: LockStorage<State>

    /// Creates the state with its mutex.
    package init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    /// Takes the lock and returns the state's address, valid until ``unlock()``; for a
    /// `_modify` accessor that must yield the state while holding the lock.
    package func lockAndAccess() -> UnsafeMutablePointer<State> {
        storage.lockAndAccess()
    }

    /// Releases the lock taken by ``lockAndAccess()``.
    package func unlock() {
        storage.unlock()
    }
}

// The state is only reached through `withLock`, which holds the mutex; `State: Sendable`
// keeps non-Sendable values from entering or leaving it.
extension LockedState: @unchecked Sendable where State: Sendable {}

/// The state and its mutex in one allocation.
@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    static func make(_ initial: State) -> LockStorage<State> {
        let buffer = create(minimumCapacity: 1) { _ in initial }
        // `create` always returns an instance of the class it is called on.
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { $0.initializeMutex() }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { $0.deinitializeMutex() }
    }

    func lockAndAccess() -> UnsafeMutablePointer<State> {
        withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            return state
        }
    }

    func unlock() {
        withUnsafeMutablePointerToElements { mutex in
            _ = pthread_mutex_unlock(mutex)
        }
    }

    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}

extension UnsafeMutablePointer where Pointee == pthread_mutex_t {
    /// Initializes a mutex with default attributes at this uninitialized address: for lock
    /// storage that shares an allocation with what it guards (``LockedState``'s, and
    /// Signals' relays'). Stops with a message if the system refuses (out of resources).
    package func initializeMutex() {
        initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(self, nil)
        precondition(result == 0, "pthread_mutex_init failed with \(result)")
    }

    /// Destroys the mutex here and leaves the memory uninitialized.
    package func deinitializeMutex() {
        pthread_mutex_destroy(self)
        _ = deinitialize(count: 1)
    }
}
