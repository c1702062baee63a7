import ActionPipeConcurrency

/// Serialises every change of registrations and composition, process-wide: one lock joins
/// two chains atomically without lock ordering; calls only read published ``_Snapshot``s.
/// A count, not `()`: ThreadSanitizer reports a false race on a zero-sized value.
let _topologyLock = LockedValue(0)

/// What a change dropped under ``_topologyLock``, released by ``_withTopology(_:)`` after
/// unlocking (a `deinit` may run user code). `nonisolated(unsafe)`: reached under the lock.
nonisolated(unsafe) private var _graveyard: [AnyObject] = []

/// Keeps `object` alive until the current change has unlocked. Call with the lock held.
func _bury(_ object: AnyObject?) {
    if let object { _graveyard.append(object) }
}

/// Runs `body` with the topology lock held, then releases what it buried, unlocked.
func _withTopology<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    var buried: [AnyObject] = []
    defer { buried.removeAll() }  // the last references go here, after the lock is released
    return try _topologyLock.withLock { entries throws(E) in
        entries &+= 1
        defer {
            buried = _graveyard
            _graveyard = []
        }
        return try body()
    }
}

/// The ordered members a call walks; a pipe has one only once composed. Builds one snapshot
/// for all its pipes, which each calling pipe caches in its member; a change drops it and
/// clears those caches (each paid for with a call, so n changes cost O(n)).
///
/// `@unchecked Sendable`: every stored property is reached only under ``_topologyLock``.
@usableFromInline
final class _Chain: @unchecked Sendable {
    /// In chain order, with holes (compacted once they outnumber members).
    private var slots: [_Member?] = []
    private(set) var memberCount = 0
    /// Kept alive for pipes that still hold this one.
    var mergedInto: _Chain?
    private var cached = CachedSnapshot<_Snapshot>()
    /// The members whose pipes cached ``snapshot`` since the last change.
    private var holder: _Member?
    private var moreHolders: [_Member] = []

    /// A chain of one member, which was alone.
    init(_ member: _Member) { add(member) }

    /// - Complexity: O(n) for n slots.
    var members: [_Member] { slots.compactMap { $0 } }

    /// Moves every member of `other` to the end, in order, leaving `other` empty.
    func takeMembers(of other: _Chain) {
        for case let member? in other.slots { add(member) }
        other.slots = []
        other.memberCount = 0
    }

    /// - Complexity: Amortised O(1).
    func remove(_ member: _Member) {
        assert(slots[member.position] === member, "a member's position is its slot")
        slots[member.position] = nil
        memberCount -= 1
        if slots.count > 8, memberCount * 2 < slots.count {
            slots = members
            for (position, member) in slots.enumerated() { member?.position = position }
        }
    }

    /// The next call on any of its pipes fetches a new snapshot. Call with the lock held.
    func changed() {
        _bury(cached.invalidate())
        holder?.dropCache()
        holder = nil
        for holder in moreHolders { holder.dropCache() }
        moreHolders.removeAll()
    }

    /// Built if a change dropped it. Call with the lock held.
    var snapshot: _Snapshot {
        cached.get { _Snapshot.make(slots: slots) }
    }

    /// Caches `snapshot` in `member` until the next change. Call with the lock held.
    func cache(_ snapshot: _Snapshot, in member: _Member) {
        for released in member.cache.store(snapshot) { _bury(released) }
        if holder == nil { holder = member } else { moreHolders.append(member) }
    }

    /// Adds `member`, alone or taken from another chain, at the end.
    func add(_ member: _Member) {
        member.chain = self
        member.position = slots.count
        slots.append(member)
        memberCount += 1
    }
}
