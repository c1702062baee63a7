/// Collects the actions of an ``ActionResponder`` while it registers them on a pipe.
///
/// ```swift
/// registrar.add(\.reset) { robot, process in robot.reset() }
/// registrar.add(\.load, where: { $0.state(.start) }, method: Robot.load)
/// ```
public struct ActionRegistrar<Target: AnyObject & Sendable> {
    /// The pipe the actions are registered on.
    public let pipe: ActionPipe
    let target: Target
    let retention: Retention
    /// The tokens of the handlers registered so far.
    public internal(set) var tokens: [RegistrationToken] = []

    /// The handler being registered, to which `where:` adds conditions.
    public typealias Conditions<Kind, each Argument, Result> =
        HandlerRegistration<Kind, repeat each Argument, Result>

    /// Registers `method` of the target for `action`, after applying `conditions`.
    public mutating func add<each Argument, Result>(
        _ action: KeyPath<Actions, Action<repeat each Argument, Result>> & Sendable,
        where conditions: (Conditions<ActionKind.Sync, repeat each Argument, Result>) ->
            Conditions<ActionKind.Sync, repeat each Argument, Result> = { $0 },
        method: @escaping @Sendable (Target) -> (repeat each Argument) -> Result?
    ) {
        add(action, conditions) { $0.handle(owner: $1, retention: $2, method: method) }
    }

    /// Registers `body`, run with the target, for `action`, after applying `conditions`.
    public mutating func add<each Argument, Result>(
        _ action: KeyPath<Actions, Action<repeat each Argument, Result>> & Sendable,
        where conditions: (Conditions<ActionKind.Sync, repeat each Argument, Result>) ->
            Conditions<ActionKind.Sync, repeat each Argument, Result> = { $0 },
        _ body:
            @escaping @Sendable (
                Target, inout ActionProcess<ActionKind.Sync, repeat each Argument, Result>
            ) -> Result?
    ) {
        add(action, conditions) { $0.handle(owner: $1, retention: $2, body) }
    }

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
        add(action, conditions) {
            $0.handle(owner: $1, retention: $2) { (target, process) throws(Kind.Failure) in
                try method(target)(repeat each process._arguments)
            }
        }
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
        add(action, conditions) { $0.handle(owner: $1, retention: $2, method: method) }
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
        add(action, conditions) { $0.handle(owner: $1, retention: $2, body) }
    }

    private mutating func add<Kind, each Argument, Result>(
        _ action: KeyPath<Actions, ActionDescriptor<Kind, repeat each Argument, Result>>
            & Sendable,
        _ conditions: (Conditions<Kind, repeat each Argument, Result>) ->
            Conditions<Kind, repeat each Argument, Result>,
        _ handle: (Conditions<Kind, repeat each Argument, Result>, Target, Retention) ->
            RegistrationToken
    ) {
        tokens.append(handle(conditions(pipe.on(action)), target, retention))
    }
}
