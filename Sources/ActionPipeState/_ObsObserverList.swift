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
