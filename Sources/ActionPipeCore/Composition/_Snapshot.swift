import ActionPipeConcurrency
import Synchronization

/// An immutable view of a chain that calls read with no lock held while handlers run.
///
/// One allocation: the header, then every action's entries in one flat buffer, grouped by
/// key in chain order and referring to their handlers unretained (retained once by the
/// snapshot), then the index. A call finds its group and walks it with no reference
/// counting. The registered keys are sorted: scanned when few, searched by halves when
/// many, or looked up in a table indexed by key when dense enough (keys are process-wide,
/// so a table of every key would cost memory for actions never registered).
///
/// Immutable after it is made; not `Sendable` only because `ManagedBuffer` cannot be.
@usableFromInline
final class _Snapshot: ManagedBuffer<_SnapshotHeader, _Snapshot.Entry> {
    /// A handler and the index of its member in ``names``.
    @usableFromInline
    struct Entry {
        @usableFromInline let handler: Unretained<_AnyHandler>
        @usableFromInline let member: Int
    }

    /// In chain order, for traces.
    @usableFromInline var names: [String] {
        let members = header.members.object
        if let member = members as? _Member { return [member.name] }
        return knownCast(members, to: _SnapshotSlots.self).slots.compactMap { $0?.name }
    }
    /// Grouped by action key, each group in chain order.
    @inlinable var entries: UnsafeMutablePointer<Entry> {
        withUnsafeMutablePointerToElements { $0 }
    }
    /// The registered keys, ascending, and after them `keyCount + 1` group bounds: group
    /// `i` (key `keys[i]`) is `entries[bounds[i] ..< bounds[i + 1]]`. Then, when present,
    /// the dense table: `denseCount` group numbers indexed by key, -1 for none.
    @inlinable var index: UnsafeMutablePointer<Int> {
        UnsafeMutableRawPointer(entries + entryCount).assumingMemoryBound(to: Int.self)
    }
    /// The header by address: a field read through `header` (a coroutine accessor) costs
    /// the call path a frame buffer.
    @inlinable var fields: UnsafeMutablePointer<_SnapshotHeader> {
        withUnsafeMutablePointerToHeader { $0 }
    }
    @inlinable var entryCount: Int { fields.pointee.entryCount }
    @inlinable var keyCount: Int { fields.pointee.keyCount }
    @inlinable var denseCount: Int { fields.pointee.denseCount }
    /// Copied here: a call reads the snapshot anyway, and the global costs a
    /// lazy-initialisation check per call.
    @inlinable var depthKey: NestingDepth.Key { fields.pointee.depthKey }

    @inlinable @inline(__always)
    var isInstrumented: Bool { fields.pointee.instrumentationFlag.pointee.load(ordering: .relaxed) }

    @usableFromInline static var scanLimit: Int { 8 }

    /// `slots` in order, holes included.
    static func make(slots: [_Member?]) -> _Snapshot {
        make(_SnapshotSlots(slots), slots.lazy.compactMap { $0 })
    }

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
        // A handler's last reference (and user captures) may go here: a snapshot is only
        // released with no lock held.
        let entries = entries
        for position in 0..<header.entryCount { entries[position].handler.release() }
        header.members.release()
    }

    /// The positions in ``entries`` of `key`'s handlers; empty when none.
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

    @inlinable
    func handles(_ key: _ActionKey) -> Bool { !range(for: key).isEmpty }
}

/// Trivial (the members are held unmanaged), so reading a field on the call path copies no
/// reference.
@usableFromInline
struct _SnapshotHeader {
    /// A pipe alone's ``_Member``, or a chain's ``_SnapshotSlots``, for trace names. Retained.
    @usableFromInline let members: Unretained<AnyObject>
    @usableFromInline let entryCount: Int
    @usableFromInline let keyCount: Int
    @usableFromInline let denseCount: Int
    @usableFromInline let depthKey: NestingDepth.Key
    /// Copied here for the reason of `depthKey`.
    @usableFromInline let instrumentationFlag: UnsafePointer<Atomic<Bool>>
}

/// A chain's slots, holes included: its own array, shared until it changes, so a snapshot
/// copies no array.
final class _SnapshotSlots {
    let slots: [_Member?]

    init(_ slots: [_Member?]) { self.slots = slots }
}
