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

    /// The `.call` counter's limit, published as `NestingLimitError.depthLimit`; a constant,
    /// so an inlined ``_enterCall(on:)`` compares with a literal.
    @inlinable @inline(__always)
    package static var callLimit: Int { 100 }

    @usableFromInline package typealias Key = pthread_key_t

    @usableFromInline package static var key: Key { ThreadRecord.key }

    /// Valid on this thread until it ends; `key` is ``key`` or a copy of it.
    @inlinable @inline(__always)
    package static func counter(_ counter: Counter, key: pthread_key_t = key)
        -> UnsafeMutablePointer<Int>
    {
        ThreadRecord.current(key: key).counter(counter)
    }
}

/// Enters one more level of synchronous calls and publishes; `nil`, and no change, at
/// ``NestingDepth/callLimit``. The caller decrements the returned word when its call ends.
/// Out of line, reading the key itself: inlined into a call's loop, it would reach the
/// counters through a retained reference.
///
/// - Parameter key: `NestingDepth.key`, copied by a hot path to skip the global's check.
@usableFromInline @inline(never)
package func _enterCall(_ key: pthread_key_t) -> UnsafeMutablePointer<Int>? {
    _enterCall(on: ThreadRecord.current(key: key))
}

/// ``_enterCall(_:)`` with the thread's record at hand (from its pin): no key lookup.
@inlinable @inline(__always)
package func _enterCall(on thread: ThreadRecord) -> UnsafeMutablePointer<Int>? {
    let depth = thread.counter(.call)
    guard depth.pointee < NestingDepth.callLimit else { return nil }
    depth.pointee &+= 1
    return depth
}
