import ActionPipeConcurrency

/// The registrations of one pipe, and the snapshot its calls read. Outlives its
/// ``ActionPipe`` handle while its chain lives, so a pipe whose handle was dropped keeps
/// answering in the chain it belongs to.
///
/// `@unchecked Sendable`: the mutable properties are read and written only with
/// ``_topologyLock`` held; ``cache`` synchronises itself.
@usableFromInline
final class _Member: @unchecked Sendable {
    let name: String
    /// One handler per action (registering again replaces): the first registered in
    /// ``first``, the others in ``more``. Most pipes register one or a few actions, and a
    /// dictionary with one entry costs more than the pipe itself.
    /// (Two fields, not an optional pair: the pair's flag would take a word of its own.)
    private var firstKey = _ActionKey(rawValue: 0)
    private var firstHandler: _AnyHandler?
    private var more: [_ActionKey: _AnyHandler] = [:]
    /// The chain this member is in; `nil` while its pipe is alone, which needs no chain
    /// object. Weak: the chain holds its members, and the pipe handles hold the chain.
    weak var chain: _Chain?
    /// The snapshot the pipe's calls read: the chain's (cached here until the chain's next
    /// change: see ``_Chain/cache(_:in:)``), or the member's own while it is alone. Inline,
    /// so a pipe costs no separate cell; written only with ``_topologyLock`` held.
    @usableFromInline let cache = SnapshotSlot<_Snapshot>()
    /// Whether its ``ActionPipe`` handle is alive. A member whose handle is gone lives on
    /// only in its chain: once it has none, nothing may call it any more.
    var hasHandle = true
    /// Its slot in ``chain``'s members; 32 bits and after ``cache``, so that it takes bytes
    /// the cache leaves free at its end.
    private var slot: Int32 = 0
    /// Its slot in ``chain``'s members.
    var position: Int {
        get { Int(slot) }
        set { slot = Int32(newValue) }
    }

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

    /// Ends a read of ``cache`` that its `pin()` started.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func unpin(_ pin: SnapshotSlot<_Snapshot>.Pin) {
        if cache.leave(pin) { reclaimCache() }
    }

    /// Frees the retired snapshots no reader of ``cache`` can use any more: the rare end of
    /// ``unpin(_:)``, out of line.
    @usableFromInline @inline(never)
    func reclaimCache() { cache.reclaim() }

    /// Empties ``cache``; what it held is released after unlocking. Call with the topology
    /// lock held.
    ///
    /// - Complexity: O(1).
    func dropCache() {
        for released in cache.store(nil) { _bury(released) }
    }

    /// Marks what this member's calls read as changed: its chain's snapshot, or its own
    /// while it is alone. Call with the topology lock held.
    ///
    /// - Complexity: O(1) plus the pipes that cached the chain's snapshot since its last
    ///   change.
    func changed() {
        if let chain = currentChain { chain.changed() } else { dropCache() }
    }

    /// The snapshot calls from this member read now, or `nil` when nothing may call it: its
    /// handle is gone and it is in no chain. Call with the topology lock held.
    ///
    /// - Complexity: as ``snapshot``.
    var liveSnapshot: _Snapshot? {
        hasHandle || currentChain != nil ? snapshot : nil
    }

    /// The snapshot calls from this member read now (its handle's calls, so it is live).
    /// Call with the topology lock held.
    ///
    /// - Complexity: O(1) when it is built; else O(h + m) for h handlers and m members.
    var snapshot: _Snapshot {
        if let chain = currentChain { return chain.snapshot }
        // Under the topology lock: what this read frees is released after unlocking.
        var freed: [AnyObject] = []
        let cached = cache.load(freeing: &freed)
        for snapshot in freed { _bury(snapshot) }
        if let cached { return cached }
        let own = _Snapshot.make(alone: self)
        for released in cache.store(own) { _bury(released) }
        return own
    }

    /// Fills ``cache`` with the current snapshot (the chain's, registering this member as
    /// a holder to clear on the chain's next change). Call with the topology lock held.
    ///
    /// - Complexity: as ``snapshot``.
    func refreshCache() {
        if let chain = currentChain {
            chain.cache(chain.snapshot, in: self)
        } else {
            _ = snapshot
        }
    }

    /// The handler registered for `key`.
    ///
    /// - Complexity: O(1).
    func handler(for key: _ActionKey) -> _AnyHandler? {
        if let firstHandler, firstKey == key { return firstHandler }
        return more[key]
    }

    /// Every registered handler with its key, in no particular order.
    ///
    /// - Complexity: O(h) for h handlers.
    func forEachHandler(_ body: (_ActionKey, _AnyHandler) -> Void) {
        if let firstHandler { body(firstKey, firstHandler) }
        for (key, handler) in more { body(key, handler) }
    }

    /// Registers `handler` for `key`, replacing (and burying) the one registered before.
    ///
    /// - Complexity: O(1) amortised.
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

    /// Removes the handler of `key` (only if its id is `id`, when given), burying it.
    ///
    /// - Complexity: O(1) amortised.
    @discardableResult
    func remove(_ key: _ActionKey, ifID id: UInt64? = nil) -> Bool {
        guard let current = handler(for: key), id == nil || current.id == id else { return false }
        _bury(current)
        if firstHandler != nil, firstKey == key { firstHandler = nil } else { more[key] = nil }
        return true
    }
}

extension _Member: _Registry {
    /// Removes the handler `id` of the action whose key is `detail`, and marks the chain
    /// changed; what it released is released after unlocking.
    func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        _withTopology {
            guard remove(_ActionKey(rawValue: detail), ifID: id) else { return false }
            changed()
            return true
        }
    }

    /// Whether the handler `id` is still registered for the action whose key is `detail`.
    func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        _withTopology { handler(for: _ActionKey(rawValue: detail))?.id == id }
    }
}
