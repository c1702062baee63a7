extension HandlerRegistration where Kind == ActionKind.Sync {
    /// Registers `body` as a `@MainActor` handler, replacing any handler of the action on
    /// this pipe: it changes `@MainActor` state directly.
    ///
    /// A synchronous call cannot wait for the main actor, so the handler runs only in calls
    /// made on the main actor's queue; elsewhere it is skipped (``SkipReason/notOnMainActor``),
    /// never trapping. A handler that must always run belongs to an ``AsyncAction``.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, an O(1) test of the thread.
    @discardableResult
    public func handle(
        on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                inout ActionProcess<Kind, repeat each Argument, Result>
            ) -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        onMainActorOnly.handle { Self.onMainActor(&$0, body) }
    }

    /// Registers a `@MainActor` handler that runs with `target` (held weakly by default),
    /// as `handle(on:_:)`; skipped (``SkipReason/targetReleased``) once the target is gone.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, an O(1) test of the thread.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak, on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        onMainActorOnly.handle(owner: target, retention: retention) { owner, process in
            Self.onMainActor(&process) { body(owner, &$0) }
        }
    }
}

extension HandlerRegistration {
    /// With "on the main actor" as the last condition, so other skip reasons take precedence.
    fileprivate var onMainActorOnly: Self {
        adding { _ in _MainActorQueue.isOnMainActor ? nil : .notOnMainActor }
    }

    /// `body`, admitted on the main actor by ``onMainActorOnly``'s last condition (a sync
    /// call cannot leave it), with its typed error kept.
    fileprivate static func onMainActor<Failure: Error>(
        _ process: inout ActionProcess<Kind, repeat each Argument, Result>,
        _ body:
            @MainActor (inout ActionProcess<Kind, repeat each Argument, Result>) throws(Failure)
            -> Result?
    ) throws(Failure) -> Result? where repeat each Argument: Sendable, Result: Sendable {
        let outcome: Swift.Result<Result?, Failure> = MainActor.assumeIsolated {
            do throws(Failure) { return .success(try body(&process)) } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension HandlerRegistration where Kind: ThrowingActionKind {
    /// Registers `body`, a `@MainActor` handler that may throw the action's `Failure`: as
    /// for a synchronous action, it is skipped (``SkipReason/notOnMainActor``) off the main
    /// actor. A throw ends the call.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, an O(1) test of the thread.
    @discardableResult
    public func handle(
        on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                inout ActionProcess<Kind, repeat each Argument, Result>
            ) throws(Kind.Failure) -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        onMainActorOnly.handle { (process) throws(Kind.Failure) in
            try Self.onMainActor(&process, body)
        }
    }

    /// Registers a throwing `@MainActor` handler that runs with `target` (held weakly by
    /// default); skipped (``SkipReason/targetReleased``) once the target is gone.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, an O(1) test of the thread.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak, on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) throws(Kind.Failure) -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        onMainActorOnly.handle(owner: target, retention: retention) {
            (owner, process) throws(Kind.Failure) in
            try Self.onMainActor(&process) { (process) throws(Kind.Failure) in
                try body(owner, &process)
            }
        }
    }
}

extension HandlerRegistration where Kind == ActionKind.Async {
    /// Registers `body` as a `@MainActor` handler: it always runs on the main actor, hopping
    /// there and back in the calling task. The same as `handle { @MainActor process in ... }`.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, the hop when made elsewhere.
    @discardableResult
    public func handle(
        on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        handle { process in try await body(&process) }
    }

    /// Registers a `@MainActor` handler that runs with `target` (held weakly by default),
    /// on the main actor whatever the caller; skipped (``SkipReason/targetReleased``) once
    /// the target is gone.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, the hop when made elsewhere.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak, on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        handle(owner: target, retention: retention) { try await body($0, &$1) }
    }
}
