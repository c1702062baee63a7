import Synchronization

/// A source of process-unique, increasing identifiers: handler, subscription, observer and
/// stage ids, and pipe numbers. Ids start at 1 (0 means "none" where one is needed).
///
/// ```swift
/// let ids = IDSource()
/// let first = ids.next()   // 1
/// ```
@usableFromInline package final class IDSource: Sendable {
    @usableFromInline let counter = Atomic<UInt64>(0)

    /// A new source, starting at 1.
    @usableFromInline package init() {}

    /// The next identifier; later calls on any thread return larger ones.
    ///
    /// - Complexity: O(1), one atomic add.
    @inlinable
    package func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
