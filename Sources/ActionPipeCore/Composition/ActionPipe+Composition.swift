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
            let existing = _currentChain
            let source = other._currentChain
            guard other !== self, existing == nil || existing !== source else {
                throw .alreadyInChain(pipe: other.name, chain: _chainNames)
            }
            // A pipe that was alone gets its chain object now.
            let target = existing ?? _Chain(_member)
            _chain = target
            _member.dropCache()
            if let source {
                target.takeMembers(of: source)
                // The pipes of `source` still hold it; it now keeps `target` alive for
                // them until each of them next resolves its chain (see `_currentChain`).
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
    /// ```swift
    /// pipe3.chainNames   // ["pipe1", "pipe2", "pipe3"]
    /// ```
    ///
    /// - Complexity: O(n) for the n pipes of the chain.
    public var chainNames: [String] {
        _withTopology { _chainNames }
    }

    /// ``chainNames``, with the topology lock held.
    private var _chainNames: [String] { _currentChain?.members.map(\.name) ?? [name] }

    /// Whether `other` is in the same chain as this pipe.
    ///
    /// ```swift
    /// pipe1.isInSameChain(as: pipe3)   // true after composing them
    /// ```
    ///
    /// - Complexity: O(1) (amortised: a pipe whose chain was appended follows its forward
    ///   once).
    public func isInSameChain(as other: ActionPipe) -> Bool {
        guard other !== self else { return true }
        return _withTopology { _currentChain.map { $0 === other._currentChain } ?? false }
    }
}
