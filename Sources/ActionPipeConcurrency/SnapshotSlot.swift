import Synchronization

/// A published snapshot that readers use with no lock, no reference counting and no write
/// to memory another thread writes: the read side of every hot path, by hazard pointers in
/// each thread's ``ThreadRecord`` (`Docs/Internals.md`, "The hot paths' read side").
///
/// - Hazard stores and the writer's swap and scan are sequentially consistent: either the
///   reader's check sees the new snapshot, or the writer's scan sees the reader's slot.
/// - One retired list for every slot: one object may be stored in several slots (a chain's
///   snapshot, cached by each pipe), and a reader through one must be seen when another
///   retires it.
/// - A pin is bound to its thread, never held across a suspension; async readers ``load()``.
///
/// `@unchecked Sendable`: `current` is atomic; the retired list is behind its lock.
@usableFromInline package struct SnapshotSlot<Snapshot: AnyObject>: ~Copyable, @unchecked Sendable {
    /// A retained bit pattern, or 0.
    @usableFromInline let current = Atomic<UInt>(0)

    @inlinable package init() {}

    @inlinable deinit {
        // No reader runs (each holds the slot's owner); what it retired is in the process's list.
        let bits = current.load(ordering: .relaxed)
        if bits != 0 { Self.unmanaged(bits).release() }
    }

    @inlinable @inline(__always)
    static func unmanaged(_ bits: UInt) -> Unmanaged<Snapshot> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// A reader's hold on a snapshot: valid on its thread until ``SnapshotSlot/unpin(_:)``.
    @usableFromInline package struct Pin {
        @usableFromInline let bits: UInt
        @usableFromInline let hazard: UnsafeMutablePointer<Atomic<UInt>>

        @inlinable
        init(bits: UInt, hazard: UnsafeMutablePointer<Atomic<UInt>>) {
            self.bits = bits
            self.hazard = hazard
        }

        @inlinable
        package var thread: ThreadRecord { ThreadRecord.owner(of: hazard) }

        @inlinable
        package var snapshot: Unretained<Snapshot>? {
            bits == 0 ? nil : Unretained(reference: SnapshotSlot.unmanaged(bits))
        }
    }

    /// Starts a read, valid until ``unpin(_:)``, which must follow on every path, on the same
    /// thread, before any suspension; pins on one thread end in reverse order.
    ///
    /// - Complexity: O(1): one hazard store and two loads (a round more per concurrent swap).
    @inlinable @inline(__always)
    package func pin() -> Pin { pin(on: ThreadRecord.current()) }

    /// ``pin()``, out of line and declared to release no object, so a caller that holds a
    /// reference (a call's temporary, owning the pipe) only until the pin is taken lets the
    /// compiler drop that retain, and its shared reference-count write.
    @inlinable @inline(never) @_effects(releasenone)
    package func pinReleasingNothing() -> Pin { pin(on: ThreadRecord.current()) }

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

    /// Runs synchronous `body` with the current snapshot, borrowed and pinned. The slot must
    /// hold a snapshot (stored at the owner's `init`, or ``hasSnapshot`` checked under its lock).
    @inlinable @inline(__always)
    package func read<Result>(on thread: ThreadRecord, _ body: (Snapshot) -> Result) -> Result {
        let pin = pin(on: thread)
        defer { unpin(pin) }
        return pin.snapshot.unsafelyUnwrapped.with(body)
    }

    /// Ends the read `pin` started; frees the retired snapshots it was the last reader of.
    ///
    /// - Complexity: O(1); when it read a retired snapshot, a scan of every thread's slots.
    @inlinable @inline(__always)
    package func unpin(_ pin: Pin) {
        if leave(pin) { reclaim() }
    }

    /// ``unpin(_:)`` returning whether the caller must ``reclaim()``: an owner reaching that
    /// rare path through its own function keeps only its own address live, not the slot's.
    @inlinable @inline(__always)
    package func leave(_ pin: Pin) -> Bool {
        // Only a reader of a replaced snapshot can be the last one a retired snapshot waits
        // for. The slot is read while the pin may be all that keeps its owner alive.
        let replaced = pin.bits != current.load(ordering: .sequentiallyConsistent)
        pin.hazard.pointee.store(0, ordering: .sequentiallyConsistent)
        ThreadRecord.owner(of: pin.hazard).top.pointee &-= 1
        // After the clear: a writer sets `pending` before it scans.
        return replaced
            && _RetiredSnapshots.shared.pending.load(ordering: .sequentiallyConsistent)
    }

    /// Exact for writers and readers under the writers' lock; a hint for others.
    @inlinable
    package var hasSnapshot: Bool { current.load(ordering: .relaxed) != 0 }

    /// The current snapshot, retained: for async readers and writers. It releases what its
    /// end frees: a caller holding a lock uses ``load(freeing:)``.
    @usableFromInline package func load() -> Snapshot? {
        let pin = pin()
        defer { unpin(pin) }
        return pin.snapshot?.object
    }

    /// ``load()`` for a caller holding a lock: what the read's end frees goes to `freed`, for
    /// the caller to release after unlocking.
    @inlinable package func load(freeing freed: inout [AnyObject]) -> Snapshot? {
        let pin = pin()
        let snapshot = pin.snapshot?.object
        if leave(pin) { freed += _RetiredSnapshots.shared.collect() }
        return snapshot
    }

    /// Publishes `snapshot` and returns the replaced snapshots no reader holds (of this slot,
    /// or retired earlier by any slot), for the caller to release outside every lock.
    ///
    /// - Complexity: O(t) for t reading threads when a snapshot is replaced or one waits; else O(1).
    @inlinable package func store(_ snapshot: Snapshot?) -> [AnyObject] {
        let new = snapshot.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        let old = current.exchange(new, ordering: .sequentiallyConsistent)
        return _RetiredSnapshots.shared.retire(old)
    }

    @inlinable @inline(never)
    package func reclaim() {
        for snapshot in _RetiredSnapshots.shared.collect() { _ = snapshot }
    }
}

/// The snapshots every slot retired while a reader held them (each retained).
@usableFromInline
final class _RetiredSnapshots: Sendable {
    @usableFromInline static let shared = _RetiredSnapshots()

    @usableFromInline let entries = LockedValue<[UInt]>([])
    /// Set only under the lock.
    @usableFromInline let pending = Atomic<Bool>(false)

    @usableFromInline init() {}

    /// Frees `old` (a retained bit pattern, or 0) unless a reader holds it, with every retired
    /// snapshot no reader holds; returns what it freed. An unheld `old` always goes back to
    /// this caller, never to another thread.
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

    @usableFromInline
    static func object(_ bits: UInt) -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            .takeRetainedValue()
    }

    /// Call with the lock held.
    func collect(_ retired: inout [UInt]) -> [UInt] {
        guard !retired.isEmpty else { return [] }
        // Set before the scan: a reader that clears its slot after it frees what this keeps.
        pending.store(true, ordering: .sequentiallyConsistent)
        var hazards: [UInt] = []
        ThreadRecord.forEachHazard { hazards.append($0) }
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
