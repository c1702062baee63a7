import ActionPipeKernel
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A lock for critical sections of a few loads and stores (never user code, never a wait):
/// an observed property's value and observer list, an event bus's route table, an operation
/// tree run's queue.
///
/// On Linux it is one atomic word: taking it is one compare-exchange, releasing it one plain
/// (release) store. A pthread mutex costs a second atomic read-modify-write on release (it must
/// see whether to wake a waiter) and two calls into libc, about as much as the rest of an observed property's set; and a contended mutex sleeps in
/// the kernel (a futex wait and wake), which is far dearer than the section it protects.
/// A waiter spins briefly, then yields its CPU, which is the right trade for sections this
/// short; ThreadSanitizer sees the acquire/release pair as a lock. On Apple platforms, where a
/// yielding spin lock can invert QoS priorities, it stays a pthread mutex.
@usableFromInline
struct _SpinLock: ~Copyable {
    #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
        @usableFromInline let word = Atomic<UInt32>(0)

        init() {}

        @inlinable @inline(__always)
        func lock() {
            if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                lockContended()
            }
        }

        @inlinable @inline(__always)
        func unlock() {
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
                // The holder runs a handful of instructions; when it does not release at once
                // it was preempted, and the CPU is better given back to it.
                if spins > 64 { sched_yield() }
            }
        }
    #else
        @usableFromInline let mutex = _PthreadMutex()

        init() {}

        @inlinable @inline(__always)
        func lock() { mutex.lock() }

        @inlinable @inline(__always)
        func unlock() { mutex.unlock() }
    #endif
}
