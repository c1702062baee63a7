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
/// `plain` (when `isPlain`) is the same observer for one that is never gone (a plain
/// `observe`): a set calls it directly, one closure call fewer than through `deliver`. It is
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
        self.deliver = { value in
            plain(value)
            return true
        }
        self.plain = plain
        self.isPlain = true
        self.end = nil
    }
}

/// Something a token can cancel: a property (one entry by id) or a path observation.
protocol _ObsCancellable: AnyObject, Sendable {
    func _cancelObservation(_ id: UInt64) -> Bool
    func _isObserving(_ id: UInt64) -> Bool
}

/// Something that can be observed: a property or a path through sub-states.
protocol _ObsSource<Value>: Sendable {
    associatedtype Value: Sendable
    /// The value now.
    var _currentValue: Value { get }
    /// Registers the sink that `makeSink` builds from the value at registration (called once,
    /// possibly under the source's lock: it must not run user code), and returns the token
    /// and that value.
    func _subscribe(
        _ makeSink: (Value) -> _ObsSink<Value>
    ) -> (token: ObservationToken, value: Value)
}

/// Identities of observers and tokens, unique in the process.
private let _obsIDs = IDSource()

@inline(__always)
func _obsMakeID() -> UInt64 { _obsIDs.next() }

// MARK: - Equality of values whose type is known only at run time

extension Equatable {
    /// `==` for `Value`, which the caller checked is `Self`: the values are reinterpreted in
    /// place rather than cast through `Any` on every comparison.
    static func _obsEquality<Value>(as _: Value.Type) -> @Sendable (Value, Value) -> Bool {
        precondition(Value.self == Self.self)
        return { a, b in
            withUnsafePointer(to: a) { a in
                withUnsafePointer(to: b) { b in
                    UnsafeRawPointer(a).assumingMemoryBound(to: Self.self).pointee
                        == UnsafeRawPointer(b).assumingMemoryBound(to: Self.self).pointee
                }
            }
        }
    }
}

/// `==` for `Value`, or `nil` when `Value` is not `Equatable`; looked up once per observer,
/// since the conformance lookup costs more than the rest of a set.
func _obsEquality<Value>(of _: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    guard let type = Value.self as? any Equatable.Type else { return nil }
    return type._obsEquality(as: Value.self)
}
