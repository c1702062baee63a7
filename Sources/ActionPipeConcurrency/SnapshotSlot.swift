import Synchronization

/// A published snapshot that readers use with no lock, no reference counting and no write
/// to memory another thread writes: the read side of every hot path (a call on a pipe, a
/// publish, an observed property's delivery, a plumbing send).
///
/// How (hazard pointers, Michael 2004): a reader stores the snapshot it is about to use
/// in a hazard slot of its own thread's ``ThreadRecord``, then checks that the snapshot
/// is still current (else it tries again with the new one); when done, it clears the slot.
/// A writer (``store(_:)``, serialised by its caller) swaps in the new snapshot and frees
/// the old one at once unless some thread's hazard slot holds it; a held one waits in the
/// process's one retired list, freed by a later store of any slot, or by its last reader
/// when it unpins.
///
/// - Every hazard store and the writer's swap and scan are sequentially consistent: either
///   the reader's check sees the new snapshot (and retries), or the writer's scan sees the
///   reader's slot (and keeps the old one).
/// - A slow reader keeps alive only what it reads: one snapshot per pin.
/// - One retired list for every slot, not one per slot: the same object may be stored in
///   several slots (a chain's snapshot, cached by each of its pipes), and a reader that
///   came through one slot must find it when another slot retired it.
/// - A pin is bound to its thread: it is taken and ended by synchronous code, never held
///   across a suspension. An async reader takes a counted reference with ``load()``.
///
/// Freed snapshots are returned (by ``store(_:)``) or released by the reader that freed
/// them, never under a lock: their `deinit` may release user closures.
///
/// `@unchecked Sendable`: `current` is atomic; the retired list is behind its lock.
@usableFromInline package struct SnapshotSlot<Snapshot: AnyObject>: ~Copyable, @unchecked Sendable {
    /// The current snapshot as a retained bit pattern, or 0 for none.
    @usableFromInline let current = Atomic<UInt>(0)

    /// A slot holding no snapshot.
    @inlinable package init() {}

    @inlinable deinit {
        // No reader runs: each holds the slot's owner, which holds the slot. What the slot
        // retired before is in the process's list, which frees it.
        let bits = current.load(ordering: .relaxed)
        if bits != 0 { Self.unmanaged(bits).release() }
    }

    @inlinable @inline(__always)
    static func unmanaged(_ bits: UInt) -> Unmanaged<Snapshot> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// A reader's hold on the snapshot it loaded: valid on the thread that took it, until
    /// ``SnapshotSlot/unpin(_:)``.
    @usableFromInline package struct Pin {
        @usableFromInline let bits: UInt
        /// The reader's hazard slot, which holds `bits`.
        @usableFromInline let hazard: UnsafeMutablePointer<Atomic<UInt>>

        @inlinable
        init(bits: UInt, hazard: UnsafeMutablePointer<Atomic<UInt>>) {
            self.bits = bits
            self.hazard = hazard
        }

        /// The record of the thread that took the pin.
        ///
        /// - Complexity: O(1): one load.
        @inlinable
        package var thread: ThreadRecord { ThreadRecord.owner(of: hazard) }

        /// The snapshot, valid until the pin is passed to ``SnapshotSlot/unpin(_:)``.
        @inlinable
        package var snapshot: Unretained<Snapshot>? {
            bits == 0 ? nil : Unretained(reference: SnapshotSlot.unmanaged(bits))
        }
    }

    /// Starts a read: the snapshot it returns stays valid until ``unpin(_:)``, which must
    /// follow on every path, on the same thread, before any suspension; pins on one thread
    /// end in the reverse order they were taken.
    ///
    /// - Complexity: O(1): a store to the thread's own hazard slot and two loads (one more
    ///   round when a writer swapped the snapshot in between).
    @inlinable @inline(__always)
    package func pin() -> Pin { pin(on: ThreadRecord.current()) }

    /// ``pin()``, out of line and declared to release no object: for a caller that holds a
    /// reference (a call's temporary, which owns the pipe) only until the pin is taken. A
    /// retain held across an inlined pin (a C call, sequentially consistent atomics) is
    /// one the compiler must keep; across this call it can drop it, and with it a write to
    /// a reference count every calling thread shares.
    ///
    /// - Complexity: O(1), as ``pin()``, plus a call.
    @inlinable @inline(never) @_effects(releasenone)
    package func pinReleasingNothing() -> Pin { pin(on: ThreadRecord.current()) }

    /// ``pin()`` for a caller that has the calling thread's record at hand.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func pin(on record: ThreadRecord) -> Pin {
        let index = record.top.pointee
        record.top.pointee = index &+ 1
        let hazard = record.slot(index)
        var bits = current.load(ordering: .relaxed)
        while true {
            hazard.pointee.store(bits, ordering: .sequentiallyConsistent)
            let again = current.load(ordering: .sequentiallyConsistent)
            if again == bits { return Pin(bits: bits, hazard: hazard) }
            bits = again
        }
    }

    /// Runs `body` with the current snapshot, borrowed and pinned for the whole of `body`,
    /// which must be synchronous: the borrow-only way to read a slot. The slot must hold a
    /// snapshot (its owner stores one at `init`, or checked ``hasSnapshot`` under the lock
    /// its writers take).
    ///
    /// - Complexity: O(1) plus `body` (see ``pin()`` and ``unpin(_:)``).
    @inlinable @inline(__always)
    package func read<Result>(on thread: ThreadRecord, _ body: (Snapshot) -> Result) -> Result {
        let pin = pin(on: thread)
        defer { unpin(pin) }
        return pin.snapshot.unsafelyUnwrapped.with(body)
    }

    /// Ends the read `pin` started; frees the retired snapshots no reader holds any more
    /// when it read one of them.
    ///
    /// - Complexity: O(1); when it read a retired snapshot, a scan of every thread's slots.
    @inlinable @inline(__always)
    package func unpin(_ pin: Pin) {
        if leave(pin) { reclaim() }
    }

    /// Ends the read `pin` started, like ``unpin(_:)``, and returns whether the caller must
    /// call ``reclaim()``: for an owner that reaches the rare path through a function of its
    /// own, so its callers need only the owner's address, not the slot's, kept live.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func leave(_ pin: Pin) -> Bool {
        // Only a reader of a replaced snapshot may be the last one some retired snapshot
        // waits for; readers of the current one never look further. The slot is read
        // while the pin still holds the snapshot, which may be all that keeps the slot's
        // owner alive (a pipe dropped by its own handler). A snapshot replaced between this
        // load and the clear waits for the next store of any slot.
        let replaced = pin.bits != current.load(ordering: .sequentiallyConsistent)
        pin.hazard.pointee.store(0, ordering: .sequentiallyConsistent)
        ThreadRecord.owner(of: pin.hazard).top.pointee &-= 1
        // After the clear, sequentially consistent: a writer sets `pending` before it scans.
        return replaced
            && _RetiredSnapshots.shared.pending.load(ordering: .sequentiallyConsistent)
    }

    /// Whether a snapshot is stored. Exact for writers and for readers serialised with
    /// them (under the writers' lock); a hint for others.
    ///
    /// - Complexity: O(1), one relaxed load.
    @inlinable
    package var hasSnapshot: Bool { current.load(ordering: .relaxed) != 0 }

    /// The current snapshot, retained: for an async reader (a pin cannot cross a
    /// suspension) and for writers. Its end may free retired snapshots, which it releases
    /// itself: a caller that holds a lock uses ``load(freeing:)``.
    ///
    /// - Complexity: O(1).
    @usableFromInline package func load() -> Snapshot? {
        let pin = pin()
        defer { unpin(pin) }
        return pin.snapshot?.object
    }

    /// The current snapshot, retained, for a caller that holds a lock: the snapshots that
    /// this read's end frees (their `deinit` may release user code) are added to `freed`,
    /// for the caller to release after unlocking.
    ///
    /// - Complexity: O(1); when it read a retired snapshot, a scan of every thread's slots.
    @inlinable package func load(freeing freed: inout [AnyObject]) -> Snapshot? {
        let pin = pin()
        let snapshot = pin.snapshot?.object
        if leave(pin) { freed += _RetiredSnapshots.shared.collect() }
        return snapshot
    }

    /// Publishes `snapshot` (or none) and returns the replaced snapshots no reader holds
    /// (of this slot, or retired earlier by any slot); the caller releases them (drops the
    /// array) outside every lock. Writers must be serialised by the caller.
    ///
    /// - Complexity: O(t) for t threads that read (a scan of their hazard slots), when a
    ///   snapshot is replaced or some retired snapshot waits; O(1) otherwise.
    @inlinable package func store(_ snapshot: Snapshot?) -> [AnyObject] {
        let new = snapshot.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        let old = current.exchange(new, ordering: .sequentiallyConsistent)
        return _RetiredSnapshots.shared.retire(old)
    }

    /// Frees the retired snapshots no reader holds any more. Never inlined (it is rare).
    @inlinable @inline(never)
    package func reclaim() {
        for snapshot in _RetiredSnapshots.shared.collect() { _ = snapshot }
    }
}

/// The snapshots every slot of the process retired while a reader held them (each
/// retained), behind their lock, and whether there are any.
@usableFromInline
final class _RetiredSnapshots: Sendable {
    /// The process's list.
    @usableFromInline static let shared = _RetiredSnapshots()

    @usableFromInline let entries = LockedValue<[UInt]>([])
    /// Whether `entries` holds a snapshot; set only under the lock.
    @usableFromInline let pending = Atomic<Bool>(false)

    @usableFromInline init() {}

    /// Frees `old` (a retained bit pattern just swapped out of a slot, or 0), unless a reader
    /// holds it, with every retired snapshot no reader holds any more; returns what it freed.
    /// An `old` no reader holds is always returned to this caller, never left in the list
    /// for another thread to release.
    ///
    /// - Complexity: O(1) when `old` is 0 and nothing waits; else a scan of the threads'
    ///   hazard slots, plus the snapshots waiting.
    @usableFromInline
    func retire(_ old: UInt) -> [AnyObject] {
        var freed: [AnyObject] = []
        let kept = old != 0 && ThreadRecord.isRead(old)
        if old != 0, !kept { freed.append(Self.object(old)) }
        if kept || pending.load(ordering: .sequentiallyConsistent) {
            freed += entries.withLock { retired in
                if kept { retired.append(old) }
                return collect(&retired)
            }.map(Self.object)
        }
        return freed
    }

    /// Removes and returns the retired snapshots no thread's hazard slot holds.
    @usableFromInline
    func collect() -> [AnyObject] {
        entries.withLock { collect(&$0) }.map(Self.object)
    }

    /// The object whose retained bit pattern is `bits`, taking over that retain.
    @usableFromInline
    static func object(_ bits: UInt) -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            .takeRetainedValue()
    }

    /// Removes and returns the entries of `retired` no hazard slot holds. Call with the lock
    /// held.
    func collect(_ retired: inout [UInt]) -> [UInt] {
        guard !retired.isEmpty else { return [] }
        // Set before the scan: a reader that clears its slot after the scan sees it, and
        // frees what this scan had to keep (see `SnapshotSlot.leave`).
        pending.store(true, ordering: .sequentiallyConsistent)
        var hazards: [UInt] = []
        ThreadRecord.collectHazards(into: &hazards)
        var free: [UInt] = []
        retired.removeAll { bits in
            if hazards.contains(bits) { return false }
            free.append(bits)
            return true
        }
        if retired.isEmpty { pending.store(false, ordering: .sequentiallyConsistent) }
        return free
    }
}
