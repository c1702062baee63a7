extension ActionPipe {
    /// Appends `other`'s whole chain to the end of this pipe's chain, in order: a call on
    /// any member then runs, from the head, every member that registered the action.
    ///
    /// - Returns: `other`, so appends chain in order: `pipe1.append(pipe2).append(pipe3)`.
    /// - Throws: ``ChainError/alreadyInChain(pipe:chain:)`` when `other` is already in this
    ///   chain (`self` included): that would make a cycle. Nothing is changed.
    /// - Complexity: O(m) for the m pipes of `other`'s chain.
    @discardableResult
    public func append(_ other: ActionPipe) throws(ChainError) -> ActionPipe {
        try _withTopology { () throws(ChainError) in
            let existing = _currentChain
            let source = other._currentChain
            guard other !== self, existing == nil || existing !== source else {
                throw .alreadyInChain(pipe: other.name, chain: _chainNames)
            }
            let target = existing ?? _Chain(_member)
            _chain = target
            _member.dropCache()
            if let source {
                target.takeMembers(of: source)
                // Its pipes still hold it: it keeps `target` alive until they catch up.
                source.mergedInto = target
                source.changed()
            } else {
                target.add(other._member)
                other._chain = target
                other._member.dropCache()
            }
            target.changed()
        }
        return other
    }

    /// Takes this pipe out of its chain, keeping its handlers; the others stay connected,
    /// in order. A pipe alone is left as it is.
    ///
    /// - Returns: Whether the pipe was in a chain with other pipes.
    /// - Complexity: Amortised O(1).
    @discardableResult
    public func removeFromChain() -> Bool {
        _withTopology {
            guard let old = _currentChain, old.memberCount > 1 else { return false }
            old.remove(_member)
            old.changed()
            _member.chain = nil
            _member.dropCache()
            _bury(old)
            _chain = nil
            return true
        }
    }

    /// The names of the pipes of this pipe's chain, from the head.
    ///
    /// - Complexity: O(n) for the n pipes of the chain.
    public var chainNames: [String] {
        _withTopology { _chainNames }
    }

    private var _chainNames: [String] { _currentChain?.members.map(\.name) ?? [name] }

    /// Whether `other` is in the same chain as this pipe.
    ///
    /// - Complexity: Amortised O(1).
    public func isInSameChain(as other: ActionPipe) -> Bool {
        guard other !== self else { return true }
        return _withTopology { _currentChain.map { $0 === other._currentChain } ?? false }
    }
}
