import ActionPipeKernel
import Synchronization

/// An immutable view of a chain that calls read with no lock held while handlers run.
///
/// Laid out for the call path: the entries of every action sit in one flat buffer, grouped
/// by action key, in chain order, and refer to their handlers unretained (the snapshot
/// retains each once and releases it in `deinit`). A call finds its action's group, then
/// walks it with no reference counting at all.
///
/// Finding the group: the keys the chain registered are kept sorted; a small chain scans
/// them, a large one searches them by halves, and when the keys are dense enough a table
/// indexed by key answers in one load. Keys are process-wide, so a table indexed by every
/// key would cost every snapshot memory for actions it never registered.
///
/// `@unchecked Sendable`: immutable after `init`; the buffers are only read.
@usableFromInline
final class _Snapshot: @unchecked Sendable {
    /// A handler and the index of its member in ``names``.
    @usableFromInline
    struct Entry {
        @usableFromInline let handler: Unmanaged<_AnyHandler>
        @usableFromInline let member: Int
    }

    /// The members, in chain order, for the names in traces: the chain's own slots (holes
    /// included), shared until the chain changes them, so a snapshot copies no array.
    let slots: [_Member?]
    /// The members' names, in chain order, for traces (``Entry/member`` indexes it).
    @usableFromInline var names: [String] { slots.compactMap { $0?.name } }
    /// Every entry, grouped by action key, each group in chain order; retained handlers.
    @usableFromInline let entries: UnsafeMutablePointer<Entry>
    @usableFromInline let entryCount: Int
    /// The registered keys, ascending, and after them `keyCount + 1` group bounds: group
    /// `i` (key `keys[i]`) is `entries[bounds[i] ..< bounds[i + 1]]`. Then, when present,
    /// the dense table: `denseCount` group numbers indexed by key, -1 for none.
    @usableFromInline let index: UnsafeMutablePointer<Int>
    @usableFromInline let keyCount: Int
    @usableFromInline let denseCount: Int

    /// `NestingDepth.key`, copied here: a call reads the snapshot anyway, and reading the
    /// global costs a lazy-initialisation check per call.
    @usableFromInline let depthKey = NestingDepth.key
    /// `_instrumentationFlag`, copied here for the same reason.
    @usableFromInline let instrumentationFlag = UnsafePointer(_instrumentationFlag)

    /// Whether an instrument is installed (see `Instrumentation`).
    @inlinable @inline(__always)
    var isInstrumented: Bool { instrumentationFlag.pointee.load(ordering: .relaxed) }

    /// Up to this many keys, a lookup scans; beyond, it searches by halves.
    @usableFromInline static var scanLimit: Int { 8 }

    init(slots: [_Member?]) {
        self.slots = slots
        var groups: [Int: [Entry]] = [:]
        for (position, member) in slots.lazy.compactMap({ $0 }).enumerated() {
            member.forEachHandler { key, handler in
                groups[key.rawValue, default: []].append(
                    Entry(handler: .passRetained(handler), member: position))
            }
        }
        let keys = groups.keys.sorted()
        keyCount = keys.count
        let largest = keys.last ?? -1
        denseCount = keyCount > Self.scanLimit && largest < 4 * keyCount + 64 ? largest + 1 : 0
        entryCount = groups.values.reduce(0) { $0 + $1.count }
        // One allocation: the entries, then the index.
        let indexCount = 2 * keyCount + 1 + denseCount
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: entryCount * MemoryLayout<Entry>.stride + indexCount
                * MemoryLayout<Int>.stride,
            alignment: MemoryLayout<Entry>.alignment)
        entries = block.bindMemory(to: Entry.self, capacity: entryCount)
        index = (block + entryCount * MemoryLayout<Entry>.stride).bindMemory(
            to: Int.self, capacity: indexCount)
        let bounds = index + keyCount
        let dense = bounds + keyCount + 1
        dense.initialize(repeating: -1, count: denseCount)
        var next = 0
        for (group, key) in keys.enumerated() {
            index[group] = key
            bounds[group] = next
            if denseCount > 0 { dense[key] = group }
            for entry in groups[key]! {
                (entries + next).initialize(to: entry)
                next += 1
            }
        }
        bounds[keyCount] = next
    }

    deinit {
        // The last reference to a handler may go here, and with it user captures: a snapshot
        // is only ever released with no lock held.
        for position in 0..<entryCount { entries[position].handler.release() }
        UnsafeMutableRawPointer(entries).deallocate()
    }

    /// The positions in ``entries`` of the handlers of `key`; empty when none.
    ///
    /// - Complexity: O(1) with a dense table or up to ``scanLimit`` keys; else O(log k).
    @inlinable @inline(__always)
    func range(for key: _ActionKey) -> Range<Int> {
        let raw = key.rawValue
        let bounds = index + keyCount
        var group = -1
        if denseCount > 0 {
            if raw < denseCount { group = (bounds + keyCount + 1)[raw] }
        } else if keyCount <= Self.scanLimit {
            var position = 0
            while position < keyCount {
                if index[position] == raw {
                    group = position
                    break
                }
                position &+= 1
            }
        } else {
            var low = 0
            var high = keyCount
            while low < high {
                let middle = (low &+ high) &>> 1
                if index[middle] < raw { low = middle &+ 1 } else { high = middle }
            }
            if low < keyCount, index[low] == raw { group = low }
        }
        guard group >= 0 else { return 0..<0 }
        return bounds[group]..<bounds[group &+ 1]
    }

    /// Whether any member registered `key`.
    @inlinable
    func handles(_ key: _ActionKey) -> Bool { !range(for: key).isEmpty }
}
