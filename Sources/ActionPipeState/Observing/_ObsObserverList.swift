import ActionPipeConcurrency

/// A property's observers at one moment, in registration order: an immutable reference
/// buffer that owns them; a set reads each element (`Unretained<_ObsAnyObserver>`, concrete
/// code to build) by address. Each is an `_ObsObserver<Value>` of the property's `Value`.
@usableFromInline
typealias _ObsList = ReferenceBuffer<Void, Unretained<_ObsAnyObserver>, Never>

extension ReferenceBuffer
where Header == Void, Element == Unretained<_ObsAnyObserver>, Tail == Never {
    /// `nil` for no observers.
    ///
    /// - Complexity: O(n) for n slots of the table.
    static func make(_ table: borrowing _ObsTable) -> _ObsList? {
        let count = table.count
        guard count > 0 else { return nil }
        // Unretained: the table holds them until the buffer retains them.
        return make((), count: count) { append in
            table.forEachObserver { append(Unretained($0)) }
        }
    }
}
