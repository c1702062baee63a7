extension ActionPipe {
    /// Starts registering a handler for `action`; add conditions, then call `handle`.
    ///
    /// ```swift
    /// pipe.on(\.someFunc).state(.start).upstreamNotNil().handle { process in 1 }
    /// ```
    ///
    /// One generic method: with overloads per kind, `argumentNotNil(\.self)` after it
    /// fails to infer.
    @inlinable @inline(__always)
    public func on<Kind, each Argument, Result>(
        _ action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>> & Sendable
    ) -> HandlerRegistration<Kind, repeat each Argument, Result> {
        HandlerRegistration(pipe: self, key: _ActionKey(registering: action))
    }

    /// Registers `body` as this pipe's handler for `action`, without conditions; registering
    /// the action again replaces it (as in the original ZZActionPipe).
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @inlinable @discardableResult
    public func on<each Argument, Result>(
        _ action: KeyPath<Actions, Action<repeat each Argument, Result>> & Sendable,
        _ body:
            @escaping @Sendable (
                inout ActionProcess<ActionKind.Sync, repeat each Argument, Result>
            ) -> Result?
    ) -> RegistrationToken {
        on(action).handle(body)
    }

    // No `on(_:_:)` for throwing actions: a closure's inferred error type does not convert
    // to `throws(Kind.Failure)` while `Kind` is inferred from the key path.

    /// Registers the `async throws` closure `body` as this pipe's handler for `action`,
    /// without conditions, replacing any earlier one.
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func on<each Argument, Result>(
        _ action: KeyPath<Actions, AsyncAction<repeat each Argument, Result>> & Sendable,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                inout ActionProcess<ActionKind.Async, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken {
        on(action).handle(body)
    }

    /// Removes this pipe's handler for `action`.
    ///
    /// - Returns: Whether there was a handler to remove.
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func removeHandler<Kind, each Argument, Result>(
        for action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> Bool {
        let key = _ActionKey(Actions()[keyPath: action])
        return _withTopology { _member.remove(key) }
    }

    /// Whether this pipe has a handler for `action`.
    ///
    /// - Complexity: O(1).
    public func handles<Kind, each Argument, Result>(
        _ action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>> & Sendable
    ) -> Bool {
        let key = _ActionKey(Actions()[keyPath: action])
        return _withTopology { _member.handler(for: key) != nil }
    }

    /// Whether any pipe of this pipe's chain has a handler for `action` (the original's
    /// `respondsToSelector:`).
    ///
    /// - Complexity: O(log k) for the chain's k actions (plus a rebuild after a change).
    public func chainHandles<Kind, each Argument, Result>(
        _ action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>> & Sendable
    ) -> Bool {
        _currentSnapshot().handles(_ActionKey(Actions()[keyPath: action]))
    }

    @usableFromInline
    func _register(_ handler: _AnyHandler, for key: _ActionKey) -> RegistrationToken {
        _withTopology {
            _member.set(handler, for: key)
            _member.changed()
        }
        return RegistrationToken(
            registry: _member, id: handler.id, detail: key.rawValue, scope: name, joiner: ".",
            label: key.name)
    }
}
