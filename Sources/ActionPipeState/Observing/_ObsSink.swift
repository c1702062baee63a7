import ActionPipeConcurrency
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one observer does with a value: `deliver` returns `false` when the observer is gone
/// (its owner was released, its stream was dropped), so the property removes it; `end` runs
/// once when the observation ends for any reason (finishes a stream, ends a delivery task).
/// A plain `observe`, whose observer is never gone, has no `deliver`: a set calls `plain`
/// directly, one closure call fewer. Call ``send(_:)``, which picks the right one.
///
/// `plain` is not optional: an optional closure is stored at another abstraction than a
/// plain one, so moving it between the two wraps it in a conversion thunk, a call more per
/// delivery. `deliver` is: a placeholder closure for it would capture `Value`'s metadata,
/// an allocation per plain observer.
@usableFromInline
struct _ObsSink<Value: Sendable>: Sendable {
    @usableFromInline let plain: @Sendable (Value) -> Void
    @usableFromInline let deliver: (@Sendable (Value) -> Bool)?
    @usableFromInline let end: (@Sendable () -> Void)?

    /// Whether the observer is a plain one, which is never gone.
    @inlinable
    var isPlain: Bool { deliver == nil }

    init(deliver: @escaping @Sendable (Value) -> Bool, end: (@Sendable () -> Void)? = nil) {
        self.deliver = deliver
        self.plain = _ignoreValue
        self.end = end
    }

    init(plain: @escaping @Sendable (Value) -> Void) {
        self.deliver = nil
        self.plain = plain
        self.end = nil
    }

    @inlinable @inline(__always)
    func send(_ value: Value) -> Bool {
        guard let deliver else {
            plain(value)
            return true
        }
        return deliver(value)
    }
}

/// The `plain` of an observer that has `deliver`: never called. A generic function, not a
/// closure literal, so it captures nothing.
@Sendable func _ignoreValue<Value>(_: Value) {}
