import ActionPipeConcurrency

/// The registrations of one pipe, and the snapshot its calls read; outlives its handle
/// while its chain lives. `@unchecked Sendable`: mutable state is reached only under
/// ``_topologyLock``; ``cache`` synchronises itself.
@usableFromInline
final class _Member: @unchecked Sendable {
    let name: String
    /// One handler per action: the first inline (a one-entry dictionary costs more than
    /// the pipe), the others in `more`.
    private var firstKey = _ActionKey(rawValue: 0)
    private var firstHandler: _AnyHandler?
    private var more: [_ActionKey: _AnyHandler] = [:]
    /// `nil` while its pipe is alone. Weak: the chain holds its members, the handles the chain.
    weak var chain: _Chain?
    /// The chain's snapshot (until its next change) or its own while alone. Written only
    /// under the lock.
    @usableFromInline let cache = SnapshotSlot<_Snapshot>()
    /// Once the handle is gone and the member is in no chain, nothing may call it.
    var hasHandle = true
    /// Its slot in ``chain``'s members: 32 bits, after ``cache``, to fill the bytes it leaves.
    private var slot: Int32 = 0
    var position: Int {
        get { Int(slot) }
        set { slot = Int32(newValue) }
    }

    /// ``chain``, buried: a chain loaded from a weak reference may hold its last reference.
    var currentChain: _Chain? {
        let chain = chain
        _bury(chain)
        return chain
    }

    init(name: String) {
        self.name = name
    }

    /// Ends a read of ``cache`` that its `pin()` started.
    @inlinable @inline(__always)
    func unpin(_ pin: SnapshotSlot<_Snapshot>.Pin) {
        if cache.leave(pin) { reclaimCache() }
    }

    @usableFromInline @inline(never)
    func reclaimCache() { cache.reclaim() }

    /// Call with the topology lock held; what the cache held is released after unlocking.
    func dropCache() {
        for released in cache.store(nil) { _bury(released) }
    }

    /// Marks the chain's snapshot, or its own while alone, as changed. Call with the lock held.
    func changed() {
        if let chain = currentChain { chain.changed() } else { dropCache() }
    }

    /// Whether something may call it: its handle, or its chain, lives. Call with the lock held.
    var isCallable: Bool { hasHandle || currentChain != nil }

    /// `nil` when nothing may call it. Call with the lock held.
    var liveSnapshot: _Snapshot? { isCallable ? snapshot : nil }

    /// The snapshot this member's calls read now. Call with the lock held.
    var snapshot: _Snapshot {
        if let chain = currentChain { return chain.snapshot }
        var freed: [AnyObject] = []
        let cached = cache.load(freeing: &freed)
        for snapshot in freed { _bury(snapshot) }
        if let cached { return cached }
        let own = _Snapshot.make(alone: self)
        for released in cache.store(own) { _bury(released) }
        return own
    }

    /// Fills ``cache`` (a holder the chain clears on its next change). Call with the lock held.
    func refreshCache() {
        if let chain = currentChain {
            chain.cache(chain.snapshot, in: self)
        } else {
            _ = snapshot
        }
    }

    func handler(for key: _ActionKey) -> _AnyHandler? {
        if let firstHandler, firstKey == key { return firstHandler }
        return more[key]
    }

    /// In no particular order.
    func forEachHandler(_ body: (_ActionKey, _AnyHandler) -> Void) {
        if let firstHandler { body(firstKey, firstHandler) }
        for (key, handler) in more { body(key, handler) }
    }

    /// Replaces (and buries) the handler registered before.
    func set(_ handler: _AnyHandler, for key: _ActionKey) {
        if let firstHandler, firstKey == key {
            _bury(firstHandler)
            self.firstHandler = handler
        } else if firstHandler == nil, more[key] == nil {
            firstKey = key
            firstHandler = handler
        } else {
            _bury(more.updateValue(handler, forKey: key))
        }
    }

    /// Removes the handler of `key` (only if its id is `id`, when given), burying it, and
    /// marks the chain changed. Call with the lock held.
    func remove(_ key: _ActionKey, ifID id: UInt64? = nil) -> Bool {
        guard let current = handler(for: key), id == nil || current.id == id else { return false }
        _bury(current)
        if firstHandler != nil, firstKey == key { firstHandler = nil } else { more[key] = nil }
        changed()
        return true
    }
}

extension _Member: _Registry {
    /// Removes the handler `id` of the action `detail`, and marks the chain changed.
    func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        _withTopology { remove(_ActionKey(rawValue: detail), ifID: id) }
    }

    func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        _withTopology { handler(for: _ActionKey(rawValue: detail))?.id == id }
    }
}
