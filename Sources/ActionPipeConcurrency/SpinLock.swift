import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
        @usableFromInline let mutex: UnsafeMutablePointer<_LockOperations.Primitive>

        @usableFromInline package init() {
            mutex = .allocate(capacity: 1)
            _LockOperations.create(mutex)
        }

        deinit {
            _LockOperations.destroy(mutex)
            mutex.deallocate()
        }

        @inlinable @inline(__always)
        @usableFromInline package func lock() { _LockOperations.lock(mutex) }

        @inlinable @inline(__always)
        @usableFromInline package func unlock() { _LockOperations.unlock(mutex) }
    #endif
}
