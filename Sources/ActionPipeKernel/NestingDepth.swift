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
/// One word per counter in a small block per thread (found with `pthread_getspecific`,
/// freed when the thread ends), read and written only by its own thread: no atomics.
/// Only synchronous code may count on it: an `await` between entering and leaving could
/// resume on another thread, whose counter the leave would then corrupt.
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

    /// The thread-specific-data key of the threads' blocks. A plain integer, so code that
    /// keeps a copy (a hot path that wants to skip the global's addressor) holds no
    /// reference.
    @usableFromInline package static let key: Key = {
        var created = pthread_key_t()
        let status = pthread_key_create(&created) { block in
            // Optional on Glibc, not on Darwin: the same code for both.
            let block: UnsafeMutableRawPointer? = block
            block?.deallocate()
        }
        precondition(status == 0, "ActionPipe: cannot create a thread key (\(status))")
        return created
    }()

    /// Words per block: one per ``Counter``.
    @usableFromInline static var words: Int { 2 }

    /// The calling thread's word for `counter`; valid on this thread until it ends.
    ///
    /// - Parameter key: ``key``, or a copy of it.
    /// - Complexity: O(1): one `pthread_getspecific` (a block is made on a thread's first
    ///   use).
    @inlinable @inline(__always)
    package static func counter(_ counter: Counter, key: pthread_key_t = key)
        -> UnsafeMutablePointer<Int>
    {
        if let block = pthread_getspecific(key) {
            return UnsafeMutableRawPointer(mutating: block).assumingMemoryBound(to: Int.self)
                + counter.rawValue
        }
        return makeBlock(key) + counter.rawValue
    }

    @usableFromInline @inline(never)
    static func makeBlock(_ key: pthread_key_t) -> UnsafeMutablePointer<Int> {
        let block = UnsafeMutablePointer<Int>.allocate(capacity: words)
        block.initialize(repeating: 0, count: words)
        pthread_setspecific(key, block)
        return block
    }
}
