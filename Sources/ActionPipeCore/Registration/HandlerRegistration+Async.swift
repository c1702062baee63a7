import ActionPipeConcurrency

extension HandlerRegistration where Kind == ActionKind.Async {
    /// Registers `body`, which may suspend and throw, as the handler, replacing any handler
    /// of the action on this pipe.
    ///
    /// The handler runs in the calling task, so it sees the task's cancellation. Mark the
    /// closure with a global actor to run it there; the rest of the chain is unaffected:
    ///
    /// ```swift
    /// pipe.on(\.fetchTitle).handle { @MainActor process in
    ///     titleLabel.text = "Loading…"          // main-actor state
    ///     return process.upstream
    /// }
    /// ```
    ///
    /// - Complexity: Amortised O(1) in the number of handlers and pipes: the chain is marked
    ///   changed, and its next call rebuilds its snapshot once.
    @discardableResult
    public func handle(
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken {
        pipe._register(
            _AsyncHandler(
                state: handlerState, target: .none, conditions: conditions, plain: body, body: nil),
            for: key)
    }

    /// Registers a handler that never suspends, written as a synchronous closure: it runs
    /// in turn like any handler of the async action, but without an async call of its
    /// own, which makes a call whose handlers never suspend several times cheaper.
    ///
    /// Cancellation is checked before it starts, unless it directly follows another
    /// synchronous handler: nothing can suspend the task between the two, so they run as
    /// one step.
    ///
    /// ```swift
    /// cache.on(\.fetchTitle).handleSynchronously { process in
    ///     process.arguments == 1 ? "Cached title" : nil
    /// }
    /// ```
    ///
    /// A separate name, not an overload of `handle(_:)`: with an overload, Swift picks
    /// the synchronous form for every closure without `await`, including
    /// `{ @MainActor process in ... }`, and then rejects that closure for losing its actor.
    ///
    /// - Complexity: Amortised O(1) in the number of handlers and pipes: the chain is marked
    ///   changed, and its next call rebuilds its snapshot once.
    @discardableResult
    public func handleSynchronously(
        _ body:
            @escaping @Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) ->
            Result?
    ) -> RegistrationToken {
        pipe._register(
            _AsyncHandler(
                state: handlerState, target: .none, conditions: conditions, plain: nil,
                body: nil, sync: body),
            for: key)
    }

    /// Registers an async handler that runs with `target`, held weakly by default; while
    /// the target is gone the handler is skipped. An actor works as a target:
    ///
    /// ```swift
    /// pipe.on(\.fetchTitle).handle(owner: cache) { cache, process in
    ///     await cache.title(for: process.arguments)
    /// }
    /// ```
    ///
    /// - Complexity: Amortised O(1) in the number of handlers and pipes: the chain is marked
    ///   changed, and its next call rebuilds its snapshot once.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken {
        register(Self.target(target, retention)) { object, process in
            try await body(knownCast(object!, to: Target.self), &process)
        }
    }

    /// Registers an async method of `target` as the handler. The target is held weakly by
    /// default.
    ///
    /// ```swift
    /// final class Server: Sendable {
    ///     func fetchTitle(_ id: Int) async throws -> String? { "Document \(id)" }
    /// }
    /// pipe.on(\.fetchTitle).handle(owner: server, method: Server.fetchTitle)
    /// ```
    ///
    /// - Complexity: Amortised O(1) in the number of handlers and pipes: the chain is marked
    ///   changed, and its next call rebuilds its snapshot once.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak,
        method:
            @escaping @Sendable (Target) ->
            nonisolated(nonsending) (repeat each Argument) async throws
            -> Result?
    ) -> RegistrationToken {
        register(Self.target(target, retention)) { object, process in
            try await method(knownCast(object!, to: Target.self))(
                repeat each process._arguments)
        }
    }

    private func register(
        _ target: _Target, _ body: @escaping _AsyncHandler<repeat each Argument, Result>.Body
    ) -> RegistrationToken {
        pipe._register(
            _AsyncHandler(
                state: handlerState, target: target, conditions: conditions, plain: nil,
                body: body),
            for: key)
    }
}
