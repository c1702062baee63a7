/// One registered observer of a property: its identity and what it does with a value, in an
/// object so that a delivery reads the closures through a reference the list keeps alive,
/// without retaining them (a `let` of a class instance is borrowed, not copied).
///
/// A plain observer (`observe { ... }`, never gone) is this class alone: an id and a
/// closure. An observer that can be gone or has an end (owner-bound, streams, actors,
/// `skipEqual`) is an ``_ObsDeliveringObserver``, made by ``make(id:sink:)``. The split keeps
/// the commonest observer small and calls every closure as a `let` of a borrowed object:
/// an optional closure would be copied out first, a retain and a release per delivery.
///
/// `@unchecked Sendable`: not final, so that the subclass can extend it; every stored
/// property is immutable and `Sendable`.
@usableFromInline
class _ObsObserver<Value: Sendable>: _ObsAnyObserver, @unchecked Sendable {
    /// The observer's closure when ``isPlain``; else a placeholder, never called.
    @usableFromInline let plain: @Sendable (Value) -> Void
    @usableFromInline let isPlain: Bool

    @usableFromInline
    init(id: UInt64, plain: @escaping @Sendable (Value) -> Void, isPlain: Bool) {
        self.plain = plain
        self.isPlain = isPlain
        super.init(id: id)
    }

    /// The observer that `sink` describes.
    final class func make(id: UInt64, sink: _ObsSink<Value>) -> _ObsObserver<Value> {
        guard let deliver = sink.deliver else {
            return _ObsObserver(id: id, plain: sink.plain, isPlain: true)
        }
        return _ObsDeliveringObserver(id: id, deliver: deliver, end: sink.end)
    }

    /// Delivers `value`; `false` when the observer is gone.
    @inlinable @inline(__always)
    final func deliver(_ value: Value) -> Bool {
        if isPlain {
            plain(value)
            return true
        }
        return deliverNotPlain(value)
    }

    /// Delivers `value` through an observer that is not plain: overridden by
    /// ``_ObsDeliveringObserver``, the only kind that is not.
    @usableFromInline
    func deliverNotPlain(_ value: Value) -> Bool {
        plain(value)
        return true
    }
}

/// What adding, removing and listing an observer needs of it, whatever its value type: the
/// table and the lists hold observers as this class, so that work runs as concrete code
/// (unspecialised generic code looks up generic metadata at almost every step).
///
/// `@unchecked Sendable`: not final, so that ``_ObsObserver`` can extend it; ``id`` is
/// immutable, and ``number`` is written once, under the property's lock, before any list
/// holds the observer.
@usableFromInline
class _ObsAnyObserver: @unchecked Sendable {
    @usableFromInline final let id: UInt64
    /// Where the property's table keeps it, and its token's `detail` (see ``_ObsTable``): a
    /// delivery that finds the observer gone removes it by this. The lock already makes
    /// writes exclusive; `@exclusivity(unchecked)` drops the run-time check of each access.
    @exclusivity(unchecked) @usableFromInline final var number = 0

    init(id: UInt64) { self.id = id }

    /// What runs once when the observation ends, if anything; overridden by observers that
    /// have an end.
    var end: (@Sendable () -> Void)? { nil }
}
