import ActionPipeConcurrency

extension HandlerRegistration where Kind == ActionKind.Sync {
    /// Registers `body` as the handler, replacing any handler of the action on this pipe.
    /// Its result (or `nil`) is the next handler's upstream value, or the call's result.
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @inlinable @discardableResult
    public func handle(
        _ body:
            @escaping @Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) ->
            Result?
    ) -> RegistrationToken {
        pipe._register(_SyncHandler(self, plain: body), for: key)
    }

    /// Registers a handler that runs with `target`, held weakly by default; while the
    /// target is gone the handler is skipped (traced as `targetReleased`).
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak,
        _ body:
            @escaping @Sendable (Target, inout ActionProcess<Kind, repeat each Argument, Result>)
            -> Result?
    ) -> RegistrationToken {
        let erased: _SyncHandler<repeat each Argument, Result>.Body = { object, process in
            body(knownCast(object!, to: Target.self), &process)
        }
        return pipe._register(
            _SyncHandler(self, target: _Target(target, retention), body: erased), for: key)
    }

    /// Registers a method of `target` (held weakly by default) as the handler, such as
    /// `handle(owner: robot, method: Robot.someFunc)`: it receives the arguments.
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak,
        method: @escaping @Sendable (Target) -> (repeat each Argument) -> Result?
    ) -> RegistrationToken {
        handle(owner: target, retention: retention) { target, process in
            method(target)(repeat each process._arguments)
        }
    }
}
