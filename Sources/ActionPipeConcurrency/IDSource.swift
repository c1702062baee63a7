import Synchronization

/// Process-unique, increasing identifiers, from 1 (0 means "none").
@usableFromInline package final class IDSource: Sendable {
    @usableFromInline let counter = Atomic<UInt64>(0)

    @usableFromInline package init() {}

    /// Later calls on any thread return larger ones.
    @inlinable
    package func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
