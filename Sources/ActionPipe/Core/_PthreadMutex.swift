import ActionPipeKernel

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A `pthread_mutex_t` in its own allocation (a mutex must never move), made and destroyed
/// with its owner: the lock of `LockedValue`, and of `_SpinLock` on Apple platforms.
@usableFromInline
struct _PthreadMutex: ~Copyable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inlinable @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }
}
