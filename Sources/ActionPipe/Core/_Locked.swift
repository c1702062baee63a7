#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a `pthread_mutex_t`.
///
/// Why not `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see the
/// happens-before edges of `Mutex` and reports every access to guarded state as a race
/// (checked with a two-thread dictionary counter). A pthread mutex is intercepted by the
/// sanitizers, so `swift test --sanitize=thread` reports only real races. The cost of
/// locking is the same order; the mutex lives in its own allocation so it never moves.
///
/// `@unchecked Sendable`: `value` is only touched inside `withLock`, with the mutex held.
@usableFromInline
final class _Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Unchecked: the mutex already makes every access exclusive (a nested `withLock` on
    // the same lock deadlocks before it could overlap), and the runtime's own check costs
    // a thread-local lookup per access, about a tenth of a trivial tree item.
    @usableFromInline @exclusivity(unchecked) var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. `body` must not run user code.
    @inlinable
    func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
