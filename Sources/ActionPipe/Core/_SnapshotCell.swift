/// Where a pipe keeps the snapshot of its chain.
///
/// A call takes the current snapshot (a short lock around one reference, and a retain)
/// and runs its handlers with no lock held. A change stores a new snapshot; the old one
/// is released once the last call that took it returns.
///
/// Why not lock-free: an epoch-based scheme (per-thread slots, retired snapshots) made
/// calls from many threads scale, but a removed handler's release then depended on calls
/// of other threads, and its timing could not be made deterministic; a handler that is
/// removed must be released when the change returns.
@usableFromInline
final class _SnapshotCell: Sendable {
    @usableFromInline let value: _Locked<_Snapshot>

    init(_ snapshot: _Snapshot) { value = _Locked(snapshot) }

    /// The current snapshot, retained until ``unpin(_:)``.
    @inlinable @inline(__always)
    static func pin(_ cell: Unmanaged<_SnapshotCell>) -> _Pin {
        let snapshot = cell._withUnsafeGuaranteedRef { $0.value.withLock { $0 } }
        return _Pin(snapshot: .passRetained(snapshot))
    }

    /// Releases the snapshot that `pin` took.
    @inlinable @inline(__always)
    static func unpin(_ pin: _Pin) {
        pin.snapshot.release()
    }

    /// The current snapshot, retained.
    @inlinable
    func load() -> _Snapshot { value.withLock { $0 } }

    /// Stores `snapshot` and returns the one it replaces, so the caller can release that
    /// one outside every lock.
    func store(_ snapshot: _Snapshot) -> _Snapshot {
        value.withLock { current in
            let old = current
            current = snapshot
            return old
        }
    }
}

/// A snapshot taken by a call; see ``_SnapshotCell/pin(_:)``.
@usableFromInline
struct _Pin {
    @usableFromInline let snapshot: Unmanaged<_Snapshot>

    @inlinable
    init(snapshot: Unmanaged<_Snapshot>) { self.snapshot = snapshot }
}
