import ActionPipeConcurrency

/// A property's observers at one moment, in registration order: an immutable buffer that
/// owns them (each an `_ObsObserver<Value>`); a set reads each element by address.
@usableFromInline
typealias _ObsList = ReferenceBuffer<Void, Unretained<_ObsAnyObserver>, Never>

/// Identities of observers and tokens, unique in the process (shared with every part).
@usableFromInline
func _obsMakeID() -> UInt64 { RegistrationToken.nextID() }

/// One registered observer; a delivery borrows its `let` closures through the list, with no
/// retain. A plain observer (`observe { ... }`) is this class alone; one that can be gone or
/// has an end is an ``_ObsDeliveringObserver`` (an optional closure would cost a retain per
/// delivery). `@unchecked Sendable`: not final, every stored property immutable.
@usableFromInline
class _ObsObserver<Value: Sendable>: _ObsAnyObserver, @unchecked Sendable {
    /// The closure when ``isPlain``; else a placeholder, never called.
    @usableFromInline let plain: @Sendable (Value) -> Void
    @usableFromInline let isPlain: Bool

    @usableFromInline
    init(id: UInt64, plain: @escaping @Sendable (Value) -> Void, isPlain: Bool) {
        self.plain = plain
        self.isPlain = isPlain
        super.init(id: id)
    }

    final class func make(id: UInt64, sink: _ObsSink<Value>) -> _ObsObserver<Value> {
        guard let deliver = sink.deliver else {
            return _ObsObserver(id: id, plain: sink.plain, isPlain: true)
        }
        return _ObsDeliveringObserver(id: id, deliver: deliver, end: sink.end)
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
}

/// An observer whatever its value type, so the table and lists run concrete code.
/// `@unchecked Sendable`: ``number`` is written under the property's lock, before any list
/// holds the observer.
@usableFromInline
class _ObsAnyObserver: @unchecked Sendable {
    @usableFromInline final let id: UInt64
    /// Its place in the table and its token's `detail` (see ``_ObsTable``).
    @exclusivity(unchecked) @usableFromInline final var number = 0

    init(id: UInt64) { self.id = id }

    var end: (@Sendable () -> Void)? { nil }
}

/// An observer that can be gone (``body`` returns `false`) or has an end.
@usableFromInline
final class _ObsDeliveringObserver<Value: Sendable>: _ObsObserver<Value>, @unchecked Sendable {
    @usableFromInline let body: @Sendable (Value) -> Bool
    let ending: (@Sendable () -> Void)?

    @usableFromInline
    init(id: UInt64, deliver: @escaping @Sendable (Value) -> Bool, end: (@Sendable () -> Void)?) {
        self.body = deliver
        self.ending = end
        super.init(id: id, plain: _ignoreValue, isPlain: false)
    }

    /// Never gone but with an end (a main-actor observer): delivered as a plain one.
    @usableFromInline
    init(
        id: UInt64, plain: @escaping @Sendable (Value) -> Void,
        end: @escaping @Sendable () -> Void
    ) {
        self.body = _alwaysThere
        self.ending = end
        super.init(id: id, plain: plain, isPlain: true)
    }

    override var end: (@Sendable () -> Void)? { ending }

    @usableFromInline
    override func deliverNotPlain(_ value: Value) -> Bool { body(value) }
}

@Sendable private func _alwaysThere<Value>(_: Value) -> Bool { true }
