import ActionPipeConcurrency
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Identities of observers and tokens, unique in the process (shared with every part's
/// registrations, so tokens compare by id).
@usableFromInline
func _obsMakeID() -> UInt64 { RegistrationToken.nextID() }

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
