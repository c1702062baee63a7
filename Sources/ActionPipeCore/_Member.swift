import ActionPipeKernel

/// The registrations of one pipe. Outlives its ``ActionPipe`` handle while its chain lives, so a
/// pipe whose handle was dropped keeps answering in the chain it belongs to.
///
/// `@unchecked Sendable`: the mutable properties are read and written only with
/// ``_topologyLock`` held.
@usableFromInline
final class _Member: @unchecked Sendable {
    let name: String
    /// One handler per action (registering again replaces): the first registered in
    /// ``first``, the others in ``more``. Most pipes register one or a few actions, and a
    /// dictionary with one entry costs more than the pipe itself.
    private var first: (key: _ActionKey, handler: _AnyHandler)?
    private var more: [_ActionKey: _AnyHandler] = [:]
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

    /// The handler registered for `key`.
    ///
    /// - Complexity: O(1).
    func handler(for key: _ActionKey) -> _AnyHandler? {
        if let first, first.key == key { return first.handler }
        return more[key]
    }

    /// Every registered handler with its key, in no particular order.
    ///
    /// - Complexity: O(h) for h handlers.
    func forEachHandler(_ body: (_ActionKey, _AnyHandler) -> Void) {
        if let first { body(first.key, first.handler) }
        for (key, handler) in more { body(key, handler) }
    }

    /// Registers `handler` for `key`, replacing (and burying) the one registered before.
    ///
    /// - Complexity: O(1) amortised.
    func set(_ handler: _AnyHandler, for key: _ActionKey) {
        if let first, first.key == key {
            _bury(first.handler)
            self.first = (key, handler)
        } else if first == nil, more[key] == nil {
            first = (key, handler)
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
        if let first, first.key == key { self.first = nil } else { more[key] = nil }
        return true
    }
}

extension _Member: _Registry {
    /// Removes the handler `id` of the action whose key is `detail`, and marks the chain
    /// changed; what it released is released after unlocking.
    func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        _withTopology {
            guard remove(_ActionKey(rawValue: detail), ifID: id) else { return false }
            currentChain?.changed()
            return true
        }
    }

    /// Whether the handler `id` is still registered for the action whose key is `detail`.
    func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        _withTopology { handler(for: _ActionKey(rawValue: detail))?.id == id }
    }
}
