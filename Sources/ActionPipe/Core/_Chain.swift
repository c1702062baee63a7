import ActionPipeKernel
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

/// The registrations of one pipe. Outlives its ``ActionPipe`` handle while its chain lives, so a
/// pipe whose handle was dropped keeps answering in the chain it belongs to.
///
/// `@unchecked Sendable`: the mutable properties are read and written only with
/// ``_topologyLock`` held.
@usableFromInline
final class _Member: @unchecked Sendable {
    let name: String
    /// One handler per action: registering again replaces.
    var handlers: [_ActionKey: _AnyHandler] = [:]
    /// The chain this member is in. Weak: the chain holds its members, and the pipe
    /// handles hold the chain.
    weak var chain: _Chain?
    /// Its slot in ``chain``'s members.
    var position = 0

    /// ``chain``, buried: with the topology lock held, a chain loaded from a weak reference
    /// may hold its last reference, which must not be released under the lock.
    var currentChain: _Chain? {
        let chain = chain
        _bury(chain)
        return chain
    }

    init(name: String) {
        self.name = name
    }

    func set(_ handler: _AnyHandler, for key: _ActionKey) {
        _bury(handlers.updateValue(handler, forKey: key))
    }

    @discardableResult
    func remove(_ key: _ActionKey, ifID id: UInt64? = nil) -> Bool {
        guard let current = handlers[key], id == nil || current.id == id else { return false }
        _bury(current)
        handlers[key] = nil
        return true
    }
}

/// An ordered list of members: the chain that a call walks.
///
/// The chain builds one snapshot for all its pipes, when a call first needs it, and each
/// pipe that calls caches it (`ActionPipe._link`) so calls on different pipes share no
/// lock. A change (a registration, a removal, joining or leaving) drops the chain's snapshot
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
    /// The caches of the pipes that cached ``snapshot`` since the last change.
    private var holders: [SnapshotCell<_Snapshot>] = []

    init(_ members: [_Member]) {
        slots = members
        memberCount = members.count
        for (position, member) in members.enumerated() {
            member.chain = self
            member.position = position
        }
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
        for holder in holders {
            for released in holder.store(nil) { _bury(released) }
        }
        holders.removeAll()
    }

    /// The snapshot of the current members, built if a change dropped it. Call with the
    /// topology lock held.
    ///
    /// - Complexity: O(1) when cached; else O(h + m) for h handlers and m members.
    var snapshot: _Snapshot {
        cached.get { _Snapshot(members) }
    }

    /// Caches `snapshot`, this chain's current one, in a pipe's `link`, until the next
    /// change. Call with the topology lock held.
    func cache(_ snapshot: _Snapshot, in link: SnapshotCell<_Snapshot>) {
        for released in link.store(snapshot) { _bury(released) }
        holders.append(link)
    }
}
