import ActionPipeConcurrency
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
/// Immutable after it is made, so any thread may read it; not `Sendable` in name only
/// because `ManagedBuffer` cannot be.
///
/// One allocation: the header (``_SnapshotHeader``), then the entries, then the index, in
/// the object's tail (a `ManagedBuffer`).
@usableFromInline
final class _Snapshot: ManagedBuffer<_SnapshotHeader, _Snapshot.Entry> {
    /// A handler and the index of its member in ``names``.
    @usableFromInline
    struct Entry {
        @usableFromInline let handler: Unretained<_AnyHandler>
        @usableFromInline let member: Int
    }

    /// The members' names, in chain order, for traces (``Entry/member`` indexes it).
    @usableFromInline var names: [String] {
        let members = header.members.object
        if let member = members as? _Member { return [member.name] }
        return knownCast(members, to: _SnapshotSlots.self).slots.compactMap { $0?.name }
    }
    /// Every entry, grouped by action key, each group in chain order; retained handlers.
    @inlinable var entries: UnsafeMutablePointer<Entry> {
        withUnsafeMutablePointerToElements { $0 }
    }
    /// The registered keys, ascending, and after them `keyCount + 1` group bounds: group
    /// `i` (key `keys[i]`) is `entries[bounds[i] ..< bounds[i + 1]]`. Then, when present,
    /// the dense table: `denseCount` group numbers indexed by key, -1 for none.
    @inlinable var index: UnsafeMutablePointer<Int> {
        UnsafeMutableRawPointer(entries + entryCount).assumingMemoryBound(to: Int.self)
    }
    /// The header, by address: reading a field through `header` (a coroutine accessor)
    /// costs the call path a frame buffer.
    @inlinable var fields: UnsafeMutablePointer<_SnapshotHeader> {
        withUnsafeMutablePointerToHeader { $0 }
    }
    @inlinable var entryCount: Int { fields.pointee.entryCount }
    @inlinable var keyCount: Int { fields.pointee.keyCount }
    @inlinable var denseCount: Int { fields.pointee.denseCount }
    /// `NestingDepth.key`, copied here: a call reads the snapshot anyway, and reading the
    /// global costs a lazy-initialisation check per call.
    @inlinable var depthKey: NestingDepth.Key { fields.pointee.depthKey }

    /// Whether an instrument is installed (see `Instrumentation`).
    @inlinable @inline(__always)
    var isInstrumented: Bool { fields.pointee.instrumentationFlag.pointee.load(ordering: .relaxed) }

    /// Up to this many keys, a lookup scans; beyond, it searches by halves.
    @usableFromInline static var scanLimit: Int { 8 }

    /// The snapshot of a chain whose members, in order, are `slots` (holes included).
    static func make(slots: [_Member?]) -> _Snapshot {
        make(_SnapshotSlots(slots), slots.lazy.compactMap { $0 })
    }

    /// The snapshot of a pipe that is alone.
    static func make(alone member: _Member) -> _Snapshot {
        make(member, CollectionOfOne(member))
    }

    private static func make(
        _ members: AnyObject, _ ordered: some Sequence<_Member>
    ) -> _Snapshot {
        var groups: [Int: [Entry]] = [:]
        for (position, member) in ordered.enumerated() {
            member.forEachHandler { key, handler in
                groups[key.rawValue, default: []].append(
                    Entry(handler: .retaining(handler), member: position))
            }
        }
        let keys = groups.keys.sorted()
        let keyCount = keys.count
        let largest = keys.last ?? -1
        let denseCount =
            keyCount > Self.scanLimit && largest < 4 * keyCount + 64 ? largest + 1 : 0
        let entryCount = groups.values.reduce(0) { $0 + $1.count }
        let indexCount = 2 * keyCount + 1 + denseCount
        let indexEntries =
            (indexCount * MemoryLayout<Int>.stride + MemoryLayout<Entry>.stride - 1)
            / MemoryLayout<Entry>.stride
        let header = _SnapshotHeader(
            members: .retaining(members), entryCount: entryCount, keyCount: keyCount,
            denseCount: denseCount, depthKey: NestingDepth.key,
            instrumentationFlag: UnsafePointer(_instrumentationFlag))
        let snapshot = knownCast(
            Self.create(minimumCapacity: entryCount + indexEntries) { _ in header },
            to: _Snapshot.self)
        snapshot.withUnsafeMutablePointerToElements { entries in
            let index = UnsafeMutableRawPointer(entries + entryCount).bindMemory(
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
        return snapshot
    }

    deinit {
        // The last reference to a handler may go here, and with it user captures: a snapshot
        // is only ever released with no lock held.
        let entries = entries
        for position in 0..<header.entryCount { entries[position].handler.release() }
        header.members.release()
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

/// What a snapshot holds besides its entries and index. Trivial (the members are held
/// unmanaged and released by the snapshot), so reading one field on the call path copies
/// no reference.
@usableFromInline
struct _SnapshotHeader {
    /// The members, for the names in traces: a pipe alone's ``_Member``, or a chain's
    /// ``_SnapshotSlots``. Retained.
    @usableFromInline let members: Unretained<AnyObject>
    @usableFromInline let entryCount: Int
    @usableFromInline let keyCount: Int
    @usableFromInline let denseCount: Int
    @usableFromInline let depthKey: NestingDepth.Key
    /// `_instrumentationFlag`, copied here for the reason of `depthKey`.
    @usableFromInline let instrumentationFlag: UnsafePointer<Atomic<Bool>>
}

/// A chain's slots (holes included), for a snapshot's names: the chain's own array, shared
/// until the chain changes it, so a snapshot copies no array.
final class _SnapshotSlots {
    let slots: [_Member?]

    init(_ slots: [_Member?]) { self.slots = slots }
}
