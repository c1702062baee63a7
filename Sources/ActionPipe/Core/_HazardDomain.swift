import ActionPipeKernel
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one thread is reading now, for one `_HazardDomain`: its nesting depth and, per depth,
/// the address of the immutable object that level reads unretained (a hazard pointer).
///
/// A reader that would retain and release a shared, replaceable object (an observer list, a
/// route table) instead writes its address into its thread's slot for the current depth and
/// clears the slot when done: plain stores to memory no other thread writes, where a retain
/// and a release cost two atomic read-modify-writes. A writer that replaces the object frees
/// the old one only when no slot of the domain holds it (`addressesInUse()`), and otherwise
/// leaves it retired for a later reader or writer to free.
///
/// Layout (raw memory, one block per thread, reused after the thread ends, never freed): the
/// domain (unretained: domains are global constants), the depth (an `Int` only its thread
/// touches), then `slots` slots of `Atomic<UInt>`.
@usableFromInline
struct _HazardRecord {
    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable @inline(__always)
    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    @usableFromInline static var headerBytes: Int { 16 }

    /// The thread's nesting depth of readers in this domain; only its own thread reads or
    /// writes it.
    @inlinable
    var depth: Int {
        @inline(__always) get { base.load(fromByteOffset: 8, as: Int.self) }
        @inline(__always) nonmutating set {
            base.storeBytes(of: newValue, toByteOffset: 8, as: Int.self)
        }
    }

    /// The hazard slot for depth `depth` (below the domain's `slots`).
    @inlinable @inline(__always)
    func slot(_ depth: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        (base + (Self.headerBytes &+ depth &* 8)).assumingMemoryBound(to: Atomic<UInt>.self)
    }
}

/// A family of per-thread hazard records: one record per thread that ever read in the domain,
/// each with `slots` hazard slots. The observable state and the event bus each have one.
///
/// `@unchecked Sendable`: `key` and `slots` never change; `records` is behind its lock; a
/// record's depth is only touched by its thread and its slots are atomics.
@usableFromInline
final class _HazardDomain: @unchecked Sendable {
    /// The thread-specific-data key of the domain's records.
    @usableFromInline let key: pthread_key_t
    /// Slots per record: readers nested deeper than this must protect themselves otherwise.
    @usableFromInline let slots: Int
    /// Every record ever made (scanned by writers) and those whose thread has ended (reused).
    private let records = LockedValue<
        (all: [UnsafeMutableRawPointer], free: [UnsafeMutableRawPointer])
    >(([], []))

    /// A domain with `slots` slots per thread. Make one per use, as a global constant: its
    /// records live as long as the process.
    init(slots: Int) {
        self.slots = slots
        var created = pthread_key_t()
        let status = pthread_key_create(&created) { record in
            // Optional on Glibc, not on Darwin: the same code for both.
            let record: UnsafeMutableRawPointer? = record
            guard let record else { return }
            let domain = record.load(as: Unmanaged<_HazardDomain>.self)
            domain._withUnsafeGuaranteedRef { $0.recycle(record) }
        }
        precondition(status == 0, "ActionPipe: cannot create a thread key (\(status))")
        key = created
    }

    /// The calling thread's record; created on the thread's first read.
    @inlinable @inline(__always)
    func record() -> _HazardRecord {
        if let record = pthread_getspecific(key) {
            return _HazardRecord(UnsafeMutableRawPointer(mutating: record))
        }
        return makeRecord()
    }

    /// Gives the calling thread a record (a free one, or a new one). A record returns to the
    /// free list when its thread ends; it is clean then (depth 0, slots empty), since a
    /// thread cannot end inside a read.
    @usableFromInline @inline(never)
    func makeRecord() -> _HazardRecord {
        let slots = slots
        let record = records.withLock { records in
            if let free = records.free.popLast() { return free }
            let record = UnsafeMutableRawPointer.allocate(
                byteCount: _HazardRecord.headerBytes + slots * 8, alignment: 64)
            record.storeBytes(of: Unmanaged.passUnretained(self), as: Unmanaged<_HazardDomain>.self)
            record.storeBytes(of: 0, toByteOffset: 8, as: Int.self)
            for slot in 0..<slots {
                (record + _HazardRecord.headerBytes + slot * 8).initializeMemory(
                    as: Atomic<UInt>.self, to: Atomic(0))
            }
            records.all.append(record)
            return record
        }
        pthread_setspecific(key, record)
        return _HazardRecord(record)
    }

    private func recycle(_ record: UnsafeMutableRawPointer) {
        records.withLock { $0.free.append(record) }
    }

    /// Removes from `retired` (addresses of replaced objects) those no reader holds now, and
    /// returns them: the caller frees them.
    func takeUnread(_ retired: inout [UInt]) -> [UInt] {
        let inUse = addressesInUse()
        var unread: [UInt] = []
        retired.removeAll { address in
            if inUse.contains(address) { return false }
            unread.append(address)
            return true
        }
        return unread
    }

    /// The addresses some reader of the domain holds now, on any thread. An object replaced
    /// before this call and absent from the result is read by no one, and no later reader can
    /// reach it (readers only take the current object), so it can be freed.
    func addressesInUse() -> Set<UInt> {
        // Orders the caller's replacement before the loads below, against each reader's fence
        // between its slot store and its check that the object is still current.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return records.withLock { records in
            var inUse = Set<UInt>()
            for record in records.all {
                let record = _HazardRecord(record)
                for depth in 0..<slots {
                    let address = record.slot(depth).pointee.load(ordering: .acquiring)
                    if address != 0 { inUse.insert(address) }
                }
            }
            return inUse
        }
    }
}
