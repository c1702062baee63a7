import ActionPipeConcurrency

/// Calls one action again from the head of a chain, later: the original's root-pipe
/// re-trigger, for "start → request → success/error" flows.
///
/// Get one from ``ActionProcess/trigger`` inside a handler. A pending trigger does not
/// keep the chain alive; once every pipe of the chain is gone, calling it does nothing
/// and returns `nil`. The pipe the call was made on may be gone while its chain lives: the
/// trigger still calls the chain.
///
/// The trigger calls the action the way its ``ActionKind`` is called: `trigger.call(...)`
/// for an ``Action``, `try trigger.call(...)` for a ``ThrowingAction``, and
/// `try await trigger.call(...)` for an ``AsyncAction``.
///
/// ```swift
/// pipe.on(\.load).state(.start).handle { process in
///     let trigger = process.trigger
///     Task {
///         let data = await fetch()
///         trigger.call(state: .success, data)
///     }
///     return nil
/// }
/// ```
public struct ActionTrigger<Kind, each Argument, Result>: Sendable {
    private let member: WeakBox<_Member>
    private let key: _ActionKey

    init(member: _Member, key: _ActionKey) {
        self.member = WeakBox(member)
        self.key = key
    }

    /// Whether the chain is still alive.
    ///
    /// ```swift
    /// if trigger.isAlive { trigger.call(state: .success, data) }
    /// ```
    public var isAlive: Bool { member.object != nil }

    /// The live member and the chain's current snapshot, or `nil` once the chain is gone.
    private func target() -> (member: _Member, snapshot: _Snapshot)? {
        guard let member = member.object,
            let snapshot = _withTopology({ member.liveSnapshot })
        else { return nil }
        return (member, snapshot)
    }

    private func options(_ state: ActionState?) -> _CallOptions { _CallOptions(state: state) }
}

extension ActionTrigger where Kind == ActionKind.Sync {
    /// Calls the action from the chain's head with `state` (or as a plain call when `nil`).
    ///
    /// ```swift
    /// trigger.call(state: .error, "timed out")
    /// ```
    ///
    /// - Returns: The call's result, or `nil` when no handler ran or the chain is gone.
    @discardableResult
    public func call(state: ActionState?, _ arguments: repeat each Argument) -> Result? {
        guard let (member, snapshot) = target() else { return nil }
        var ignored: [ActionTrace.Outcome?]? = nil
        return withExtendedLifetime((member, snapshot)) {
            BoundAction<Kind, repeat each Argument, Result>._run(
                snapshot: Unretained(snapshot), origin: Unretained(member), key: key,
                options: _CallOptions(state: state), arguments: (repeat each arguments),
                recording: &ignored
            ).value
        }
    }

    /// Calls the action from the chain's head, as a plain call.
    ///
    /// ```swift
    /// trigger(data)
    /// ```
    @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        call(state: nil, repeat each arguments)
    }
}

extension ActionTrigger where Kind: ThrowingActionKind {
    /// Calls the throwing action from the chain's head with `state` (or as a plain call
    /// when `nil`).
    ///
    /// ```swift
    /// try trigger.call(state: .success, "42")
    /// ```
    ///
    /// - Returns: The call's result, or `nil` when no handler ran or the chain is gone.
    /// - Throws: The first error a handler throws.
    @discardableResult
    public func call(state: ActionState?, _ arguments: repeat each Argument)
        throws(Kind.Failure) -> Result?
    {
        guard let (member, snapshot) = target() else { return nil }
        var ignored: [ActionTrace.Outcome?]? = nil
        let outcome = withExtendedLifetime(member) {
            BoundAction<Kind, repeat each Argument, Result>._runThrowing(
                snapshot: snapshot, origin: Unretained(member), key: key, state: state,
                sideData: SideData(), arguments: (repeat each arguments), recording: &ignored)
        }
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// Calls the throwing action from the chain's head, as a plain call.
    ///
    /// ```swift
    /// try trigger("42")
    /// ```
    @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) throws(Kind.Failure)
        -> Result?
    {
        try call(state: nil, repeat each arguments)
    }
}

extension ActionTrigger where Kind == ActionKind.Async {
    /// Calls the async action from the chain's head with `state` (or as a plain call when
    /// `nil`), in the calling task.
    ///
    /// ```swift
    /// let data = try await request()
    /// try await trigger.call(state: .success, data)
    /// ```
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
            snapshot: Unretained(snapshot), origin: Unretained(member), key: key,
            options: options(state), arguments: (repeat each arguments), recording: &ignored)
        // The call's process refers to `member` and `snapshot` unretained: keep them alive
        // until here.
        withExtendedLifetime((member, snapshot)) {}
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// Calls the async action from the chain's head, as a plain call.
    ///
    /// ```swift
    /// try await trigger(data)
    /// ```
    @discardableResult
    public nonisolated(nonsending) func callAsFunction(_ arguments: repeat each Argument)
        async throws -> Result?
    {
        try await call(state: nil, repeat each arguments)
    }
}
