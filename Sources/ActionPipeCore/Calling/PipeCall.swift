/// A pipe seen through call options (a state, side data): call any action on it like a
/// method, as the original's `pipe.doWithState(1)` does.
///
/// ```swift
/// pipe1.with(state: 1).someFunc(0, nil)        // only handlers whose state meets 1
/// pipe1.with(state: [1, 10]).someFunc(0, nil)   // handlers of state 1 or 10
/// pipe1.with(Keys.label, "hello").someFunc(0, nil)
/// ```
@dynamicMemberLookup
public struct PipeCall: Sendable {
    @usableFromInline var _setup: _CallSetup

    /// The action named by `action`, bound to the pipe with these options.
    ///
    /// ```swift
    /// pipe.with(state: .success).someFunc(1, nil)
    /// ```
    @inlinable
    public subscript<Kind, each Argument, Result>(
        dynamicMember action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable
    ) -> BoundAction<Kind, repeat each Argument, Result> {
        BoundAction(setup: _setup, key: _ActionKey(Actions()[keyPath: action]))
    }

    /// Adds a value to the side data the call starts with.
    ///
    /// ```swift
    /// pipe.with(state: .start).with(Keys.label, "a").someFunc(0, nil)
    /// ```
    public func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) -> PipeCall {
        var copy = self
        copy._setup.add(key, value)
        return copy
    }

    /// Sets the call's state.
    ///
    /// ```swift
    /// pipe.with(Keys.label, "a").with(state: .end).someFunc(0, nil)
    /// ```
    public func with(state: ActionState) -> PipeCall {
        var copy = self
        copy._setup.state = state
        return copy
    }
}

extension ActionPipe {
    /// This pipe, for a call made with `state`: only handlers whose state shares a bit
    /// with it, and handlers registered without a state, run.
    ///
    /// ```swift
    /// pipe1.with(state: 10).someFunc(0, nil)
    /// ```
    public func with(state: ActionState) -> PipeCall {
        PipeCall(_setup: _CallSetup(pipe: self, state: state))
    }

    /// This pipe, for a call whose side data starts with `value`.
    ///
    /// ```swift
    /// pipe.with(Keys.label, "from the caller").someFunc(0, nil)
    /// ```
    public func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) -> PipeCall {
        var setup = _CallSetup(pipe: self)
        setup.add(key, value)
        return PipeCall(_setup: setup)
    }
}
