#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension NestingDepth {
    /// How many synchronous calls and publishes may nest on one thread (the `.call`
    /// counter); the next one is refused. The public API names it
    /// `NestingLimitError.depthLimit`, which is defined as this constant.
    ///
    /// A constant of this module, so that ``_enterCall(on:)``, inlined into a part's call,
    /// compares with a literal (no global to initialise and load).
    @inlinable @inline(__always)
    package static var callLimit: Int { 100 }
}

/// Enters one more level of synchronous calls and publishes on this thread; `nil`, and no
/// change, when that would pass ``NestingDepth/callLimit``. The caller decrements the
/// returned word when its call ends.
///
/// Not inlined, and it reads the global itself: a call's loop is inlined into its caller,
/// where reading the counters through a reference cost a retain and a release per call.
///
/// - Parameter key: `NestingDepth.key`, which a hot path keeps a copy of: reading the global
///   costs a lazy-initialisation check per call.
@usableFromInline @inline(never)
package func _enterCall(_ key: pthread_key_t) -> UnsafeMutablePointer<Int>? {
    let depth = NestingDepth.counter(.call, key: key)
    guard depth.pointee < NestingDepth.callLimit else { return nil }
    depth.pointee &+= 1
    return depth
}

/// ``_enterCall(_:)`` for a caller that has its thread's record at hand (from the pin of its
/// snapshot): no thread-specific-data lookup.
///
/// - Complexity: O(1).
@inlinable @inline(__always)
package func _enterCall(on thread: ThreadRecord) -> UnsafeMutablePointer<Int>? {
    let depth = thread.counter(.call)
    guard depth.pointee < NestingDepth.callLimit else { return nil }
    depth.pointee &+= 1
    return depth
}
