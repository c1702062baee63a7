import ActionPipeKernel
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
/// `plain` (when `isPlain`) is the observer of one that is never gone (a plain `observe`):
/// a set calls it directly, one closure call fewer, and `deliver` is then unused. Call
/// ``send(_:)``, which picks the right one. It is
/// not optional: an optional closure is stored at another abstraction than a plain one, so
/// moving it between the two wraps it in a conversion thunk, a call more per delivery.
@usableFromInline
struct _ObsSink<Value: Sendable>: Sendable {
    @usableFromInline let deliver: @Sendable (Value) -> Bool
    @usableFromInline let plain: @Sendable (Value) -> Void
    @usableFromInline let isPlain: Bool
    @usableFromInline let end: (@Sendable () -> Void)?

    init(deliver: @escaping @Sendable (Value) -> Bool, end: (@Sendable () -> Void)? = nil) {
        self.deliver = deliver
        self.plain = { _ in }
        self.isPlain = false
        self.end = end
    }

    init(plain: @escaping @Sendable (Value) -> Void) {
        // Never called (`send` calls `plain`): a closure that captures nothing, so a plain
        // observer allocates no context for it.
        self.deliver = { _ in true }
        self.plain = plain
        self.isPlain = true
        self.end = nil
    }

    /// Delivers `value`; `false` when the observer is gone.
    @inlinable @inline(__always)
    func send(_ value: Value) -> Bool {
        if isPlain {
            plain(value)
            return true
        }
        return deliver(value)
    }
}
