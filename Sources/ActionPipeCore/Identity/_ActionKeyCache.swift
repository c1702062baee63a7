import Synchronization

/// The current ``_ActionKeyCache``'s address (the table keeps every cache), or 0. A global,
/// so a call reads it without initialising the table.
@usableFromInline let _actionKeyCache = Atomic<UInt>(0)

@usableFromInline
struct _ActionCacheEntry {
    @usableFromInline let site: _ActionSite
    @usableFromInline let key: Int
}

/// An immutable open-addressed map from identities to keys. `@unchecked Sendable`: written
/// in `init`, read only after publication (release/acquire on `_actionKeyCache`).
@usableFromInline
final class _ActionKeyCache: @unchecked Sendable {
    /// `count` entries, which `slots` index. Raw memory, so a lookup retains no buffer.
    @usableFromInline let entries: UnsafeMutablePointer<_ActionCacheEntry>
    let count: Int
    /// An index into `entries`, or -1 when free.
    @usableFromInline let slots: UnsafeMutablePointer<Int>
    @usableFromInline let mask: Int

    init(_ entries: [_ActionCacheEntry]) {
        count = entries.count
        self.entries = .allocate(capacity: Swift.max(1, entries.count))
        self.entries.initialize(from: entries, count: entries.count)
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: -1, count: capacity)
        mask = capacity - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.site.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = index
        }
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        slots.deallocate()
    }

    @inlinable @inline(__always)
    func key(
        hash: UInt, fileAddress: UInt, fileWord: UInt, position: UInt64, type: ObjectIdentifier,
        name: borrowing String
    ) -> Int? {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = slots[slot]
            if index < 0 { return nil }
            let entry = entries + index
            if entry.pointee.site.matches(
                hash: hash, fileAddress: fileAddress, fileWord: fileWord, position: position,
                type: type, name: name)
            {
                return entry.pointee.key
            }
            slot = (slot &+ 1) & mask
        }
    }
}
