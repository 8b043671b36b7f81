#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One instance of `Value` per thread, made on the thread's first use and released when the
/// thread exits.
///
/// Safe to share: the key is written once, at initialization, and each thread reads and
/// writes only its own slot.
package final class ThreadLocal<Value: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    /// A slot per thread, each filled by `make` when the thread first asks.
    package init(_ make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        #if canImport(Darwin)
            let result = pthread_key_create(&key) { Unmanaged<AnyObject>.fromOpaque($0).release() }
        #else
            let result = pthread_key_create(&key) { pointer in
                if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            }
        #endif
        precondition(
            result == 0, "ReactiveCore: no thread-local slot is left (pthread_key_create failed with \(result))")
        self.key = key
        self.make = make
    }

    /// This thread's instance.
    package var current: Value {
        if let pointer = pthread_getspecific(key) {
            // The slot holds a retained `Value` (set below), released only by the destructor
            // at the thread's exit, so it is alive here.
            return unsafeDowncast(Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue(), to: Value.self)
        }
        let value = make()
        pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(value).toOpaque())
        return value
    }
}
