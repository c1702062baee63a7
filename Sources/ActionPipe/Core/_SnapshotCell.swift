import ActionPipeKernel
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a pipe keeps the snapshot of its chain: calls read it without a lock and without
/// reference counting; a change swaps in a new snapshot and releases the old one as soon
/// as no call can still be reading it.
///
/// The scheme is sleepable read-copy-update (SRCU), kept per cell:
/// - A call increments a reader counter, loads ``current``, runs its handlers, and
///   decrements the same counter. Counters are sharded per thread (each on its own cache
///   line), so calls from different threads touch no shared cache line with a write; and
///   they come in two phases, so a steady stream of calls cannot keep a counter above
///   zero forever: a writer moves new calls to the other phase and waits for the old one
///   to drain.
/// - A change exchanges ``current`` and retires the old snapshot. A retired snapshot can
///   only be read by calls that incremented a counter before the exchange, so it is
///   released once each phase has been seen at zero (all its shards) after the exchange.
///   Whoever sees that — the writer itself, or the call that brings a shard to zero while
///   a snapshot is retired — releases it, outside every lock.
///
/// Why not a lock and a retain per call (the previous design): two threads calling one
/// chain then contend on the mutex and on the snapshot's reference count, so a second
/// thread made calls slower, not faster. Why not global epochs (tried before): a retired
/// snapshot's release then waited for calls on unrelated pipes of other threads, so a
/// removed handler was released at a moment tests could not predict. Here it is released
/// when the change returns if no call of this pipe is running, or else when the last call
/// that was running returns.
///
/// `@unchecked Sendable`: ``current``, ``phase``, ``pending`` and the counters are atomics;
/// ``retired`` is guarded by its lock.
@usableFromInline
final class _SnapshotCell: @unchecked Sendable {
    /// Shards per phase; a power of two. Threads get shards round-robin (see
    /// ``_readerShard``), so up to this many threads never share a counter.
    @usableFromInline static let shards = 8
    /// Bytes between two counters: one cache line each.
    @usableFromInline static let stride = 64

    /// The current snapshot as a retained `Unmanaged` bit pattern; the cell owns it.
    @usableFromInline let current: Atomic<UInt>
    /// The phase new calls count themselves in, 0 or 1.
    @usableFromInline let phase: Atomic<Int>
    /// Whether snapshots are waiting to be released: a call that brings a shard to zero
    /// checks this and, when set, tries to release them.
    @usableFromInline let pending: Atomic<Bool>
    /// `2 × shards` counters of calls in progress, `stride` bytes apart; phase p, shard s
    /// is counter `p × shards + s`.
    @usableFromInline let counters: UnsafeMutableRawPointer
    /// Replaced snapshots that calls may still read, with the phases not yet seen at zero
    /// since each was replaced.
    private let retired = LockedValue<[_RetiredSnapshot]>([])

    init(_ snapshot: _Snapshot) {
        current = Atomic(UInt(bitPattern: Unmanaged.passRetained(snapshot).toOpaque()))
        phase = Atomic(0)
        pending = Atomic(false)
        let count = 2 * Self.shards
        counters = .allocate(byteCount: count * Self.stride, alignment: Self.stride)
        for index in 0..<count {
            (counters + index * Self.stride).initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        }
    }

    deinit {
        // No call can be running: every call holds its pipe, and the pipe holds the cell.
        Unmanaged<_Snapshot>.fromOpaque(
            UnsafeRawPointer(bitPattern: current.load(ordering: .relaxed))!
        )
        .release()
        for entry in retired.withLock({ $0 }) { entry.snapshot.release() }
        counters.deallocate()
    }

    /// The counter `index` (`phase × shards + shard`).
    @inlinable @inline(__always)
    func counter(_ index: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        (counters + index &* Self.stride).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// Enters a call: counts it as a reader and returns the current snapshot, which stays
    /// valid until ``unpin(_:_:)``.
    @inlinable @inline(__always)
    static func pin(_ cell: Unmanaged<_SnapshotCell>) -> _Pin {
        cell._withUnsafeGuaranteedRef { cell in
            let index = cell.phase.load(ordering: .relaxed) &* shards &+ _readerShard()
            // Sequentially consistent: the increment must be ordered before the load of
            // `current`, so a writer that exchanges `current` and then reads the counters
            // sees this call (or its decrement) whenever the call may hold the old one.
            cell.counter(index).pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
            let bits = cell.current.load(ordering: .sequentiallyConsistent)
            return _Pin(
                snapshot: Unmanaged.fromOpaque(
                    UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped),
                counter: index)
        }
    }

    /// Leaves a call that ``pin(_:)`` entered.
    @inlinable @inline(__always)
    static func unpin(_ cell: Unmanaged<_SnapshotCell>, _ pin: _Pin) {
        cell._withUnsafeGuaranteedRef { cell in
            let left = cell.counter(pin.counter).pointee.wrappingSubtract(
                1, ordering: .sequentiallyConsistent
            ).newValue
            // Sequentially consistent with the writer's `pending` store and counter reads:
            // either the writer sees this shard at zero, or this call sees `pending`.
            if left == 0, cell.pending.load(ordering: .sequentiallyConsistent) {
                cell.reclaim()
            }
        }
    }

    /// The current snapshot, retained: for calls that hold it across suspension points.
    @usableFromInline
    func load() -> _Snapshot {
        let unmanaged = Unmanaged.passUnretained(self)
        let pin = Self.pin(unmanaged)
        defer { Self.unpin(unmanaged, pin) }
        return pin.snapshot.takeUnretainedValue()
    }

    /// Stores `snapshot` and returns the snapshots that no call can read any more; the
    /// caller releases them (drops the returned references) outside every lock. The one
    /// replaced is among them unless a call of this pipe is running; then the last such
    /// call to return releases it.
    func store(_ snapshot: _Snapshot) -> [_Snapshot] {
        let new = UInt(bitPattern: Unmanaged.passRetained(snapshot).toOpaque())
        let old = current.exchange(new, ordering: .sequentiallyConsistent)
        let replaced = Unmanaged<_Snapshot>.fromOpaque(UnsafeRawPointer(bitPattern: old)!)
        return retired.withLock { retired in
            retired.append(_RetiredSnapshot(snapshot: replaced))
            pending.store(true, ordering: .sequentiallyConsistent)
            return collect(&retired)
        }.map { $0.takeRetainedValue() }
    }

    /// Releases the retired snapshots that no call can read any more.
    @usableFromInline
    func reclaim() {
        let free = retired.withLock { collect(&$0) }
        for snapshot in free { snapshot.release() }
    }

    /// Marks the phases now at zero on every retired snapshot, removes and returns those
    /// seen at zero in both phases, and moves new calls away from a phase still awaited.
    /// Call with `retired`'s lock held.
    private func collect(_ retired: inout [_RetiredSnapshot]) -> [Unmanaged<_Snapshot>] {
        let drained = (isDrained(0), isDrained(1))
        var free: [Unmanaged<_Snapshot>] = []
        for index in retired.indices {
            if drained.0 { retired[index].awaits.0 = false }
            if drained.1 { retired[index].awaits.1 = false }
        }
        retired.removeAll { entry in
            if entry.awaits.0 || entry.awaits.1 { return false }
            free.append(entry.snapshot)
            return true
        }
        if retired.isEmpty {
            pending.store(false, ordering: .sequentiallyConsistent)
        } else {
            // New calls go to a phase no retired snapshot waits for, so the awaited one
            // drains; when both are awaited, away from the current one.
            let awaits0 = retired.contains { $0.awaits.0 }
            let awaits1 = retired.contains { $0.awaits.1 }
            let now = phase.load(ordering: .relaxed)
            let next = awaits0 && !awaits1 ? 1 : awaits1 && !awaits0 ? 0 : 1 - now
            phase.store(next, ordering: .sequentiallyConsistent)
        }
        return free
    }

    /// Whether every shard of `phase` is at zero now.
    private func isDrained(_ phase: Int) -> Bool {
        for shard in 0..<Self.shards
        where counter(phase * Self.shards + shard).pointee.load(ordering: .sequentiallyConsistent)
            != 0
        {
            return false
        }
        return true
    }
}

/// A replaced snapshot and the phases of reader counters not yet seen at zero since.
private struct _RetiredSnapshot {
    let snapshot: Unmanaged<_Snapshot>
    var awaits = (true, true)
}

/// A call's hold on a snapshot; see ``_SnapshotCell/pin(_:)``.
@usableFromInline
struct _Pin {
    @usableFromInline let snapshot: Unmanaged<_Snapshot>
    /// The reader counter the call incremented, to decrement the same one.
    @usableFromInline let counter: Int

    @inlinable
    init(snapshot: Unmanaged<_Snapshot>, counter: Int) {
        self.snapshot = snapshot
        self.counter = counter
    }
}

/// The reader shard of the calling thread: threads get shards round-robin on their first
/// call, so two threads share a counter only when more than ``_SnapshotCell/shards``
/// threads call. Kept in thread-specific data (no atomics after the first call).
@inlinable @inline(__always)
func _readerShard() -> Int {
    let key = _readerShardKey.load(ordering: .relaxed)
    if key != 0, let value = pthread_getspecific(numericCast(key &- 1)) {
        return Int(bitPattern: value) &- 1
    }
    return _assignReaderShard()
}

/// The thread-specific-data key of ``_readerShard()`` plus one; 0 until the first call
/// creates it. An atomic with a constant initial value is initialised statically, so
/// reading it costs no lazy-initialisation check on the call path.
@usableFromInline
let _readerShardKey = Atomic<UInt>(0)

private let _nextReaderShard = Atomic<Int>(0)

/// Gives the calling thread its shard, stored as shard + 1 so that `nil` means unset;
/// creates the key on the first call of the process.
@usableFromInline
func _assignReaderShard() -> Int {
    var key = _readerShardKey.load(ordering: .acquiring)
    if key == 0 {
        var created = pthread_key_t()
        guard pthread_key_create(&created, nil) == 0 else {
            fatalError("ActionPipe: pthread_key_create failed (too many thread-specific keys)")
        }
        let (stored, current) = _readerShardKey.compareExchange(
            expected: 0, desired: UInt(created) + 1, ordering: .acquiringAndReleasing)
        if stored {
            key = UInt(created) + 1
        } else {
            pthread_key_delete(created)  // another thread created it first
            key = current
        }
    }
    let shard =
        _nextReaderShard.wrappingAdd(1, ordering: .relaxed).oldValue
        & (_SnapshotCell.shards - 1)
    pthread_setspecific(numericCast(key - 1), UnsafeRawPointer(bitPattern: shard + 1))
    return shard
}
