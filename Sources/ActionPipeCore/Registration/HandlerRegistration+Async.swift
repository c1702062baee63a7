import ActionPipeConcurrency

extension HandlerRegistration where Kind == ActionKind.Async {
    /// Registers `body`, which may suspend and throw, replacing any handler of the action
    /// on this pipe. It runs in the calling task (it sees its cancellation); mark the
    /// closure with a global actor to run it there:
    ///
    /// ```swift
    /// pipe.on(\.fetchTitle).handle { @MainActor process in
    ///     titleLabel.text = "Loading…"
    ///     return process.upstream
    /// }
    /// ```
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func handle(
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken {
        pipe._register(_AsyncHandler(self, plain: body), for: key)
    }

    /// Registers a handler that never suspends, as a synchronous closure: it runs without
    /// an async call of its own. Cancellation is checked before it, unless it directly
    /// follows another synchronous handler.
    ///
    /// Not an overload of `handle(_:)`: Swift would pick it for every closure without
    /// `await`, `{ @MainActor process in ... }` included, then reject it for losing its actor.
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func handleSynchronously(
        _ body:
            @escaping @Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) ->
            Result?
    ) -> RegistrationToken {
        pipe._register(_AsyncHandler(self, sync: body), for: key)
    }

    /// Registers an async handler that runs with `target` (an actor works), held weakly by
    /// default; while the target is gone the handler is skipped.
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken {
        let erased: _AsyncHandler<repeat each Argument, Result>.Body = { object, process in
            try await body(knownCast(object!, to: Target.self), &process)
        }
        return pipe._register(
            _AsyncHandler(self, target: _Target(target, retention), body: erased), for: key)
    }

    /// Registers an async method of `target` (held weakly by default) as the handler,
    /// such as `handle(owner: server, method: Server.fetchTitle)`.
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak,
        method:
            @escaping @Sendable (Target) ->
            nonisolated(nonsending) (repeat each Argument) async throws
            -> Result?
    ) -> RegistrationToken {
        handle(owner: target, retention: retention) { target, process in
            try await method(target)(repeat each process._arguments)
        }
    }
}
