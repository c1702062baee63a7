#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one lock of the package: a `pthread_mutex_t`, which the sanitizers intercept, so
/// `--sanitize=thread` sees every happens-before edge it makes.
///
/// Why not `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see its edges and
/// reports every access it guards as a race. Why not a spin lock: a preempted holder makes
/// its waiters burn their time slice, and the benchmarks show no target that needs one.
///
/// The rule of every lock in the package: no user code runs while it is held. See
/// `Docs/Internals.md`.
@usableFromInline package enum _LockOperations {
    /// The platform mutex.
    @usableFromInline package typealias Primitive = pthread_mutex_t

    /// Initialises the mutex at `mutex`.
    @inlinable
    package static func create(_ mutex: UnsafeMutablePointer<Primitive>) {
        mutex.initialize(to: Primitive())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "ActionPipe: pthread_mutex_init failed (\(status))")
    }

    /// Destroys the mutex at `mutex`; nobody may hold it.
    @inlinable
    package static func destroy(_ mutex: UnsafeMutablePointer<Primitive>) {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
    }

    /// Takes the mutex, waiting while another thread holds it.
    @inlinable @inline(__always)
    package static func lock(_ mutex: UnsafeMutablePointer<Primitive>) {
        pthread_mutex_lock(mutex)
    }

    /// Releases the mutex, which the calling thread holds.
    @inlinable @inline(__always)
    package static func unlock(_ mutex: UnsafeMutablePointer<Primitive>) {
        pthread_mutex_unlock(mutex)
    }
}

/// A value and its lock in one allocation (the value is the header of a `ManagedBuffer`
/// whose one element is the mutex, so the mutex never moves).
@usableFromInline
package final class _LockStorage<Value>: ManagedBuffer<Value, _LockOperations.Primitive> {
    /// Storage holding `value`, with its mutex initialised.
    @inlinable
    package static func make(_ value: Value) -> _LockStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: _LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { _LockOperations.create($0) }
        return storage
    }

    @inlinable
    deinit {
        withUnsafeMutablePointerToElements { _LockOperations.destroy($0) }
    }
}

/// A value that is only reached with its lock held: the package's one lock-protected box.
///
/// ```swift
/// let count = LockedValue(0)
/// count.withLock { $0 += 1 }
/// ```
///
/// The body of ``withLock(_:)`` must be library code that neither blocks nor calls out: no
/// handler, observer, stage, sink or executor, and no release of anything a user handed
/// in (a user `deinit` could re-enter and deadlock). Take such objects out of the value and
/// return them; they are released by the caller, after unlocking.
///
/// `@unchecked Sendable`: the value is only reached inside `withLock`, with the lock held.
@usableFromInline package struct LockedValue<Value>: @unchecked Sendable {
    /// Owns the value and the mutex.
    @usableFromInline let storage: _LockStorage<Value>
    // The addresses inside `storage`, taken once: a `ManagedBuffer`'s memory never moves,
    // and reaching it through `withUnsafeMutablePointers` on every lock cost a retain and
    // a release of the storage.
    @usableFromInline let value: UnsafeMutablePointer<Value>
    @usableFromInline let mutex: UnsafeMutablePointer<_LockOperations.Primitive>

    /// A box holding `value`.
    @inlinable
    package init(_ value: Value) {
        storage = .make(value)
        (self.value, mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        _LockOperations.lock(mutex)
        defer {
            _LockOperations.unlock(mutex)
            _fixLifetime(storage)
        }
        return try body(&value.pointee)
    }
}
