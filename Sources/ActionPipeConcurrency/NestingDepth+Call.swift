#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension NestingDepth {
    /// The `.call` counter's limit, published as `NestingLimitError.depthLimit`. A
    /// constant here so an inlined ``_enterCall(on:)`` compares with a literal.
    @inlinable @inline(__always)
    package static var callLimit: Int { 100 }
}

/// Enters one more level of synchronous calls and publishes; `nil`, and no change, at
/// ``NestingDepth/callLimit``. The caller decrements the returned word when its call ends.
///
/// Out of line, reading the key itself: inlined into a call's loop, it would reach the
/// counters through a retained reference.
///
/// - Parameter key: `NestingDepth.key`, copied by a hot path to skip the global's check.
@usableFromInline @inline(never)
package func _enterCall(_ key: pthread_key_t) -> UnsafeMutablePointer<Int>? {
    let depth = NestingDepth.counter(.call, key: key)
    guard depth.pointee < NestingDepth.callLimit else { return nil }
    depth.pointee &+= 1
    return depth
}

/// ``_enterCall(_:)`` with the thread's record at hand (from its pin): no key lookup.
@inlinable @inline(__always)
package func _enterCall(on thread: ThreadRecord) -> UnsafeMutablePointer<Int>? {
    let depth = thread.counter(.call)
    guard depth.pointee < NestingDepth.callLimit else { return nil }
    depth.pointee &+= 1
    return depth
}
