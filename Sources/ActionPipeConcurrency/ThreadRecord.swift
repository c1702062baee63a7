import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one thread owns of the read side: its hazard slots (the snapshots it is reading,
/// see ``SnapshotSlot``) and its nesting counters (``NestingDepth``), in memory no other
/// thread writes.
///
/// A record is two blocks of 128 bytes, aligned to 128, so that no other thread's record
/// (nor an adjacent line a prefetcher pairs with it) shares a cache line with it:
///
/// | block | words | written by |
/// |---|---|---|
/// | A: slots | 0–13 hazard slots, 14 next slot chunk, 15 the record's address | the owner |
/// | B: own | 0–1 nesting counters, 2 slots in use, 3 next record, 4 in use | the owner; 3 once |
///
/// A thread that pins deeper than 14 snapshots at once gets chunks laid out like block A
/// (14 slots, the next chunk, the record's address). Records and their chunks are never
/// freed: a thread's exit hands its record (slots all clear) to the next new thread, so
/// the list grows to the largest number of threads that ever read at once, never with the
/// number of threads that have existed. Writers scan the slots of records in use.
///
/// This type is a view of one record; it holds no reference.
@usableFromInline package struct ThreadRecord {
    /// Where the record starts: block A.
    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable init(base: UnsafeMutableRawPointer) { self.base = base }

    /// Bytes in a block (a record is two); also the alignment of blocks and chunks.
    @inlinable static var blockBytes: Int { 128 }
    /// Hazard slots in block A and in each chunk.
    @inlinable static var slotsPerChunk: Int { 14 }
    /// Words in a block; the platform's word is 8 bytes (4 on 32-bit platforms, where a
    /// block uses the first half and is still 128 bytes apart from the next).
    @inlinable static var blockWords: Int { 16 }

    /// The first hazard slot (block A, word 0).
    @inlinable var slots: UnsafeMutablePointer<Atomic<UInt>> {
        base.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// Block B's owner-only words: the nesting counters (0, 1) and the slots in use (2).
    @inlinable var own: UnsafeMutablePointer<Int> {
        (base + Self.blockBytes).assumingMemoryBound(to: Int.self)
    }

    /// Block B's shared words: the next record (0) and whether a thread owns it (1).
    @inlinable var shared: UnsafeMutablePointer<Atomic<UInt>> {
        (base + Self.blockBytes + 3 &* MemoryLayout<Int>.stride)
            .assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// The thread's word for `counter` (see ``NestingDepth``); valid on this thread only.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    package func counter(_ counter: NestingDepth.Counter) -> UnsafeMutablePointer<Int> {
        own + counter.rawValue
    }

    /// The number of hazard slots the owner is using: the next pin takes slot `top`.
    @inlinable var top: UnsafeMutablePointer<Int> { own + 2 }

    /// The record a hazard slot belongs to: slots live in 128-byte-aligned blocks whose
    /// word 15 is their record's address.
    @inlinable @inline(__always)
    static func owner(of slot: UnsafeMutablePointer<Atomic<UInt>>) -> ThreadRecord {
        let chunk = UInt(bitPattern: slot) & ~UInt(blockBytes &- 1)
        let words = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: chunk).unsafelyUnwrapped
        let address = words[blockWords &- 1].load(ordering: .relaxed)
        return ThreadRecord(base: UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped)
    }

    /// The calling thread's hazard slot number `index`, made on first use.
    ///
    /// - Complexity: O(1) for the first 14; O(index / 14) beyond.
    @inlinable @inline(__always)
    func slot(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        index < Self.slotsPerChunk ? slots + index : overflowSlot(index)
    }

    /// A slot past block A: found (or made) in the chain of chunks.
    @usableFromInline @inline(never)
    func overflowSlot(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        var chunk = slots
        var index = index
        while index >= Self.slotsPerChunk {
            let next = chunk[Self.slotsPerChunk].load(ordering: .relaxed)
            if next != 0 {
                chunk = UnsafeMutablePointer(bitPattern: next).unsafelyUnwrapped
            } else {
                let made = Self.makeBlock()
                made[Self.blockWords &- 1].store(
                    UInt(bitPattern: base), ordering: .relaxed)
                // Sequentially consistent, like the pins: a writer's scan that misses the
                // chunk came before it, so before any pin in it.
                chunk[Self.slotsPerChunk].store(
                    UInt(bitPattern: made), ordering: .sequentiallyConsistent)
                chunk = made
            }
            index &-= Self.slotsPerChunk
        }
        return chunk + index
    }

    /// A block of 16 atomic words, all zero.
    @usableFromInline
    static func makeBlock() -> UnsafeMutablePointer<Atomic<UInt>> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: blockBytes, alignment: blockBytes)
        let words = raw.bindMemory(to: Atomic<UInt>.self, capacity: blockWords)
        for index in 0..<blockWords { (words + index).initialize(to: Atomic(0)) }
        return words
    }
}

extension ThreadRecord {
    /// The thread-specific-data key whose value is the calling thread's record. A plain
    /// integer, so code that keeps a copy (a hot path that wants to skip the global's
    /// addressor) holds no reference.
    @usableFromInline package static let key: pthread_key_t = {
        var created = pthread_key_t()
        let status = pthread_key_create(&created) { base in
            // Optional on Glibc, not on Darwin: the same code for both.
            let base: UnsafeMutableRawPointer? = base
            if let base { ThreadRecord(base: base).detach() }
        }
        precondition(status == 0, "ActionPipe: cannot create a thread key (\(status))")
        return created
    }()

    /// The first record of the list every record ever made is on (newest first).
    @usableFromInline static let head = Atomic<UInt>(0)
    /// How many records were ever made.
    @usableFromInline static let made = Atomic<Int>(0)

    /// The calling thread's record, taken (or made) on its first use.
    ///
    /// - Parameter key: ``key``, or a copy of it.
    /// - Complexity: O(1): one `pthread_getspecific`; a thread's first use also walks the
    ///   list for a free record, O(r) for r records.
    @inlinable @inline(__always)
    package static func current(key: pthread_key_t = key) -> ThreadRecord {
        if let base = pthread_getspecific(key) {
            return ThreadRecord(base: UnsafeMutableRawPointer(mutating: base))
        }
        return attach(key)
    }

    /// Gives the calling thread a record: a free one from the list, else a new one.
    @usableFromInline @inline(never)
    static func attach(_ key: pthread_key_t) -> ThreadRecord {
        var next = head.load(ordering: .acquiring)
        while let base = UnsafeMutableRawPointer(bitPattern: next) {
            let record = ThreadRecord(base: base)
            if record.shared[1].compareExchange(
                expected: 0, desired: 1, ordering: .sequentiallyConsistent
            ).exchanged {
                pthread_setspecific(key, base)
                return record
            }
            next = record.shared[0].load(ordering: .acquiring)
        }
        let record = make()
        var first = head.load(ordering: .relaxed)
        repeat {
            record.shared[0].store(first, ordering: .relaxed)
            let (exchanged, found) = head.compareExchange(
                expected: first, desired: UInt(bitPattern: record.base),
                ordering: .sequentiallyConsistent)
            if exchanged { break }
            first = found
        } while true
        made.wrappingAdd(1, ordering: .relaxed)
        pthread_setspecific(key, record.base)
        return record
    }

    /// A new record, owned by the calling thread (in use), on no list yet.
    @usableFromInline
    static func make() -> ThreadRecord {
        let base = UnsafeMutableRawPointer.allocate(
            byteCount: 2 &* blockBytes, alignment: blockBytes)
        let slots = base.bindMemory(to: Atomic<UInt>.self, capacity: blockWords)
        for index in 0..<blockWords { (slots + index).initialize(to: Atomic(0)) }
        slots[blockWords &- 1].store(UInt(bitPattern: base), ordering: .relaxed)
        let record = ThreadRecord(base: base)
        (base + blockBytes).bindMemory(to: Int.self, capacity: 3).initialize(
            repeating: 0, count: 3)
        let shared = (base + blockBytes + 3 &* MemoryLayout<Int>.stride)
            .bindMemory(to: Atomic<UInt>.self, capacity: 2)
        shared.initialize(to: Atomic(0))
        (shared + 1).initialize(to: Atomic(1))
        return record
    }

    /// Hands the record back when its thread ends: its slots are clear (pins never outlive
    /// the synchronous code that took them), its counters are reset, and it is free for the
    /// next thread.
    func detach() {
        for index in 0..<3 { own[index] = 0 }
        // Clear already, unless the thread ended inside a read (a pin it never ended): no
        // code of that thread runs any more, so what it held is no longer read.
        var chunk = slots
        while true {
            for index in 0..<Self.slotsPerChunk {
                chunk[index].store(0, ordering: .sequentiallyConsistent)
            }
            let more = chunk[Self.slotsPerChunk].load(ordering: .relaxed)
            guard let further = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: more) else { break }
            chunk = further
        }
        shared[1].store(0, ordering: .sequentiallyConsistent)
    }
}

extension ThreadRecord {
    /// How many records were ever made: the largest number of threads that held one at
    /// once (a record outlives its thread and serves the next).
    ///
    /// - Complexity: O(1).
    package static var count: Int { made.load(ordering: .relaxed) }

    /// Whether some thread is reading the snapshot whose bits are `bits` now: a hazard slot
    /// of a record in use holds it. Sequentially consistent, as ``collectHazards(into:)``.
    ///
    /// - Complexity: O(r + s) for r records and s slots in use or once used; no allocation.
    @usableFromInline
    static func isRead(_ bits: UInt) -> Bool {
        var found = false
        forEachHazard { if $0 == bits { found = true } }
        return found
    }

    /// Adds to `hazards` every snapshot some thread is reading now (the non-zero slots of
    /// the records in use). Sequentially consistent: a writer that swapped a snapshot out
    /// before calling this sees every reader that may still hold it (see ``SnapshotSlot``).
    ///
    /// - Complexity: O(r + s) for r records and s slots in use or once used.
    @usableFromInline
    static func collectHazards(into hazards: inout [UInt]) {
        forEachHazard { hazards.append($0) }
    }

    /// Calls `body` with the bits of every non-zero hazard slot of the records in use.
    @inline(__always)
    static func forEachHazard(_ body: (UInt) -> Void) {
        var next = head.load(ordering: .sequentiallyConsistent)
        while let base = UnsafeMutableRawPointer(bitPattern: next) {
            let record = ThreadRecord(base: base)
            if record.shared[1].load(ordering: .sequentiallyConsistent) != 0 {
                var chunk = record.slots
                while true {
                    for index in 0..<slotsPerChunk {
                        let bits = chunk[index].load(ordering: .sequentiallyConsistent)
                        if bits != 0 { body(bits) }
                    }
                    let more = chunk[slotsPerChunk].load(ordering: .sequentiallyConsistent)
                    guard let further = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: more)
                    else { break }
                    chunk = further
                }
            }
            next = record.shared[0].load(ordering: .acquiring)
        }
    }
}
