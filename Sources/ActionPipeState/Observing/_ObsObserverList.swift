import ActionPipeConcurrency

/// A property's observers at one moment, in registration order: immutable once made,
/// replaced as a whole when an observer is added or removed. The concurrency module's
/// reference buffer: it owns (retains) its observers and lends them to a set, which reads
/// the list in the property's `SnapshotCell`.
///
/// Its elements are `_ObsAnyObserver`s, so building one on the write path is concrete code;
/// every element is an `_ObsObserver<Value>` of its property's `Value`, which a set reads it
/// as.
@usableFromInline
typealias _ObsList = ReferenceBuffer<_ObsAnyObserver>

extension ReferenceBuffer where Element == _ObsAnyObserver {
    /// A list of the observers in `table`, or `nil` for none.
    ///
    /// - Complexity: O(n) for n slots of the table.
    static func make(_ table: borrowing _ObsTable) -> _ObsList? {
        let count = table.count
        guard count > 0 else { return nil }
        return make(count: count) { append in table.forEachObserver(append) }
    }
}
