/// A snapshot cached in its owner's locked state (a chain's), built lazily: a change drops
/// it in O(1) and the next read rebuilds it, so n changes in a row cost O(n), not O(n²).
/// Readers publish it through a ``SnapshotSlot``.
///
/// ```swift
/// let current = state.withLock { $0.snapshot.get { Snapshot($0.list) } }
/// let stale = state.withLock { $0.list.append(x); return $0.snapshot.invalidate() }
/// // release `stale` here, after unlocking
/// ```
@usableFromInline package struct CachedSnapshot<Snapshot: AnyObject> {
    @usableFromInline var cached: Snapshot?

    @inlinable
    package init() { cached = nil }

    /// Call with the owner's lock held; `make` runs under it, so it must be library code.
    ///
    /// - Complexity: O(1) when cached; otherwise the cost of `make`.
    @inlinable @inline(__always)
    package mutating func get(_ make: () -> Snapshot) -> Snapshot {
        if let cached { return cached }
        let made = make()
        cached = made
        return made
    }

    /// Drops the cached snapshot and returns it, for the caller to release after unlocking.
    ///
    /// - Complexity: O(1).
    @inlinable
    package mutating func invalidate() -> Snapshot? {
        defer { cached = nil }
        return cached
    }
}
