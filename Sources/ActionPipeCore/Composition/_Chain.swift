import ActionPipeConcurrency
import Synchronization

/// Serialises every change of registrations and composition, process-wide.
///
/// Changes are rare and cheap next to calls, and one lock makes joining two chains
/// atomic without lock ordering. No handler ever runs while it is held: calls only read
/// the immutable ``_Snapshot`` that each change publishes.
///
/// The guarded value counts how often the lock was taken, instead of being `()`:
/// ThreadSanitizer reports a false race on the zero-sized value of a `LockedValue<Void>`.
let _topologyLock = LockedValue(0)

/// Objects whose last reference a change dropped while holding ``_topologyLock``.
///
/// Releasing a handler can run user code (the `deinit` of an object its closure captured,
/// or of a strongly held target), and that code may use pipes. So a change never releases
/// such objects under the lock: it buries them here, and ``_withTopology(_:)`` releases
/// them after unlocking.
///
/// `nonisolated(unsafe)`: read and written only with ``_topologyLock`` held.
nonisolated(unsafe) private var _graveyard: [AnyObject] = []

/// Keeps `object` alive until the current change has released the topology lock. Call
/// with the lock held.
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

/// An ordered list of members: the chain that a call walks.
///
/// A pipe has one only once it is composed: a pipe alone reads a snapshot of its own member
/// (``_Member/snapshot``). The chain builds one snapshot for all its pipes, when a call
/// first needs it, and each pipe that calls caches it (in its member's ``_Member/cache``) so
/// calls on different pipes share no lock. A change (a registration, a removal, joining or leaving) drops the chain's snapshot
/// and clears the caches that hold it: O(1) plus the pipes that cached it since the last
/// change, each of which paid for that with a call. So the snapshot a change replaced is
/// released at once (or by the last call still running with it), and n changes in a row
/// cost O(n).
///
/// `@unchecked Sendable`: every stored property is read and written only with
/// ``_topologyLock`` held.
@usableFromInline
final class _Chain: @unchecked Sendable {
    /// The members in chain order, with holes where members were removed: removing a
    /// member empties its slot (its `position`), and the slots are compacted once holes
    /// outnumber members, so n removals cost O(n) in all.
    private var slots: [_Member?]
    /// How many slots hold a member.
    private(set) var memberCount: Int
    /// The chain this one was appended to, kept alive for pipes that still hold this one.
    var mergedInto: _Chain?
    private var cached = CachedSnapshot<_Snapshot>()
    /// The members whose pipes cached ``snapshot`` since the last change: the first in
    /// ``holder``, any others in ``moreHolders``.
    private var holder: _Member?
    private var moreHolders: [_Member] = []

    /// A chain of one member, which was alone: the first of a composition.
    init(_ member: _Member) {
        slots = [member]
        memberCount = 1
        member.chain = self
        member.position = 0
    }

    /// The members, in chain order.
    ///
    /// - Complexity: O(n) for n slots.
    var members: [_Member] { slots.compactMap { $0 } }

    /// Moves every member of `other` to the end of this chain, in order; `other` is left
    /// empty.
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

    /// Removes `member`, which is in this chain.
    ///
    /// - Complexity: Amortised O(1): compacting costs O(n) once holes outnumber members.
    func remove(_ member: _Member) {
        assert(slots[member.position] === member, "a member's position is its slot")
        slots[member.position] = nil
        memberCount -= 1
        if slots.count > 8, memberCount * 2 < slots.count {
            slots = members
            for (position, member) in slots.enumerated() { member?.position = position }
        }
    }

    /// Marks the chain changed: the next call on any of its pipes fetches a new snapshot.
    /// Call with the topology lock held; what it drops is released after unlocking.
    ///
    /// - Complexity: O(1) plus the pipes that cached the snapshot since the last change.
    func changed() {
        _bury(cached.invalidate())
        holder?.dropCache()
        holder = nil
        for holder in moreHolders { holder.dropCache() }
        moreHolders.removeAll()
    }

    /// The snapshot of the current members, built if a change dropped it. Call with the
    /// topology lock held.
    ///
    /// - Complexity: O(1) when cached; else O(h + m) for h handlers and m members.
    var snapshot: _Snapshot {
        cached.get { _Snapshot.make(slots: slots) }
    }

    /// Caches `snapshot`, this chain's current one, in `member`'s cache, until the next
    /// change. Call with the topology lock held.
    func cache(_ snapshot: _Snapshot, in member: _Member) {
        for released in member.cache.store(snapshot) { _bury(released) }
        if holder == nil { holder = member } else { moreHolders.append(member) }
    }

    /// Adds `member`, which was alone, at the end.
    ///
    /// - Complexity: Amortised O(1).
    func add(_ member: _Member) {
        member.chain = self
        member.position = slots.count
        slots.append(member)
        memberCount += 1
    }
}
