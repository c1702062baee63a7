import Synchronization

/// A ``SnapshotSlot`` in an object of its own: for an owner that shares its snapshot with
/// objects that must not keep the owner alive (a bus's routes, a property's observers, a
/// plumber's configuration).
///
/// `@unchecked Sendable`: its one stored property is `Sendable` in all but name (atomics).
@usableFromInline package final class SnapshotCell<Snapshot: AnyObject>: @unchecked Sendable {
    /// The slot itself.
    @usableFromInline let slot = SnapshotSlot<Snapshot>()

    /// A cell holding no snapshot.
    @usableFromInline package init() {}

    /// A reader's hold on the snapshot it loaded.
    @usableFromInline package typealias Pin = SnapshotSlot<Snapshot>.Pin

    /// ``SnapshotSlot/pin()``.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func pin() -> Pin { slot.pin() }

    /// ``SnapshotSlot/pin(on:)``.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func pin(on thread: ThreadRecord) -> Pin { slot.pin(on: thread) }

    /// ``SnapshotSlot/unpin(_:)``.
    ///
    /// - Complexity: O(1); O(r) for r retired snapshots when it is the last reader some wait
    ///   for.
    @inlinable @inline(__always)
    package func unpin(_ pin: Pin) { slot.unpin(pin) }

    /// ``SnapshotSlot/read(on:_:)``.
    ///
    /// - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    package func read<Result>(
        on thread: ThreadRecord = .current(), _ body: (Snapshot) -> Result
    ) -> Result {
        slot.read(on: thread, body)
    }

    /// ``SnapshotSlot/hasSnapshot``.
    ///
    /// - Complexity: O(1).
    @inlinable
    package var hasSnapshot: Bool { slot.hasSnapshot }

    /// ``SnapshotSlot/load()``.
    ///
    /// - Complexity: O(1).
    @inlinable
    package func load() -> Snapshot? { slot.load() }

    /// ``SnapshotSlot/store(_:)``.
    ///
    /// - Complexity: O(1) plus the retired snapshots still awaited.
    @inlinable
    package func store(_ snapshot: Snapshot?) -> [AnyObject] { slot.store(snapshot) }
}
