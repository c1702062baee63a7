extension ActionRegistrar {
    /// Registers the throwing `method` of the target for `action`, after applying
    /// `conditions`.
    public mutating func add<Kind: ThrowingActionKind, each Argument, Result>(
        _ action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable,
        where conditions: (Conditions<Kind, repeat each Argument, Result>)
            -> Conditions<Kind, repeat each Argument, Result> = { $0 },
        method:
            @escaping @Sendable (Target) -> (repeat each Argument) throws(Kind.Failure) -> Result?
    ) {
        tokens.append(
            conditions(pipe.on(action)).handle(owner: target, retention: retention) {
                (target, process) throws(Kind.Failure) in
                try method(target)(repeat each process._arguments)
            })
    }

    /// Registers the async `method` of the target for `action`, after applying
    /// `conditions`.
    public mutating func add<each Argument, Result>(
        _ action: KeyPath<Actions, AsyncAction<repeat each Argument, Result>> & Sendable,
        where conditions: (Conditions<ActionKind.Async, repeat each Argument, Result>) ->
            Conditions<ActionKind.Async, repeat each Argument, Result> = { $0 },
        method:
            @escaping @Sendable (Target) ->
            nonisolated(nonsending) (repeat each Argument) async throws
            -> Result?
    ) {
        tokens.append(
            conditions(pipe.on(action)).handle(owner: target, retention: retention, method: method)
        )
    }

    /// Registers the async `body`, run with the target, for `action`, after applying
    /// `conditions`.
    public mutating func add<each Argument, Result>(
        _ action: KeyPath<Actions, AsyncAction<repeat each Argument, Result>> & Sendable,
        where conditions: (Conditions<ActionKind.Async, repeat each Argument, Result>) ->
            Conditions<ActionKind.Async, repeat each Argument, Result> = { $0 },
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                Target, inout ActionProcess<ActionKind.Async, repeat each Argument, Result>
            ) async throws -> Result?
    ) {
        tokens.append(
            conditions(pipe.on(action)).handle(owner: target, retention: retention, body))
    }
}
