import ActionPipeConcurrency
import Synchronization

/// Serialises every change of registrations and composition, process-wide: changes are
/// rare, and one lock makes joining two chains atomic without lock ordering. Calls only
/// read the published ``_Snapshot``s. Counts its uses instead of guarding `()`:
/// ThreadSanitizer reports a false race on a `LockedValue<Void>`'s zero-sized value.
let _topologyLock = LockedValue(0)

/// Objects whose last reference a change dropped under ``_topologyLock``: their `deinit`
/// may run user code that uses pipes, so ``_withTopology(_:)`` releases them after unlocking.
/// `nonisolated(unsafe)`: reached only under ``_topologyLock``.
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

/// The ordered members a call walks; a pipe has one only once composed.
///
/// The chain builds one snapshot for all its pipes when a call first needs it, and each
/// calling pipe caches it in its member (calls on different pipes share no lock). A change
/// drops it and clears those caches: O(1) plus the pipes that cached it, each of which paid
/// with a call, so n changes in a row cost O(n).
///
/// `@unchecked Sendable`: every stored property is reached only under ``_topologyLock``.
@usableFromInline
final class _Chain: @unchecked Sendable {
    /// In chain order, with holes where members were removed (at their `position`),
    /// compacted once holes outnumber members.
    private var slots: [_Member?]
    private(set) var memberCount: Int
    /// Kept alive for pipes that still hold this one.
    var mergedInto: _Chain?
    private var cached = CachedSnapshot<_Snapshot>()
    /// The members whose pipes cached ``snapshot`` since the last change.
    private var holder: _Member?
    private var moreHolders: [_Member] = []

    /// A chain of one member, which was alone.
    init(_ member: _Member) {
        slots = [member]
        memberCount = 1
        member.chain = self
        member.position = 0
    }

    /// - Complexity: O(n) for n slots.
    var members: [_Member] { slots.compactMap { $0 } }

    /// Moves every member of `other` to the end, in order, leaving `other` empty.
    ///
    /// - Complexity: O(m) for the m slots of `other`.
    func takeMembers(of other: _Chain) {
        for member in other.slots {
            guard let member else { continue }
            member.chain = self
            member.position = slots.count
            slots.append(member)
        }
        memberCount += other.memberCount
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

    /// The next call on any of its pipes fetches a new snapshot. Call with the topology
    /// lock held.
    ///
    /// - Complexity: O(1) plus the pipes that cached the snapshot since the last change.
    func changed() {
        _bury(cached.invalidate())
        holder?.dropCache()
        holder = nil
        for holder in moreHolders { holder.dropCache() }
        moreHolders.removeAll()
    }

    /// Built if a change dropped it. Call with the topology lock held.
    ///
    /// - Complexity: O(1) when cached; else O(h + m) for h handlers and m members.
    var snapshot: _Snapshot {
        cached.get { _Snapshot.make(slots: slots) }
    }

    /// Caches this chain's current `snapshot` in `member` until the next change. Call with
    /// the topology lock held.
    func cache(_ snapshot: _Snapshot, in member: _Member) {
        for released in member.cache.store(snapshot) { _bury(released) }
        if holder == nil { holder = member } else { moreHolders.append(member) }
    }

    /// Adds `member`, which was alone, at the end.
    func add(_ member: _Member) {
        member.chain = self
        member.position = slots.count
        slots.append(member)
        memberCount += 1
    }
}
