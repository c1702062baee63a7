/// Calls one action again from the head of a chain, later: the original's root-pipe
/// re-trigger, for "start → request → success/error" flows.
///
/// Get one from ``ActionProcess/trigger`` inside a handler. A pending trigger does not
/// keep the chain alive; once every pipe of the chain is gone, calling it does nothing
/// and returns `nil`. The pipe the call was made on may be gone while its chain lives: the
/// trigger still calls the chain.
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
public struct ActionTrigger<each Argument, Result>: Sendable {
    private let member: _WeakMember
    private let key: _ActionKey

    init(member: _Member, key: _ActionKey) {
        self.member = _WeakMember(member)
        self.key = key
    }

    /// Whether the chain is still alive.
    ///
    /// ```swift
    /// if trigger.isAlive { trigger.call(state: .success, data) }
    /// ```
    public var isAlive: Bool { member.value != nil }

    /// Calls the action from the chain's head with `state` (or as a plain call when `nil`).
    ///
    /// ```swift
    /// trigger.call(state: .error, "timed out")
    /// ```
    ///
    /// - Returns: The call's result, or `nil` when no handler ran or the chain is gone.
    @discardableResult
    public func call(state: ActionState?, _ arguments: repeat each Argument) -> Result? {
        guard let member = member.value,
            let snapshot = _withTopology({ member.chain?.snapshot })
        else { return nil }
        var ignored: [ActionTrace.Outcome?]? = nil
        return withExtendedLifetime(member) {
            BoundAction<repeat each Argument, Result>._run(
                snapshot: snapshot, origin: .passUnretained(member), key: key,
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
