import ActionPipeConcurrency
import Synchronization

/// An immutable view of a chain that calls read with no lock held. One allocation: every
/// action's entries, grouped by key in chain order (handlers retained once by the buffer),
/// and the sorted keys in its tail: scanned when few, searched by halves when many, or
/// indexed by a table when dense (keys are process-wide). Released only with no lock held.
@usableFromInline
typealias _Snapshot = ReferenceBuffer<_SnapshotHeader, _SnapshotEntry, Int>

/// A handler and the index of its member in ``_Snapshot/names``.
@usableFromInline
struct _SnapshotEntry: ReferenceBufferElement {
    @usableFromInline let handler: Unretained<_AnyHandler>
    @usableFromInline let member: Int

    @usableFromInline var owned: Unretained<_AnyHandler> { handler }
}

extension ReferenceBuffer where Header == _SnapshotHeader, Element == _SnapshotEntry, Tail == Int {
    @usableFromInline typealias Entry = _SnapshotEntry

    /// In chain order, for traces.
    @usableFromInline var names: [String] {
        switch fields.pointee.header.members {
        case .alone(let member): [member.name]
        case .chain(let slots): slots.compactMap { $0?.name }
        }
    }
    /// Grouped by action key, each group in chain order.
    @inlinable var entries: UnsafeMutablePointer<Entry> { elements }
    /// The keys, ascending; `keyCount + 1` group bounds (group `i` is
    /// `entries[bounds[i] ..< bounds[i + 1]]`); then `denseCount` groups by key, -1 for none.
    @inlinable var index: UnsafeMutablePointer<Int> { tail }
    @inlinable var keyCount: Int { fields.pointee.header.keyCount }
    @inlinable var denseCount: Int { fields.pointee.header.denseCount }
    /// Copied here: the global costs a lazy-initialisation check per call.
    @inlinable var depthKey: NestingDepth.Key { fields.pointee.header.depthKey }

    @inlinable @inline(__always)
    var isInstrumented: Bool {
        fields.pointee.header.instrumentationFlag.pointee.load(ordering: .relaxed)
    }

    @usableFromInline static var scanLimit: Int { 8 }

    /// `slots` in order, holes included.
    static func make(slots: [_Member?]) -> _Snapshot {
        make(.chain(slots), slots.lazy.compactMap { $0 })
    }

    static func make(alone member: _Member) -> _Snapshot {
        make(.alone(member), CollectionOfOne(member))
    }

    private static func make(
        _ members: _SnapshotHeader.Members, _ ordered: some Sequence<_Member>
    ) -> _Snapshot {
        // Unretained: the members hold the handlers until the buffer retains them.
        var groups: [Int: [Entry]] = [:]
        for (position, member) in ordered.enumerated() {
            member.forEachHandler { key, handler in
                groups[key.rawValue, default: []].append(
                    Entry(handler: Unretained(handler), member: position))
            }
        }
        let keys = groups.keys.sorted()
        let largest = keys.last ?? -1
        let denseCount =
            keys.count > scanLimit && largest < 4 * keys.count + 64 ? largest + 1 : 0
        var index = keys
        var bound = 0
        for key in keys {
            index.append(bound)
            bound += groups[key]!.count
        }
        index.append(bound)
        index += repeatElement(-1, count: denseCount)
        if denseCount > 0 {
            for (group, key) in keys.enumerated() { index[2 * keys.count + 1 + key] = group }
        }
        let header = _SnapshotHeader(
            members: members, keyCount: keys.count, denseCount: denseCount,
            depthKey: NestingDepth.key, instrumentationFlag: UnsafePointer(_instrumentationFlag))
        return make(header, count: bound, tail: index) { append in
            for key in keys { groups[key]!.forEach(append) }
        }
    }

    /// The positions in ``entries`` of `key`'s handlers: O(1), or O(log k) for many keys.
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

/// Read in place on the call path (a field at a time, through a pointer).
@usableFromInline
struct _SnapshotHeader {
    /// For trace names: a pipe alone's member, or a chain's slots (shared, not copied).
    enum Members {
        case alone(_Member)
        case chain([_Member?])
    }

    let members: Members
    @usableFromInline let keyCount: Int
    @usableFromInline let denseCount: Int
    @usableFromInline let depthKey: NestingDepth.Key
    /// Copied here for the reason of `depthKey`.
    @usableFromInline let instrumentationFlag: UnsafePointer<Atomic<Bool>>
}
