/// One registered observer of a property: its identity and its sink, in an object so that a
/// delivery reads the closures through a reference the list keeps alive, without retaining
/// them (a `let` of a class instance is borrowed, not copied).
@usableFromInline
final class _ObsObserver<Value: Sendable>: Sendable {
    @usableFromInline let id: UInt64
    @usableFromInline let sink: _ObsSink<Value>

    init(id: UInt64, sink: _ObsSink<Value>) {
        self.id = id
        self.sink = sink
    }

    /// Delivers `value`; `false` when the observer is gone.
    @inlinable @inline(__always)
    func deliver(_ value: Value) -> Bool {
        // `let`s of a borrowed object: the closures are called without copying (retaining)
        // their contexts.
        if sink.isPlain {
            sink.plain(value)
            return true
        }
        return sink.deliver(value)
    }
}

/// A property's observers at one moment, in registration order: immutable once made, replaced
/// as a whole when an observer is added or removed. It owns (retains) its observers; a set
/// reads it unretained, pinned in the property's `SnapshotCell`. The header is the count.
@usableFromInline
final class _ObsList<Value: Sendable>: ManagedBuffer<Int, Unmanaged<_ObsObserver<Value>>> {
    /// A list of `observers`, or `nil` for none.
    static func make(_ observers: [_ObsObserver<Value>]) -> _ObsList? {
        guard !observers.isEmpty else { return nil }
        let list = unsafeDowncast(
            create(minimumCapacity: observers.count) { _ in observers.count }, to: _ObsList.self)
        list.withUnsafeMutablePointerToElements { elements in
            for (index, observer) in observers.enumerated() {
                (elements + index).initialize(to: .passRetained(observer))
            }
        }
        return list
    }

    deinit {
        withUnsafeMutablePointers { count, elements in
            for index in 0..<count.pointee { elements[index].release() }
        }
    }
}
