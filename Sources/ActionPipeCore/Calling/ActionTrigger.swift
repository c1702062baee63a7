import ActionPipeConcurrency

/// Calls one action again from the head of a chain, later: the original's root-pipe
/// re-trigger, for "start → request → success/error" flows. Get one from
/// ``ActionProcess/trigger``. It keeps nothing alive: once every pipe of the chain is gone,
/// calling it does nothing and returns `nil` (its own pipe may be gone while the chain lives).
///
/// ```swift
/// pipe.on(\.load).state(.start).handle { process in
///     let trigger = process.trigger
///     Task { trigger.call(state: .success, await fetch()) }
///     return nil
/// }
/// ```
public struct ActionTrigger<Kind, each Argument, Result>: Sendable {
    let member: WeakBox<_Member>
    let key: _ActionKey

    /// Whether a call would run: a pipe of the chain, or its own pipe while alone, is still
    /// alive. A call still running on a dropped chain does not count.
    ///
    /// - Complexity: O(1); takes the chains' lock.
    public var isAlive: Bool {
        guard let member = member.object else { return false }
        return _withTopology { member.isCallable }
    }

    /// `nil` once the chain is gone.
    private func target() -> (member: _Member, snapshot: _Snapshot)? {
        guard let member = member.object,
            let snapshot = _withTopology({ member.liveSnapshot })
        else { return nil }
        return (member, snapshot)
    }
}

extension ActionTrigger where Kind == ActionKind.Sync {
    /// Calls the action from the chain's head with `state` (a plain call when `nil`).
    ///
    /// - Returns: The call's result, or `nil` when no handler ran or the chain is gone.
    @discardableResult
    public func call(state: ActionState?, _ arguments: repeat each Argument) -> Result? {
        guard let (member, snapshot) = target() else { return nil }
        var ignored: [ActionTrace.Outcome?]? = nil
        return withExtendedLifetime((member, snapshot)) {
            BoundAction<Kind, repeat each Argument, Result>._run(
                snapshot: Unretained(snapshot), origin: Unretained(member), key: key,
                state: state, sideData: SideData(), arguments: (repeat each arguments),
                recording: &ignored
            ).value
        }
    }

    /// Calls the action from the chain's head, as a plain call.
    @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        call(state: nil, repeat each arguments)
    }
}

extension ActionTrigger where Kind: ThrowingActionKind {
    /// Calls the throwing action from the chain's head with `state` (a plain call when
    /// `nil`).
    ///
    /// - Returns: The call's result, or `nil` when no handler ran or the chain is gone.
    /// - Throws: The first error a handler throws.
    @discardableResult
    public func call(state: ActionState?, _ arguments: repeat each Argument)
        throws(Kind.Failure) -> Result?
    {
        guard let (member, snapshot) = target() else { return nil }
        var ignored: [ActionTrace.Outcome?]? = nil
        let outcome = withExtendedLifetime((member, snapshot)) {
            BoundAction<Kind, repeat each Argument, Result>._runThrowing(
                snapshot: Unretained(snapshot), origin: Unretained(member), key: key,
                state: state, sideData: SideData(), arguments: (repeat each arguments),
                recording: &ignored)
        }
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// Calls the throwing action from the chain's head, as a plain call.
    @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) throws(Kind.Failure)
        -> Result?
    {
        try call(state: nil, repeat each arguments)
    }
}

extension ActionTrigger where Kind == ActionKind.Async {
    /// Calls the async action from the chain's head with `state` (a plain call when `nil`),
    /// in the calling task.
    ///
    /// - Returns: The call's result, or `nil` when no handler ran or the chain is gone.
    /// - Throws: The first error a handler throws, or `CancellationError`.
    @discardableResult
    public nonisolated(nonsending) func call(state: ActionState?, _ arguments: repeat each Argument)
        async throws
        -> Result?
    {
        guard let (member, snapshot) = target() else { return nil }
        var ignored: [ActionTrace.Outcome?]? = nil
        let outcome = await BoundAction<Kind, repeat each Argument, Result>._runAsync(
            snapshot: Unretained(snapshot), origin: Unretained(member), key: key, state: state,
            sideData: SideData(), arguments: (repeat each arguments), recording: &ignored)
        // The process refers to them unretained.
        withExtendedLifetime((member, snapshot)) {}
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// Calls the async action from the chain's head, as a plain call.
    @discardableResult
    public nonisolated(nonsending) func callAsFunction(_ arguments: repeat each Argument)
        async throws -> Result?
    {
        try await call(state: nil, repeat each arguments)
    }
}
