#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How deeply the calling thread is nested in synchronous calls, publishes and
/// observed-property deliveries, so unbounded recursion gets a typed error, not a stack
/// overflow. One word per counter in the thread's ``ThreadRecord``, touched only by its
/// thread: no atomics, and no `await` between entering and leaving (it could resume on
/// another thread).
@usableFromInline package enum NestingDepth {
    @usableFromInline package enum Counter: Int, Sendable {
        /// Synchronous core calls and bus publishes, together: both grow the stack.
        case call = 0
        /// Observed-property deliveries (an observer setting a property).
        case delivery = 1
    }

    @usableFromInline package typealias Key = pthread_key_t

    @usableFromInline package static var key: Key { ThreadRecord.key }

    /// Valid on this thread until it ends.
    ///
    /// - Parameter key: ``key``, or a copy of it.
    @inlinable @inline(__always)
    package static func counter(_ counter: Counter, key: pthread_key_t = key)
        -> UnsafeMutablePointer<Int>
    {
        ThreadRecord.current(key: key).counter(counter)
    }
}
