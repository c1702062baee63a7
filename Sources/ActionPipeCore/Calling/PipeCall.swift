/// A pipe seen through call options (a state, side data): call any action on it like a
/// method (the original's `pipe.doWithState(1)`).
///
/// ```swift
/// pipe1.with(state: [1, 10]).someFunc(0, nil)   // handlers of state 1 or 10
/// pipe1.with(Keys.label, "hello").someFunc(0, nil)
/// ```
@dynamicMemberLookup
public struct PipeCall: Sendable {
    @usableFromInline var _setup: _CallSetup

    /// The action named by `action`, bound to the pipe with these options.
    @inlinable
    public subscript<Kind, each Argument, Result>(
        dynamicMember action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> BoundAction<Kind, repeat each Argument, Result> {
        BoundAction(setup: _setup, key: _ActionKey(Actions()[keyPath: action]))
    }

    /// Adds a value to the side data the call starts with.
    public func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) -> PipeCall {
        var copy = self
        copy._setup.add(key, value)
        return copy
    }

    /// Sets the call's state.
    public func with(state: ActionState) -> PipeCall {
        var copy = self
        copy._setup.state = state
        return copy
    }
}

extension ActionPipe {
    /// This pipe, for a call made with `state`: only handlers whose state shares a bit
    /// with it, and handlers registered without a state, run.
    public func with(state: ActionState) -> PipeCall {
        PipeCall(_setup: _CallSetup(pipe: self, state: state))
    }

    /// This pipe, for a call whose side data starts with `value`.
    public func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) -> PipeCall {
        var setup = _CallSetup(pipe: self)
        setup.add(key, value)
        return PipeCall(_setup: setup)
    }
}
