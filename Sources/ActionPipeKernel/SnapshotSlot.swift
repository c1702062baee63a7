import Synchronization

/// A published snapshot that readers use with no lock and no reference counting: the read
/// side of the hottest path, a call on a pipe.
///
/// It earns its place against the plain scheme (retain the snapshot under the owner's
/// lock): a call then costs a lock, an unlock, a retain and a release around three handler
/// calls, and the core's call misses its benchmark targets (`Benchmarks/`, core rows 1 and
/// 6). Here a read is one atomic increment and one decrement of a counter in the slot.
///
/// How, in short (sleepable read-copy-update with two phases):
/// - A reader increments the counter of the current phase, loads ``pin()``'s snapshot and,
///   when done, decrements the same counter. Both counters share one word (phase 0 in its
///   low half, phase 1 in its high half), so a reader needs only that word's address for
///   the whole read: a call keeps it in a register across its handlers. Sequentially consistent: a writer that swapped
///   the snapshot and then reads the counters sees every reader that may hold the old one.
/// - A writer (``store(_:)``, serialised by its caller) swaps in the new snapshot, retires
///   the old one, and moves new readers to the other phase. A retired snapshot is freed
///   once both phases have been seen at zero after it was retired: by the writer if no
///   reader runs, else by the reader that brings a counter to zero while one is pending.
/// - Two phases, so a steady stream of overlapping readers cannot keep a snapshot alive:
///   new readers count in the other phase, and the awaited one drains.
///
/// Freed snapshots are returned (by ``store(_:)``) or released by the reader that freed
/// them, never under a lock: their `deinit` may release user closures.
///
/// `@unchecked Sendable`: `current`, `phase`, `pending` and the counters are atomics;
/// `retired` is behind its lock.
@usableFromInline package struct SnapshotSlot<Snapshot: AnyObject>: ~Copyable, @unchecked Sendable {
    // Three words, then the two one-byte atomics: 32 bytes inline in its owner.

    /// The current snapshot as a retained bit pattern, or 0 for none.
    @usableFromInline let current = Atomic<UInt>(0)
    /// Readers in progress: phase 0's count in the low half, phase 1's in the high half
    /// (each half counts up to 2^32 − 1 readers, 2^16 − 1 on a 32-bit platform).
    @usableFromInline let readers = Atomic<UInt>(0)
    /// Replaced snapshots some reader may still use, with the phases not yet seen at zero;
    /// made by the first store that finds a reader running (most slots never need it).
    /// Written once, by a writer, before `pending` is first set; readers only reach it
    /// after seeing `pending` set.
    @usableFromInline let retiredList = AtomicLazyReference<_RetiredSnapshots>()
    /// The phase new readers count in, 0 or 1.
    @usableFromInline let phase = Atomic<UInt8>(0)
    /// Whether retired snapshots wait for the readers of a phase to finish.
    @usableFromInline let pending = Atomic<Bool>(false)

    /// A slot holding no snapshot.
    @inlinable package init() {}

    @inlinable deinit {
        // No reader runs: each holds the slot's owner, which holds the slot.
        let bits = current.load(ordering: .relaxed)
        if bits != 0 { Self.unmanaged(bits).release() }
        for entry in retiredList.load()?.entries.withLock({ $0 }) ?? [] {
            Self.unmanaged(entry.snapshot).release()
        }
    }

    @inlinable @inline(__always)
    static func unmanaged(_ bits: UInt) -> Unmanaged<Snapshot> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// Half the bits of ``readers``: where phase 1's count starts.
    @inlinable static var halfWidth: UInt { UInt(UInt.bitWidth / 2) }
    /// The low half of ``readers``.
    @inlinable static var halfMask: UInt { (1 &<< halfWidth) &- 1 }

    /// A reader's hold on the snapshot it loaded.
    @usableFromInline package struct Pin {
        @usableFromInline let bits: UInt
        /// What the reader added to ``readers``: 1 in phase 0, 1 << halfWidth in phase 1.
        @usableFromInline let unit: UInt

        @inlinable
        init(bits: UInt, unit: UInt) {
            self.bits = bits
            self.unit = unit
        }

        /// The snapshot, valid until the pin is passed to ``SnapshotSlot/unpin(_:)``.
        @inlinable
        package var snapshot: Unmanaged<Snapshot>? {
            bits == 0 ? nil : SnapshotSlot.unmanaged(bits)
        }
    }

    /// Starts a read: the snapshot it returns stays valid until ``unpin(_:)``, which must
    /// follow on every path (it may run on another thread, after a suspension).
    ///
    /// - Complexity: O(1): one atomic increment and two loads.
    @inlinable @inline(__always)
    package func pin() -> Pin {
        let unit = UInt(1) &<< (UInt(phase.load(ordering: .relaxed)) &* Self.halfWidth)
        readers.wrappingAdd(unit, ordering: .sequentiallyConsistent)
        return Pin(bits: current.load(ordering: .sequentiallyConsistent), unit: unit)
    }

    /// Ends the read `pin` started; frees the retired snapshots no reader can use any more
    /// when it is the last reader of a phase some wait for.
    ///
    /// - Complexity: O(1), one atomic decrement; when it is the last reader some retired
    ///   snapshot waits for, O(r) for r retired snapshots.
    @inlinable @inline(__always)
    package func unpin(_ pin: Pin) {
        if leave(pin) { reclaim() }
    }

    /// Ends the read `pin` started, like ``unpin(_:)``, and returns whether the caller must
    /// call ``reclaim()``: for an owner that reaches the rare path through a function of its
    /// own, so its callers need only the owner's address, not the slot's, kept live.
    ///
    /// - Complexity: O(1), one atomic decrement.
    @inlinable @inline(__always)
    package func leave(_ pin: Pin) -> Bool {
        let now = readers.wrappingSubtract(pin.unit, ordering: .sequentiallyConsistent).newValue
        let left = pin.unit == 1 ? now & Self.halfMask : now &>> Self.halfWidth
        return left == 0 && pending.load(ordering: .sequentiallyConsistent)
    }

    /// Whether a snapshot is stored. Exact for writers and for readers serialised with
    /// them (under the writers' lock); a hint for others.
    ///
    /// - Complexity: O(1), one relaxed load.
    @inlinable
    package var hasSnapshot: Bool { current.load(ordering: .relaxed) != 0 }

    /// The current snapshot, retained. Its end may free retired snapshots, which it
    /// releases itself: a caller that holds a lock uses ``load(freeing:)``.
    ///
    /// - Complexity: O(1).
    @usableFromInline package func load() -> Snapshot? {
        let pin = pin()
        defer { unpin(pin) }
        return pin.snapshot?.takeUnretainedValue()
    }

    /// The current snapshot, retained, for a caller that holds a lock: the snapshots that
    /// this read's end frees (their `deinit` may release user code) are added to `freed`,
    /// for the caller to release after unlocking.
    ///
    /// - Complexity: O(1); when this read is the last one some retired snapshot waits for,
    ///   O(r) for r retired snapshots.
    @inlinable package func load(freeing freed: inout [Snapshot]) -> Snapshot? {
        let pin = pin()
        let snapshot = pin.snapshot?.takeUnretainedValue()
        if leave(pin) { freed += reclaimed() }
        return snapshot
    }

    /// Publishes `snapshot` (or none) and returns the replaced snapshots no reader can use
    /// any more; the caller releases them (drops the array) outside every lock. Writers
    /// must be serialised by the caller.
    ///
    /// - Complexity: O(1) plus the retired snapshots still awaited (at most a few: each
    ///   store frees every snapshot whose readers have finished).
    @inlinable package func store(_ snapshot: Snapshot?) -> [Snapshot] {
        let new = snapshot.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        let old = current.exchange(new, ordering: .sequentiallyConsistent)
        guard old != 0 else { return [] }
        // No reader running and none waited for: no reader can hold the old snapshot (a
        // reader counts itself before it loads, and this exchange came before these loads).
        if !pending.load(ordering: .sequentiallyConsistent),
            readers.load(ordering: .sequentiallyConsistent) == 0
        {
            return [Self.unmanaged(old).takeRetainedValue()]
        }
        let retiredList =
            retiredList.load() ?? retiredList.storeIfNil(_RetiredSnapshots())
        return retiredList.entries.withLock { retired in
            retired.append((old, (true, true)))
            pending.store(true, ordering: .sequentiallyConsistent)
            return collect(&retired)
        }.map { Self.unmanaged($0).takeRetainedValue() }
    }

    /// Frees the retired snapshots no reader can use any more. Specialised where it is
    /// called (no metadata to look up on the reader's path), never inlined (it is rare).
    @inlinable @inline(never)
    package func reclaim() {
        guard let retiredList = retiredList.load() else { return }
        let free = retiredList.entries.withLock { collect(&$0) }
        for bits in free { Self.unmanaged(bits).release() }
    }

    /// The retired snapshots no reader can use any more, removed from the slot, for the
    /// caller to release: ``reclaim()`` for a caller that holds a lock.
    @inlinable @inline(never)
    package func reclaimed() -> [Snapshot] {
        guard let retiredList = retiredList.load() else { return [] }
        return retiredList.entries.withLock { collect(&$0) }.map {
            Self.unmanaged($0).takeRetainedValue()
        }
    }

    /// Marks the phases now at zero on every retired snapshot, removes and returns those
    /// seen at zero in both, and moves new readers away from a phase still awaited. Call
    /// with `retired`'s lock held.
    @usableFromInline
    func collect(_ retired: inout [(snapshot: UInt, awaits: (Bool, Bool))]) -> [UInt] {
        let counts = readers.load(ordering: .sequentiallyConsistent)
        let drained0 = counts & Self.halfMask == 0
        let drained1 = counts &>> Self.halfWidth == 0
        var free: [UInt] = []
        for index in retired.indices {
            if drained0 { retired[index].awaits.0 = false }
            if drained1 { retired[index].awaits.1 = false }
        }
        retired.removeAll { entry in
            if entry.awaits.0 || entry.awaits.1 { return false }
            free.append(entry.snapshot)
            return true
        }
        if retired.isEmpty {
            pending.store(false, ordering: .sequentiallyConsistent)
        } else {
            // New readers go to a phase no retired snapshot waits for, so the awaited one
            // drains; when both are awaited, away from the current one.
            let awaits0 = retired.contains { $0.awaits.0 }
            let awaits1 = retired.contains { $0.awaits.1 }
            let now = phase.load(ordering: .relaxed)
            let next: UInt8 = awaits0 && !awaits1 ? 1 : awaits1 && !awaits0 ? 0 : 1 - now
            phase.store(next, ordering: .sequentiallyConsistent)
        }
        return free
    }
}

/// The snapshots a slot retired while readers ran, behind their lock: a separate object, so
/// a slot that never needs it (most) pays one word for it.
@usableFromInline
final class _RetiredSnapshots: Sendable {
    @usableFromInline let entries = LockedValue<[(snapshot: UInt, awaits: (Bool, Bool))]>([])

    @usableFromInline init() {}
}
