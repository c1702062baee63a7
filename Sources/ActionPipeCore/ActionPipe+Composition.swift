extension ActionPipe {
    /// Appends `other`'s whole chain to the end of this pipe's chain, in order.
    ///
    /// Afterwards both chains are one: a call on any member runs, from the head, every
    /// member that registered the action. Every member sees the joined chain from the next
    /// call on.
    ///
    /// ```swift
    /// try pipe1.append(pipe2).append(pipe3)   // pipe1 → pipe2 → pipe3
    /// ```
    ///
    /// - Returns: `other`, so appends can be chained in order.
    /// - Throws: ``ChainError/alreadyInChain(pipe:chain:)`` when `other` is already in this
    ///   pipe's chain (which includes `other === self`): that would make a cycle. Nothing
    ///   is changed.
    ///
    /// - Complexity: O(m) for the m pipes of `other`'s chain: appending one pipe at a time
    ///   builds a chain in linear time. The chain's snapshot is rebuilt by its next call.
    @discardableResult
    public func append(_ other: ActionPipe) throws(ChainError) -> ActionPipe {
        try _withTopology { () throws(ChainError) in
            let target = _currentChain
            let source = other._currentChain
            guard target !== source else {
                throw .alreadyInChain(pipe: other.name, chain: target.members.map(\.name))
            }
            target.takeMembers(of: source)
            // The pipes of `source` still hold it; it now keeps `target` alive for them
            // until each of them next resolves its chain (see `_currentChain`).
            source.mergedInto = target
            source.changed()
            target.changed()
        }
        return other
    }

    /// Takes this pipe out of its chain; it becomes a chain of its own and keeps its
    /// handlers. The other members stay connected, in order.
    ///
    /// Removing a pipe that is alone in its chain does nothing.
    ///
    /// ```swift
    /// pipe2.removeFromChain()   // pipe1 → pipe3, and pipe2 alone
    /// ```
    ///
    /// - Returns: Whether the pipe was in a chain with other pipes.
    ///
    /// - Complexity: Amortised O(1): the pipe's slot is emptied, and the chain's slots are
    ///   compacted once holes outnumber pipes. The chain's snapshot is rebuilt by its next
    ///   call.
    @discardableResult
    public func removeFromChain() -> Bool {
        _withTopology {
            let old = _currentChain
            guard old.memberCount > 1 else { return false }
            old.remove(_member)
            old.changed()
            let alone = _Chain(_member)
            _bury(old)
            _chain = alone
            return true
        }
    }

    /// The names of the pipes of this pipe's chain, from the head.
    ///
    /// ```swift
    /// pipe3.chainNames   // ["pipe1", "pipe2", "pipe3"]
    /// ```
    public var chainNames: [String] {
        _withTopology { _currentChain.members.map(\.name) }
    }

    /// Whether `other` is in the same chain as this pipe.
    ///
    /// ```swift
    /// pipe1.isInSameChain(as: pipe3)   // true after composing them
    /// ```
    public func isInSameChain(as other: ActionPipe) -> Bool {
        _withTopology { _currentChain === other._currentChain }
    }
}
