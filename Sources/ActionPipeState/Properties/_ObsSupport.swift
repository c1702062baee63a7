import ActionPipeConcurrency

/// Identities of observers and tokens, unique in the process (shared with every part).
@usableFromInline
func _obsMakeID() -> UInt64 { RegistrationToken.nextID() }

// MARK: - Equality of values whose type is known only at run time

extension Equatable {
    /// `==` for `Value`, which the caller checked is `Self`: reinterpreted in place, not cast
    /// through `Any`.
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

/// `==` for `Value`, or `nil` when not `Equatable`; looked up once per observer, as the
/// conformance lookup is costly.
func _obsEquality<Value>(of _: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    guard let type = Value.self as? any Equatable.Type else { return nil }
    return type._obsEquality(as: Value.self)
}
