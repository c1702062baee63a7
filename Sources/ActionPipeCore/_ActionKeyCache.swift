import ActionPipeKernel
import Synchronization

/// The address of the current ``_ActionKeyCache``, unretained (the table keeps every cache
/// it published), or 0. A global rather than a member of the table, so a call reads it
/// without first making sure the table is initialised.
@usableFromInline let _actionKeyCache = Atomic<UInt>(0)

/// One action in an ``_ActionKeyCache``.
@usableFromInline
struct _ActionCacheEntry {
    @usableFromInline let hash: UInt
    @usableFromInline let fileAddress: UInt
    @usableFromInline let fileWord: UInt
    @usableFromInline let position: UInt64
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String
    @usableFromInline let key: Int

    @inlinable @inline(__always)
    func matches(_ site: _ActionSite) -> Bool {
        hash == site.hash && fileAddress == site.fileAddress && fileWord == site.fileWord
            && position == site.position && type == site.type
            && name == site.name
    }
}

/// An immutable open-addressed map from identities to keys.
///
/// `@unchecked Sendable`: the slots are written once, in `init`, and only read after the
/// cache is published (release/acquire on `_actionKeyCache`).
@usableFromInline
final class _ActionKeyCache: @unchecked Sendable {
    /// The entries; `slots` index into them.
    @usableFromInline let entries: ContiguousArray<_ActionCacheEntry>
    /// Open-addressed slots holding an index into `entries`, or -1 when free.
    @usableFromInline let slots: UnsafeMutablePointer<Int>
    @usableFromInline let mask: Int

    init(_ entries: [_ActionCacheEntry]) {
        self.entries = ContiguousArray(entries)
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: -1, count: capacity)
        mask = capacity - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = index
        }
    }

    deinit {
        slots.deallocate()
    }

    /// The key of `site`, or `nil` when this cache does not hold it.
    @inlinable @inline(__always)
    func key(for site: _ActionSite) -> Int? {
        var slot = Int(truncatingIfNeeded: site.hash) & mask
        while true {
            let index = slots[slot]
            if index < 0 { return nil }
            let key = entries.withUnsafeBufferPointer { entries in
                entries[index].matches(site) ? entries[index].key : nil
            }
            if let key { return key }
            slot = (slot &+ 1) & mask
        }
    }
}
