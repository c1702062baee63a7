import ActionPipeConcurrency

/// A property's observers at one moment, in registration order: an immutable buffer that
/// owns them (each an `_ObsObserver<Value>`); a set reads each element by address.
@usableFromInline
typealias _ObsList = ReferenceBuffer<Void, Unretained<_ObsAnyObserver>, Never>

/// What an observer does with a value: registered, held by a path's link, or wrapped by
/// ``applying(_:first:)`` (its `.initial` value skips the wrapper's filter); a delivery
/// borrows its `let` closures through the list, with no retain. A plain observer
/// (`observe { ... }`) is this class alone; one that can be gone or has an end is an
/// ``_ObsDeliveringObserver`` (an optional closure would cost a retain per delivery).
/// `@unchecked Sendable`: not final, every stored property immutable.
@usableFromInline
class _ObsObserver<Value: Sendable>: _ObsAnyObserver, @unchecked Sendable {
    /// The closure when ``isPlain``; else a placeholder, never called.
    @usableFromInline let plain: @Sendable (Value) -> Void
    @usableFromInline let isPlain: Bool

    @usableFromInline
    init(plain: @escaping @Sendable (Value) -> Void, isPlain: Bool = true) {
        self.plain = plain
        self.isPlain = isPlain
    }

    @inlinable @inline(__always)
    final func deliver(_ value: Value) -> Bool {
        if isPlain {
            plain(value)
            return true
        }
        return deliverNotPlain(value)
    }

    /// Overridden by ``_ObsDeliveringObserver``, the only kind that is not plain.
    @usableFromInline
    func deliverNotPlain(_ value: Value) -> Bool {
        plain(value)
        return true
    }

    /// With `.skipEqual`, an observer that skips a value equal to the last one it saw, from
    /// `first`, then delivers to this one.
    final func applying(_ options: ObservationOptions, first: Value) -> _ObsObserver<Value> {
        guard options.contains(.skipEqual), let equal = _obsEquality(of: Value.self) else {
            return self
        }
        let last = LockedValue(first)
        return _ObsDeliveringObserver(
            deliver: { [self] value in
                // `==` may be user code: compared after the lock is released.
                let previous = last.withLock { last in
                    defer { last = value }
                    return last
                }
                return equal(previous, value) ? true : deliver(value)
            }, end: end)
    }
}

/// An observer whatever its value type, so the table and lists run concrete code.
/// `@unchecked Sendable`: ``number`` is written under the property's lock, before any list
/// holds the observer.
@usableFromInline
class _ObsAnyObserver: @unchecked Sendable {
    /// Unique in the process, as every part's registrations; a registered observer's is its
    /// token's id.
    @usableFromInline final let id = RegistrationToken.nextID()
    /// Its place in the table and its token's `detail` (see ``_ObsTable``).
    @exclusivity(unchecked) @usableFromInline final var number = 0

    var end: (@Sendable () -> Void)? { nil }
}

/// An observer that can be gone (``body`` returns `false`) or has an end.
@usableFromInline
final class _ObsDeliveringObserver<Value: Sendable>: _ObsObserver<Value>, @unchecked Sendable {
    @usableFromInline let body: @Sendable (Value) -> Bool
    let ending: (@Sendable () -> Void)?

    @usableFromInline
    init(deliver: @escaping @Sendable (Value) -> Bool, end: (@Sendable () -> Void)? = nil) {
        self.body = deliver
        self.ending = end
        super.init(plain: _ignoreValue, isPlain: false)
    }

    /// Never gone but with an end (a main-actor observer): delivered as a plain one.
    @usableFromInline
    init(plain: @escaping @Sendable (Value) -> Void, end: @escaping @Sendable () -> Void) {
        self.body = _alwaysThere
        self.ending = end
        super.init(plain: plain)
    }

    override var end: (@Sendable () -> Void)? { ending }

    @usableFromInline
    override func deliverNotPlain(_ value: Value) -> Bool { body(value) }
}

@Sendable private func _alwaysThere<Value>(_: Value) -> Bool { true }

/// The `plain` of an observer that is not plain: never called; a function, capturing nothing.
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
