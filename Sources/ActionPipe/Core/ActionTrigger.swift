/// Calls one action again from the head of a chain, later: the original's root-pipe
/// re-trigger, for "start → request → success/error" flows.
///
/// Get one from ``ActionProcess/trigger`` inside a handler. It holds the pipe weakly, so
/// a pending trigger does not keep a chain alive; once the chain is gone, calling it does
/// nothing and returns `nil`.
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
    private let pipe: _WeakPipe
    private let key: _ActionKey

    init(pipe: ActionPipe, key: _ActionKey) {
        self.pipe = _WeakPipe(pipe)
        self.key = key
    }

    /// Whether the chain is still alive.
    ///
    /// ```swift
    /// if trigger.isAlive { trigger.call(state: .success, data) }
    /// ```
    public var isAlive: Bool { pipe.value != nil }

    /// Calls the action from the chain's head with `state` (or as a plain call when `nil`).
    ///
    /// ```swift
    /// trigger.call(state: .error, "timed out")
    /// ```
    ///
    /// - Returns: The call's result, or `nil` when no handler ran or the chain is gone.
    @discardableResult
    public func call(state: ActionState?, _ arguments: repeat each Argument) -> Result? {
        guard let pipe = pipe.value else { return nil }
        let bound = BoundAction<repeat each Argument, Result>(
            pipe: pipe, key: key, options: _CallOptions(state: state))
        return bound(repeat each arguments)
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

/// A weak reference to a pipe, shareable across threads.
final class _WeakPipe: Sendable {
    weak let value: ActionPipe?
    init(_ pipe: ActionPipe) { value = pipe }
}
