import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a pipe keeps the snapshot of its chain, read by calls without a lock and without
/// touching any reference count that other threads touch.
///
/// ## How a call reads it (epoch-based reclamation)
/// A call announces, in a slot that only its own thread writes, the global epoch at which
/// it starts reading; it then loads the snapshot pointer and uses it unretained; when the
/// outermost call of the thread returns, it clears its slot. A change that replaces a
/// snapshot does not release the old one: it *retires* it with the current epoch and
/// advances the epoch. A retired snapshot is released once every slot is either clear or
/// announces a later epoch, because from then on no call can still be using it.
///
/// The cost of a call is a thread-local lookup and two stores to the thread's own slot,
/// instead of a lock and a retain/release pair on objects every calling thread shares, so
/// calls from many threads do not slow each other down. Async calls, which may resume on
/// another thread, retain the snapshot instead (``load()``).
///
/// `@unchecked Sendable`: `pointer` is only accessed atomically; it owns one retain of
/// the snapshot it points to.
@usableFromInline
final class _SnapshotCell: @unchecked Sendable {
    /// The current snapshot, retained, as the bits of its address.
    @usableFromInline let pointer: Atomic<UInt>

    init(_ snapshot: _Snapshot) {
        pointer = Atomic(UInt(bitPattern: Unmanaged.passRetained(snapshot).toOpaque()))
    }

    deinit {
        // No call can be reading: every call holds the pipe, and so this cell.
        let raw = pointer.load(ordering: .acquiring)
        Unmanaged<_Snapshot>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).release()
    }

    /// Starts reading: announces the read in this thread's slot and returns the current
    /// snapshot, unretained, valid until ``unpin(_:)``. Nested reads on one thread are
    /// fine; the read must not suspend.
    @inlinable @inline(__always)
    func pin() -> _Pin {
        Self.pin(.passUnretained(self))
    }

    /// ``pin()`` for a cell the caller keeps alive, without retaining it: the calls of
    /// many threads on one pipe then share no reference count.
    @inlinable @inline(__always)
    static func pin(_ cell: Unmanaged<_SnapshotCell>) -> _Pin {
        let slot = _ReaderSlot.current
        let address = UInt(bitPattern: cell.toOpaque())
        let outermost = slot._withUnsafeGuaranteedRef { slot in
            let outermost = slot.depth == 0
            if outermost {
                // Released before the epoch is announced, and after the previous call of
                // this thread cleared its slot: see `_Retired.reclaim()`.
                slot.cell.store(address, ordering: .releasing)
                slot.pinned.store(
                    _epoch.load(ordering: .sequentiallyConsistent),
                    ordering: .sequentiallyConsistent)
            } else if slot.cell.load(ordering: .relaxed) != address {
                // A nested call on another chain: from now on this call may hold any cell.
                slot.cell.store(_ReaderSlot.anyCell, ordering: .sequentiallyConsistent)
            }
            slot.depth &+= 1
            return outermost
        }
        let raw = cell._withUnsafeGuaranteedRef {
            $0.pointer.load(ordering: .sequentiallyConsistent)
        }
        return _Pin(
            slot: slot, outermost: outermost,
            snapshot: .fromOpaque(UnsafeRawPointer(bitPattern: raw)!))
    }

    /// Ends the read that `pin` started.
    @inlinable @inline(__always)
    static func unpin(_ pin: _Pin) {
        pin.slot._withUnsafeGuaranteedRef { slot in
            slot.depth &-= 1
            if pin.outermost {
                slot.pinned.store(0, ordering: .releasing)
                if _Retired.shared.pending.load(ordering: .relaxed) { _Retired.shared.reclaim() }
            }
        }
    }

    /// Runs `body` with the current snapshot, unretained: valid until `body` returns.
    @inlinable
    func withCurrent<Result>(_ body: (_Snapshot) -> Result) -> Result {
        let pin = pin()
        defer { Self.unpin(pin) }
        return pin.snapshot._withUnsafeGuaranteedRef(body)
    }

    /// The current snapshot, retained: for calls that suspend, and for other readers.
    @inlinable
    func load() -> _Snapshot {
        withCurrent { $0 }
    }

    /// Stores `snapshot` and returns the one it replaces (still retained by the caller
    /// now), which must go to ``_retire(_:)``, never be released directly.
    func store(_ snapshot: _Snapshot) -> _Snapshot {
        let new = UInt(bitPattern: Unmanaged.passRetained(snapshot).toOpaque())
        let old = pointer.exchange(new, ordering: .sequentiallyConsistent)
        return Unmanaged<_Snapshot>.fromOpaque(UnsafeRawPointer(bitPattern: old)!)
            .takeRetainedValue()
    }
}

/// A read of a snapshot cell in progress; see ``_SnapshotCell/pin()``.
@usableFromInline
struct _Pin {
    @usableFromInline let slot: Unmanaged<_ReaderSlot>
    @usableFromInline let outermost: Bool
    @usableFromInline let snapshot: Unmanaged<_Snapshot>

    @inlinable
    init(slot: Unmanaged<_ReaderSlot>, outermost: Bool, snapshot: Unmanaged<_Snapshot>) {
        self.slot = slot
        self.outermost = outermost
        self.snapshot = snapshot
    }
}

/// The global epoch of snapshot reclamation; starts at 1, because 0 marks an idle slot.
/// A global constant, so reading it needs no lazy-initialisation check.
@usableFromInline let _epoch = Atomic<UInt64>(1)

/// One thread's announcement of the epoch at which its outermost call started reading
/// snapshots, or 0 while it reads none.
///
/// `@unchecked Sendable`: `pinned` is atomic; `depth` is only touched by the slot's own
/// thread; `finished` is atomic.
@usableFromInline
final class _ReaderSlot: @unchecked Sendable {
    @usableFromInline let pinned = Atomic<UInt64>(0)
    /// The address of the cell the outermost call reads, or ``anyCell`` once a nested
    /// call read another: a retired snapshot waits only for the calls that may hold it.
    @usableFromInline let cell = Atomic<UInt>(0)
    /// Marks a slot whose call may be reading any cell.
    @usableFromInline static let anyCell = UInt.max
    /// How many calls of this thread are reading, nested.
    @usableFromInline var depth = 0
    /// Set when the thread has exited, so the registry can drop the slot.
    let finished = Atomic<Bool>(false)

    /// This thread's slot, created and registered the first time; unretained, because
    /// the thread owns it until it exits.
    @inlinable @inline(__always)
    static var current: Unmanaged<_ReaderSlot> {
        // The key is read from a statically initialised atomic (no lazy-global check);
        // it is 0 only until the first slot of the process is made.
        let key = _readerSlotKeyBits.load(ordering: .acquiring)
        if key != 0, let raw = pthread_getspecific(pthread_key_t(key - 1)) {
            return Unmanaged<_ReaderSlot>.fromOpaque(raw)
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> Unmanaged<_ReaderSlot> {
        let key = _readerSlotKey.key
        _readerSlotKeyBits.store(Int(key) + 1, ordering: .releasing)
        let slot = _ReaderSlot()
        _Retired.shared.register(slot)
        // The thread-specific value owns one retain, given back when the thread exits.
        let unmanaged = Unmanaged.passRetained(slot)
        pthread_setspecific(key, unmanaged.toOpaque())
        return unmanaged
    }
}

/// The thread-specific key of ``_ReaderSlot/current``, with a destructor that clears the
/// slot of an exiting thread.
final class _ReaderSlotKey: Sendable {
    let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        #if canImport(Darwin)
            pthread_key_create(&key) { raw in
                let slot = Unmanaged<_ReaderSlot>.fromOpaque(raw).takeRetainedValue()
                slot.pinned.store(0, ordering: .releasing)
                slot.finished.store(true, ordering: .releasing)
            }
        #else
            pthread_key_create(&key) { raw in
                guard let raw else { return }
                let slot = Unmanaged<_ReaderSlot>.fromOpaque(raw).takeRetainedValue()
                slot.pinned.store(0, ordering: .releasing)
                slot.finished.store(true, ordering: .releasing)
            }
        #endif
        self.key = key
    }
}

let _readerSlotKey = _ReaderSlotKey()

/// `_readerSlotKey.key + 1` once it exists, else 0.
@usableFromInline let _readerSlotKeyBits = Atomic<Int>(0)

/// Snapshots replaced in some cell and not yet released, with the epoch they were
/// retired at; and every reader slot, to find the oldest epoch still being read.
@usableFromInline
final class _Retired: Sendable {
    @usableFromInline static let shared = _Retired()

    private struct Retiree {
        let epoch: UInt64
        let cell: UInt
        let snapshot: _Snapshot
    }

    private struct State {
        var retired: [Retiree] = []
        var slots: [_ReaderSlot] = []
    }

    private let state = _Locked(State())
    /// Whether any snapshot awaits release; read by every call on its way out.
    @usableFromInline let pending = Atomic<Bool>(false)

    func register(_ slot: _ReaderSlot) {
        state.withLock { $0.slots.append(slot) }
    }

    /// Keeps `snapshot`, just replaced in `cell`, until no call can be reading it.
    func retire(_ snapshot: _Snapshot, from cell: _SnapshotCell) {
        let epoch = _epoch.add(1, ordering: .sequentiallyConsistent).oldValue
        let address = UInt(bitPattern: Unmanaged.passUnretained(cell).toOpaque())
        state.withLock {
            $0.retired.append(Retiree(epoch: epoch, cell: address, snapshot: snapshot))
        }
        pending.store(true, ordering: .releasing)
    }

    /// Releases every retired snapshot that no call can be reading any more. The
    /// releases happen after unlocking: they may run user code (deinits).
    @usableFromInline
    func reclaim() {
        var released: [_Snapshot] = []
        defer { _ = released }
        state.withLock { state in
            state.slots.removeAll { $0.finished.load(ordering: .acquiring) }
            // The calls in progress: the epoch each started at, and the cell it reads.
            var readers: [(epoch: UInt64, cell: UInt)] = []
            for slot in state.slots {
                let pinned = slot.pinned.load(ordering: .sequentiallyConsistent)
                guard pinned != 0 else { continue }
                // The cell belongs to the call that announced `pinned` only if the slot
                // still announces it after the cell was read; otherwise assume any cell.
                let cell = slot.cell.load(ordering: .acquiring)
                let stable = slot.pinned.load(ordering: .sequentiallyConsistent) == pinned
                readers.append((pinned, stable ? cell : _ReaderSlot.anyCell))
            }
            var kept: [Retiree] = []
            for entry in state.retired {
                // A call that started after the snapshot was retired, or that reads
                // another cell, cannot be holding it.
                let held = readers.contains { reader in
                    reader.epoch <= entry.epoch
                        && (reader.cell == entry.cell || reader.cell == _ReaderSlot.anyCell)
                }
                if held {
                    kept.append(entry)
                } else {
                    released.append(entry.snapshot)
                }
            }
            state.retired = kept
            pending.store(!kept.isEmpty, ordering: .releasing)
        }
    }
}

/// Hands a snapshot replaced in a cell to epoch-based reclamation. Call with the
/// topology lock held; ``_withTopology(_:)`` reclaims after unlocking.
func _retire(_ snapshot: _Snapshot, from cell: _SnapshotCell) {
    _Retired.shared.retire(snapshot, from: cell)
}
