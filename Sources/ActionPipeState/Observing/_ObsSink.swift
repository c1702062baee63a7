import ActionPipeConcurrency

/// What one observer does with a value: `deliver` returns `false` when it is gone; `end` runs
/// once when the observation ends; a plain observer has no `deliver`, a set calls `plain`.
/// (`plain` is not optional: that would add a thunk per delivery.)
@usableFromInline
struct _ObsSink<Value: Sendable>: Sendable {
    @usableFromInline let plain: @Sendable (Value) -> Void
    @usableFromInline let deliver: (@Sendable (Value) -> Bool)?
    @usableFromInline let end: (@Sendable () -> Void)?

    @usableFromInline
    init(deliver: @escaping @Sendable (Value) -> Bool, end: (@Sendable () -> Void)? = nil) {
        self.deliver = deliver
        self.plain = _ignoreValue
        self.end = end
    }

    @usableFromInline
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

    /// With `.skipEqual`, skips a value equal to the last one this observer saw, from `first`.
    func applying(_ options: ObservationOptions, first: Value) -> Self {
        guard options.contains(.skipEqual), let equal = _obsEquality(of: Value.self) else {
            return self
        }
        let last = LockedValue(first)
        return _ObsSink(
            deliver: { value in
                // `==` may be user code: compared after the lock is released.
                let previous = last.withLock { last in
                    defer { last = value }
                    return last
                }
                return equal(previous, value) ? true : send(value)
            }, end: end)
    }
}

/// The `plain` of an observer that has `deliver`: never called; a function, capturing nothing.
@Sendable func _ignoreValue<Value>(_: Value) {}

extension Equatable {
    /// `==` for `Value`, which the caller checked is `Self`, without a cast through `Any`.
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

/// `==` for `Value`, or `nil` when not `Equatable`; looked up once per observer.
func _obsEquality<Value>(of _: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    guard let type = Value.self as? any Equatable.Type else { return nil }
    return type._obsEquality(as: Value.self)
}
