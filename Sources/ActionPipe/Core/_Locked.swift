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
    @usableFromInline let mutex = _PthreadMutex()
    // Unchecked: the mutex already makes every access exclusive (a nested `withLock` on
    // the same lock deadlocks before it could overlap), and the runtime's own check costs
    // a thread-local lookup per access, about a tenth of a trivial tree item.
    @usableFromInline @exclusivity(unchecked) var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must not run user code.
    @inlinable
    func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }
}
