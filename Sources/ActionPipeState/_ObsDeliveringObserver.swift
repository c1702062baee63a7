/// An observer that can be gone (its owner released, its stream dropped) or that has an end:
/// ``_ObsObserver/deliver(_:)`` calls ``body``, which returns `false` once it is gone.
///
/// `@unchecked Sendable` as for ``_ObsObserver``.
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

    override var end: (@Sendable () -> Void)? { ending }

    @usableFromInline
    override func deliverNotPlain(_ value: Value) -> Bool { body(value) }
}
