/// A property's observers at one moment, in registration order: immutable once made, replaced
/// as a whole when an observer is added or removed. It owns (retains) its observers; a set
/// reads it unretained, pinned in the property's `SnapshotCell`. The header is the count.
///
/// Not generic, so building one on the write path is concrete code; every element is an
/// `_ObsObserver<Value>` of its property's `Value`, which a set reads it as.
@usableFromInline
final class _ObsList: ManagedBuffer<Int, Unmanaged<_ObsAnyObserver>> {
    /// A list of the observers in `table`, or `nil` for none.
    ///
    /// - Complexity: O(n) for n slots of the table.
    static func make(_ table: borrowing _ObsTable) -> _ObsList? {
        let count = table.count
        guard count > 0 else { return nil }
        let list = unsafeDowncast(
            create(minimumCapacity: count) { _ in count }, to: _ObsList.self)
        list.withUnsafeMutablePointerToElements { elements in
            var next = elements
            table.forEachObserver { observer in
                next.initialize(to: .passRetained(observer))
                next += 1
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
