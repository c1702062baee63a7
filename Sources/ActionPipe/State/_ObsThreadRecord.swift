import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one thread is delivering: its nesting depth of deliveries (cycle detection) and, per
/// depth, the observer list that delivery reads (a hazard pointer).
///
/// A set reads its property's observer list under the property's lock and calls the observers
/// after unlocking, without retaining the list. Instead, still under the lock, it writes the
/// list's address into its thread's slot for the current depth, and clears the slot when the
/// delivery ends. A writer that replaces the list (observe, cancel) swaps it under the same lock
/// and frees the old one only once no thread's slot holds it; else it leaves it retired for
/// the last delivery to free. The lock orders the slot's write before any later writer's scan,
/// so a set pays no atomic read-modify-write for the list: only plain stores to memory no
/// other thread writes (a retain and release of the list cost two).
///
/// Layout (raw memory, one block per thread, reused after the thread ends, never freed): the
/// depth (an `Int` only its thread touches), then `depthLimit` slots of `Atomic<UInt>`.
@usableFromInline
struct _ObsThreadRecord {
    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable @inline(__always)
    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    /// Slots: a delivery at depth `d` (0 outermost) uses slot `d`; deeper ones are not run.
    @usableFromInline static let slots = ObservationCycleError.depthLimit
    @usableFromInline static let byteCount = 8 &+ slots &* 8

    /// The thread's nesting depth of deliveries; only its own thread reads or writes it.
    @inlinable
    var depth: Int {
        @inline(__always) get { base.load(as: Int.self) }
        @inline(__always) nonmutating set { base.storeBytes(of: newValue, as: Int.self) }
    }

    /// The hazard slot for depth `depth`.
    @inlinable @inline(__always)
    func slot(_ depth: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        (base + (8 &+ depth &* 8)).assumingMemoryBound(to: Atomic<UInt>.self)
    }
}

/// The calling thread's record; created on the thread's first delivery. `key` is
/// `_obsThreadKey()`, which each property reads once, at its creation: a global of the module
/// read from a client's specialised code costs a call to its addressor.
@inlinable @inline(__always)
func _obsThread(_ key: pthread_key_t) -> _ObsThreadRecord {
    if let record = pthread_getspecific(key) {
        return _ObsThreadRecord(UnsafeMutableRawPointer(mutating: record))
    }
    return _obsMakeThreadRecord(key)
}

/// The thread-specific-data key of the records, created on first use.
func _obsThreadKey() -> pthread_key_t {
    let key = _obsThreadKeyBits.load(ordering: .acquiring)
    if key != 0 { return numericCast(key - 1) }
    var created = pthread_key_t()
    let status = pthread_key_create(&created) { record in
        // Optional on Glibc, not on Darwin: the same code for both.
        let record: UnsafeMutableRawPointer? = record
        guard let record else { return }
        _obsThreadRecords.withLock { $0.free.append(record) }
    }
    precondition(status == 0, "ObservableState: cannot create the thread key (\(status))")
    let (stored, current) = _obsThreadKeyBits.compareExchange(
        expected: 0, desired: UInt(created) + 1, ordering: .acquiringAndReleasing)
    if stored { return created }
    pthread_key_delete(created)  // another thread created it first
    return numericCast(current - 1)
}

/// `_obsThreadKey()` plus one; 0 until created.
let _obsThreadKeyBits = Atomic<UInt>(0)

/// Every record ever made (scanned by writers) and those whose thread has ended (reused).
let _obsThreadRecords = _Locked<(all: [UnsafeMutableRawPointer], free: [UnsafeMutableRawPointer])>(
    ([], []))

/// Gives the calling thread a record (a free one, or a new one). A record returns to the free
/// list when its thread ends; it is clean then (depth 0, slots empty), since a thread cannot
/// end inside a delivery.
@usableFromInline @inline(never)
func _obsMakeThreadRecord(_ key: pthread_key_t) -> _ObsThreadRecord {
    let record = _obsThreadRecords.withLock { records in
        if let free = records.free.popLast() { return free }
        let record = UnsafeMutableRawPointer.allocate(
            byteCount: _ObsThreadRecord.byteCount, alignment: 64)
        record.storeBytes(of: 0, as: Int.self)
        for slot in 0..<_ObsThreadRecord.slots {
            (record + 8 + slot * 8).initializeMemory(as: Atomic<UInt>.self, to: Atomic(0))
        }
        records.all.append(record)
        return record
    }
    pthread_setspecific(key, record)
    return _ObsThreadRecord(record)
}

/// The observer lists some delivery is reading now, on any thread. A list absent from this set
/// was not in any slot when scanned; a delivery that starts later reads the list current then,
/// so a replaced list absent from it can be freed.
func _obsListsInUse() -> Set<UInt> {
    _obsThreadRecords.withLock { records in
        var inUse = Set<UInt>()
        for record in records.all {
            let record = _ObsThreadRecord(record)
            for depth in 0..<_ObsThreadRecord.slots {
                let list = record.slot(depth).pointee.load(ordering: .acquiring)
                if list != 0 { inUse.insert(list) }
            }
        }
        return inUse
    }
}

/// Runs `body` one delivery level deeper, or reports a cycle and skips it when the thread is
/// already `depthLimit` levels deep. For deliveries that read no observer list (`.initial`).
func _obsNested(_ label: String, _ body: () -> Void) {
    let thread = _obsThread(_obsThreadKey())
    let depth = thread.depth
    guard depth < ObservationCycleError.depthLimit else {
        ObservationCycleError._report(.init(property: label, depth: depth + 1))
        return
    }
    thread.depth = depth &+ 1
    body()
    thread.depth = depth
}
