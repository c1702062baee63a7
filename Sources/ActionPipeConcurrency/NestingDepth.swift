#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How deeply the calling thread is nested in synchronous calls: core calls and bus
/// publishes, and observed-property deliveries. Each part bounds its own depth with it, so
/// a handler that calls itself without end gets a typed error, not a stack overflow, and
/// observers that write each other are reported as a cycle.
///
/// One word per counter in the thread's ``ThreadRecord`` (the part no other thread
/// writes), read and written only by its own thread: no atomics. Only synchronous code may
/// count on it: an `await` between entering and leaving could resume on another thread,
/// whose counter the leave would then corrupt.
///
/// ```swift
/// let depth = NestingDepth.counter(.call)
/// let level = depth.pointee
/// guard level < limit else { return reportTooDeep() }
/// depth.pointee = level + 1
/// defer { depth.pointee = level }
/// ```
@usableFromInline package enum NestingDepth {
    /// What is counted; each has its own word.
    @usableFromInline package enum Counter: Int, Sendable {
        /// Synchronous core calls and event bus publishes, together: both grow the stack.
        case call = 0
        /// Observed-property deliveries (an observer setting a property).
        case delivery = 1
    }

    /// The platform's thread-specific-data key type.
    @usableFromInline package typealias Key = pthread_key_t

    /// The thread-specific-data key of the threads' records (``ThreadRecord/key``).
    @usableFromInline package static var key: Key { ThreadRecord.key }

    /// The calling thread's word for `counter`; valid on this thread until it ends.
    ///
    /// - Parameter key: ``key``, or a copy of it.
    /// - Complexity: O(1): one `pthread_getspecific` (a record is taken on a thread's first
    ///   use).
    @inlinable @inline(__always)
    package static func counter(_ counter: Counter, key: pthread_key_t = key)
        -> UnsafeMutablePointer<Int>
    {
        ThreadRecord.current(key: key).counter(counter)
    }
}
