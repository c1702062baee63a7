import Synchronization

/// A ``SnapshotSlot`` in an object of its own, for an owner whose snapshot is shared with
/// objects that must not keep the owner alive.
///
/// `@unchecked Sendable`: its one stored property is atomics.
@usableFromInline package final class SnapshotCell<Snapshot: AnyObject>: @unchecked Sendable {
    @usableFromInline let slot = SnapshotSlot<Snapshot>()

    @usableFromInline package init() {}

    @usableFromInline package typealias Pin = SnapshotSlot<Snapshot>.Pin

    @inlinable @inline(__always)
    package func pin() -> Pin { slot.pin() }

    @inlinable @inline(__always)
    package func pin(on thread: ThreadRecord) -> Pin { slot.pin(on: thread) }

    @inlinable @inline(__always)
    package func unpin(_ pin: Pin) { slot.unpin(pin) }

    @inlinable @inline(__always)
    package func read<Result>(
        on thread: ThreadRecord = .current(), _ body: (Snapshot) -> Result
    ) -> Result {
        slot.read(on: thread, body)
    }

    @inlinable
    package var hasSnapshot: Bool { slot.hasSnapshot }

    @inlinable
    package func load() -> Snapshot? { slot.load() }

    @inlinable
    package func store(_ snapshot: Snapshot?) -> [AnyObject] { slot.store(snapshot) }
}
