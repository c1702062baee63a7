/// One registered observer: an object, so a delivery borrows its `let` closures through a
/// reference the list keeps alive, with no retain.
///
/// A plain observer (`observe { ... }`) is this class alone; one that can be gone or has an
/// end is an ``_ObsDeliveringObserver`` (``make(id:sink:)``). An optional closure would be
/// copied out, a retain and a release per delivery. `@unchecked Sendable`: not final (the
/// subclass), every stored property immutable and `Sendable`.
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

/// What the table and lists need of an observer, whatever its value type, so that work runs
/// as concrete code. `@unchecked Sendable`: ``id`` is immutable, and ``number`` is written
/// once, under the property's lock, before any list holds the observer.
@usableFromInline
class _ObsAnyObserver: @unchecked Sendable {
    @usableFromInline final let id: UInt64
    /// Its place in the table and its token's `detail` (see ``_ObsTable``). The lock makes
    /// writes exclusive, so `@exclusivity(unchecked)` drops the run-time check.
    @exclusivity(unchecked) @usableFromInline final var number = 0

    init(id: UInt64) { self.id = id }

    var end: (@Sendable () -> Void)? { nil }
}
