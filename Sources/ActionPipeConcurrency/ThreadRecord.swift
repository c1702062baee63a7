import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one thread owns of the read side: its hazard slots (``SnapshotSlot``) and nesting
/// counters (``NestingDepth``), in two 128-byte blocks aligned to 128, so no other thread's
/// record shares (or is prefetched with) its cache lines:
///
/// | block | words | written by |
/// |---|---|---|
/// | A: slots | 0–13 hazard slots, 14 next slot chunk, 15 the record's address | the owner |
/// | B: own | 0–1 nesting counters, 2 slots in use, 3 next record, 4 in use | the owner; 3 once |
///
/// Pins deeper than 14 get chunks laid out like block A. Records and chunks are never
/// freed: a thread's exit hands its record to the next new thread, so there are as many as
/// threads that ever read at once. This type is a view of one record; it holds no reference.
@usableFromInline package struct ThreadRecord {
    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable init(base: UnsafeMutableRawPointer) { self.base = base }

    /// Bytes in a block; also the alignment of blocks and chunks.
    @inlinable static var blockBytes: Int { 128 }
    @inlinable static var slotsPerChunk: Int { 14 }
    /// 4 of them unused on 32-bit platforms, where blocks stay 128 bytes apart.
    @inlinable static var blockWords: Int { 16 }

    @inlinable var slots: UnsafeMutablePointer<Atomic<UInt>> {
        base.assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// Block B's owner-only words.
    @inlinable var own: UnsafeMutablePointer<Int> {
        (base + Self.blockBytes).assumingMemoryBound(to: Int.self)
    }

    /// Block B's shared words: the next record (0) and whether a thread owns it (1).
    @inlinable var shared: UnsafeMutablePointer<Atomic<UInt>> {
        (base + Self.blockBytes + 3 &* MemoryLayout<Int>.stride)
            .assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// Valid on this thread only.
    @inlinable @inline(__always)
    package func counter(_ counter: NestingDepth.Counter) -> UnsafeMutablePointer<Int> {
        own + counter.rawValue
    }

    /// The next pin takes slot `top`.
    @inlinable var top: UnsafeMutablePointer<Int> { own + 2 }

    /// Word 15 of a slot's 128-byte-aligned block is its record's address.
    @inlinable @inline(__always)
    static func owner(of slot: UnsafeMutablePointer<Atomic<UInt>>) -> ThreadRecord {
        let chunk = UInt(bitPattern: slot) & ~UInt(blockBytes &- 1)
        let words = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: chunk).unsafelyUnwrapped
        let address = words[blockWords &- 1].load(ordering: .relaxed)
        return ThreadRecord(base: UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped)
    }

    /// Made on first use.
    @inlinable @inline(__always)
    func slot(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        index < Self.slotsPerChunk ? slots + index : overflowSlot(index)
    }

    @usableFromInline @inline(never)
    func overflowSlot(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        var chunk = slots
        var index = index
        while index >= Self.slotsPerChunk {
            let next = chunk[Self.slotsPerChunk].load(ordering: .relaxed)
            if next != 0 {
                chunk = UnsafeMutablePointer(bitPattern: next).unsafelyUnwrapped
            } else {
                let made = Self.makeBlocks(1, owner: base)
                // Sequentially consistent, like pins: a scan that misses the chunk came
                // before any pin in it.
                chunk[Self.slotsPerChunk].store(
                    UInt(bitPattern: made), ordering: .sequentiallyConsistent)
                chunk = made
            }
            index &-= Self.slotsPerChunk
        }
        return chunk + index
    }

    /// `count` blocks; the first's slots zero and its word 15 `owner` (`nil`: its own address).
    @usableFromInline
    static func makeBlocks(_ count: Int, owner: UnsafeMutableRawPointer?)
        -> UnsafeMutablePointer<Atomic<UInt>>
    {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: count &* blockBytes, alignment: blockBytes)
        let words = raw.bindMemory(to: Atomic<UInt>.self, capacity: blockWords)
        for index in 0..<blockWords { (words + index).initialize(to: Atomic(0)) }
        words[blockWords &- 1].store(UInt(bitPattern: owner ?? raw), ordering: .relaxed)
        return words
    }

    /// Each chunk of hazard slots, block A first.
    @inline(__always)
    func forEachChunk(_ body: (UnsafeMutablePointer<Atomic<UInt>>) -> Void) {
        var next = UInt(bitPattern: slots)
        while let chunk = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: next) {
            body(chunk)
            next = chunk[Self.slotsPerChunk].load(ordering: .sequentiallyConsistent)
        }
    }
}

extension ThreadRecord {
    /// A plain integer, so a hot path can keep a copy and skip the global's addressor.
    @usableFromInline package static let key: pthread_key_t = {
        var created = pthread_key_t()
        let status = pthread_key_create(&created) { base in
            // Optional on Glibc, not on Darwin.
            let base: UnsafeMutableRawPointer? = base
            if let base { ThreadRecord(base: base).detach() }
        }
        precondition(status == 0, "ActionPipe: cannot create a thread key (\(status))")
        return created
    }()

    /// Every record ever made, newest first.
    @usableFromInline static let head = Atomic<UInt>(0)
    @usableFromInline static let made = Atomic<Int>(0)

    /// The calling thread's record, taken (or made) on its first use.
    ///
    /// - Complexity: O(1); a thread's first use walks the records, O(r).
    @inlinable @inline(__always)
    package static func current(key: pthread_key_t = key) -> ThreadRecord {
        if let base = pthread_getspecific(key) {
            return ThreadRecord(base: UnsafeMutableRawPointer(mutating: base))
        }
        return attach(key)
    }

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
        // A new record, in use by this thread, on no list yet.
        let base = UnsafeMutableRawPointer(makeBlocks(2, owner: nil))
        (base + blockBytes).bindMemory(to: Int.self, capacity: 3).initialize(
            repeating: 0, count: 3)
        let shared = (base + blockBytes + 3 &* MemoryLayout<Int>.stride)
            .bindMemory(to: Atomic<UInt>.self, capacity: 2)
        shared.initialize(to: Atomic(0))
        (shared + 1).initialize(to: Atomic(1))
        let record = ThreadRecord(base: base)
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

    /// Called when the thread ends: clears its counters and slots, for the next thread.
    func detach() {
        for index in 0..<3 { own[index] = 0 }
        // Slots are clear unless the thread ended inside a pin; none of its code runs now.
        forEachChunk { chunk in
            for index in 0..<Self.slotsPerChunk {
                chunk[index].store(0, ordering: .sequentiallyConsistent)
            }
        }
        shared[1].store(0, ordering: .sequentiallyConsistent)
    }
}

extension ThreadRecord {
    /// How many records were ever made: the most threads that held one at once.
    package static var count: Int { made.load(ordering: .relaxed) }

    /// Whether a hazard slot of a record in use holds `bits`.
    ///
    /// - Complexity: O(r + s) for r records and s slots in use or once used.
    @usableFromInline
    static func isRead(_ bits: UInt) -> Bool {
        var found = false
        forEachHazard { if $0 == bits { found = true } }
        return found
    }

    /// Calls `body` with every non-zero slot of the records in use. Sequentially consistent:
    /// a writer that swapped a snapshot out before calling this sees every reader that may
    /// hold it.
    @inline(__always)
    static func forEachHazard(_ body: (UInt) -> Void) {
        var next = head.load(ordering: .sequentiallyConsistent)
        while let base = UnsafeMutableRawPointer(bitPattern: next) {
            let record = ThreadRecord(base: base)
            if record.shared[1].load(ordering: .sequentiallyConsistent) != 0 {
                record.forEachChunk { chunk in
                    for index in 0..<slotsPerChunk {
                        let bits = chunk[index].load(ordering: .sequentiallyConsistent)
                        if bits != 0 { body(bits) }
                    }
                }
            }
            next = record.shared[0].load(ordering: .acquiring)
        }
    }
}

/// How deeply the calling thread is nested in synchronous calls, publishes and
/// observed-property deliveries, so unbounded recursion gets a typed error, not a stack
/// overflow. One word per counter in the thread's ``ThreadRecord``, touched only by its
/// thread: no atomics, and no `await` between entering and leaving (it could resume on
/// another thread).
@usableFromInline package enum NestingDepth {
    @usableFromInline package enum Counter: Int, Sendable {
        /// Synchronous core calls and bus publishes, together: both grow the stack.
        case call = 0
        /// Observed-property deliveries (an observer setting a property).
        case delivery = 1
    }

    /// The `.call` counter's limit, published as `NestingLimitError.depthLimit`; a constant,
    /// so an inlined ``_enterCall(on:)`` compares with a literal.
    @inlinable @inline(__always)
    package static var callLimit: Int { 100 }

    @usableFromInline package typealias Key = pthread_key_t

    @usableFromInline package static var key: Key { ThreadRecord.key }

    /// Valid on this thread until it ends; `key` is ``key`` or a copy of it.
    @inlinable @inline(__always)
    package static func counter(_ counter: Counter, key: pthread_key_t = key)
        -> UnsafeMutablePointer<Int>
    {
        ThreadRecord.current(key: key).counter(counter)
    }
}

/// Enters one more level of synchronous calls and publishes; `nil`, and no change, at
/// ``NestingDepth/callLimit``. The caller decrements the returned word when its call ends.
/// Out of line, reading the key itself: inlined into a call's loop, it would reach the
/// counters through a retained reference.
///
/// - Parameter key: `NestingDepth.key`, copied by a hot path to skip the global's check.
@usableFromInline @inline(never)
package func _enterCall(_ key: pthread_key_t) -> UnsafeMutablePointer<Int>? {
    _enterCall(on: ThreadRecord.current(key: key))
}

/// ``_enterCall(_:)`` with the thread's record at hand (from its pin): no key lookup.
@inlinable @inline(__always)
package func _enterCall(on thread: ThreadRecord) -> UnsafeMutablePointer<Int>? {
    let depth = thread.counter(.call)
    guard depth.pointee < NestingDepth.callLimit else { return nil }
    depth.pointee &+= 1
    return depth
}
