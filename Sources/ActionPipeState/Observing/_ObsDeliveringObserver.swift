/// An observer that can be gone (its owner released, its stream dropped) or has an end:
/// ``body`` returns `false` once it is gone. `@unchecked Sendable` as ``_ObsObserver``.
@usableFromInline
final class _ObsDeliveringObserver<Value: Sendable>: _ObsObserver<Value>, @unchecked Sendable {
    @usableFromInline let body: @Sendable (Value) -> Bool
    let ending: (@Sendable () -> Void)?

    @usableFromInline
    init(
        id: UInt64, deliver: @escaping @Sendable (Value) -> Bool, end: (@Sendable () -> Void)?
    ) {
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
