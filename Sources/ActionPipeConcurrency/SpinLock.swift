import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A lock for critical sections of a few loads and stores, never user code and never a
/// wait: the one place that uses it is an observed property's value and observer list.
///
/// It earns its place against the package's lock (`LockedValue`, a pthread mutex): with the
/// mutex, a set with one observer costs about twice as much and misses its target (state
/// row 1, and the `State Floor` rows of `Benchmarks/`). On Linux it is one atomic word:
/// taking it is one compare-exchange, releasing it one release store, where a mutex costs
/// two calls into libc and a second read-modify-write. A waiter spins briefly, then yields
/// its CPU (the holder was preempted). ThreadSanitizer sees the acquire/release pair as a
/// lock. On Apple platforms, where a yielding spin lock can invert QoS priorities, it is
/// the pthread mutex.
@usableFromInline package struct SpinLock: ~Copyable {
    #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
        @usableFromInline let word = Atomic<UInt32>(0)

        /// An unlocked lock.
        @usableFromInline package init() {}

        /// Takes the lock, spinning (then yielding) while another thread holds it.
        @inlinable @inline(__always)
        package func lock() {
            if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                lockContended()
            }
        }

        /// Releases the lock, which the calling thread holds.
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
        @usableFromInline let mutex: UnsafeMutablePointer<_LockOperations.Primitive>

        /// An unlocked lock.
        @usableFromInline package init() {
            mutex = .allocate(capacity: 1)
            _LockOperations.create(mutex)
        }

        deinit {
            _LockOperations.destroy(mutex)
            mutex.deallocate()
        }

        /// Takes the lock, waiting while another thread holds it.
        @inlinable @inline(__always)
        @usableFromInline package func lock() { _LockOperations.lock(mutex) }

        /// Releases the lock, which the calling thread holds.
        @inlinable @inline(__always)
        @usableFromInline package func unlock() { _LockOperations.unlock(mutex) }
    #endif
}
