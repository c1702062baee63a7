import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The package's mutex: a `pthread_mutex_t`, whose edges ThreadSanitizer sees (on Linux it
/// does not see `Synchronization.Mutex`'s, and reports every access it guards as a race).
/// Not a spin lock: a preempted holder makes waiters burn their time slice; ``SpinLock``
/// serves the one section short enough to need one. No user code runs while it is held.
@usableFromInline package enum _LockOperations {
    @inlinable
    package static func create(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "ActionPipe: pthread_mutex_init failed (\(status))")
    }

    /// Nobody may hold it.
    @inlinable
    package static func destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
    }
}

/// A value and its mutex in one `ManagedBuffer` (the mutex is the element, so it never moves).
@usableFromInline
package final class _LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
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

/// A value that is only reached with its lock held. The body of ``withLock(_:)`` must run no
/// user code, block on nothing and release nothing a user handed in (its `deinit` could
/// re-enter and deadlock): it returns such objects, for the caller to release after unlocking.
///
/// `@unchecked Sendable`: the value is only reached inside `withLock`, with the lock held.
@usableFromInline package struct LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let storage: _LockStorage<Value>
    // Addresses taken once (the buffer never moves): reaching them per lock retains the storage.
    @usableFromInline let value: UnsafeMutablePointer<Value>
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    package init(_ value: Value) {
        storage = .make(value)
        (self.value, mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
    }

    /// Runs `body` with the lock held.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_mutex_unlock(mutex)
            _fixLifetime(storage)
        }
        return try body(&value.pointee)
    }
}

/// A lock for critical sections of a few loads and stores, never user code and never a
/// wait: an observed property's value and observer list, where the mutex of `LockedValue`
/// misses the target. On Linux and the BSDs one atomic word (a waiter spins, then yields to a
/// preempted holder); ThreadSanitizer sees the acquire/release pair as a lock. On Apple
/// platforms, where a yielding spin lock can invert QoS priorities, the pthread mutex.
@usableFromInline package struct SpinLock: ~Copyable {
    #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
        @usableFromInline let word = Atomic<UInt32>(0)

        @usableFromInline package init() {}

        @inlinable @inline(__always)
        package func lock() {
            if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                lockContended()
            }
        }

        @inlinable @inline(__always)
        package func unlock() {
            word.store(0, ordering: .releasing)
        }

        @usableFromInline @inline(never)
        func lockContended() {
            var spins = 0
            while true {
                if word.load(ordering: .relaxed) == 0,
                    word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
                {
                    return
                }
                spins += 1
                if spins > 64 { sched_yield() }
            }
        }
    #else
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

        @usableFromInline package init() {
            mutex = .allocate(capacity: 1)
            _LockOperations.create(mutex)
        }

        deinit {
            _LockOperations.destroy(mutex)
            mutex.deallocate()
        }

        @inlinable @inline(__always)
        @usableFromInline package func lock() { pthread_mutex_lock(mutex) }

        @inlinable @inline(__always)
        @usableFromInline package func unlock() { pthread_mutex_unlock(mutex) }
    #endif
}
