/// The package's one read-mostly scheme: readers get an immutable snapshot object, retained
/// under the owner's lock and used with no lock held; a change only drops the cached
/// snapshot, and the next read builds a new one.
///
/// It lives inside the state of a ``LockedValue`` (one per route table, observer list,
/// chain or configuration), so reading it is the owner's lock, an optional check and a
/// retain:
///
/// ```swift
/// struct Observers {
///     var list: [Observer] = []
///     var snapshot = CachedSnapshot<ObserverList>()
/// }
/// let state = LockedValue(Observers())
///
/// // read: retained under the lock, used after unlocking
/// let current = state.withLock { state in
///     state.snapshot.get { ObserverList(state.list) }   // builds only after a change
/// }
/// // write: O(1), the stale snapshot is released by the caller, after unlocking
/// let stale = state.withLock { state in
///     state.list.append(observer)
///     return state.snapshot.invalidate()
/// }
/// ```
///
/// Why lazily: a change that rebuilt the snapshot cost O(n) per change, so n changes in a
/// row (subscribing n observers, chaining n pipes) cost O(n²). Invalidating is O(1), and a
/// read that rebuilds pays O(n) once per burst of changes, the same order as the read that
/// follows it (which visits the n entries anyway).
///
/// Why a retain rather than hazard pointers or reader counters: every write then costs
/// O(1), independent of how many threads exist, a replaced snapshot is released as soon as
/// its last reader ends (never by a scan), and the whole argument fits in one sentence: a
/// snapshot is immutable and every reader holds a strong reference to it.
@usableFromInline package struct CachedSnapshot<Snapshot: AnyObject> {
    @usableFromInline var cached: Snapshot?

    /// No snapshot yet: the first read builds one.
    @inlinable
    package init() { cached = nil }

    /// The snapshot, built by `make` if a change dropped it. Call with the owner's lock
    /// held; `make` must be library code (it runs under the lock).
    ///
    /// - Complexity: O(1) when cached; otherwise the cost of `make`.
    @inlinable @inline(__always)
    package mutating func get(_ make: () -> Snapshot) -> Snapshot {
        if let cached { return cached }
        let made = make()
        cached = made
        return made
    }

    /// The snapshot if one is cached, without building one.
    @inlinable
    package var current: Snapshot? { cached }

    /// Drops the cached snapshot after a change, and returns it: the caller releases it
    /// after unlocking (it may hold the last reference to user closures).
    ///
    /// - Complexity: O(1).
    @inlinable
    package mutating func invalidate() -> Snapshot? {
        defer { cached = nil }
        return cached
    }
}
