import ActionPipeConcurrency

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
        pipe._register(
            _SyncHandler(
                self, conditions: mainActorConditions, plain: { Self.onMainActor(&$0, body) }),
            for: key)
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
        register(Self.target(target, retention), conditions: mainActorConditions) {
            object, process in
            let owner = knownCast(object!, to: Target.self)
            return Self.onMainActor(&process) { body(owner, &$0) }
        }
    }
}

extension HandlerRegistration {
    /// The conditions, then "on the main actor", last so other skip reasons take precedence.
    fileprivate var mainActorConditions: [_Condition<Kind, repeat each Argument, Result>] {
        conditions + [{ _ in _MainActorQueue.isOnMainActor ? nil : .notOnMainActor }]
    }

    /// `body`, admitted on the main actor by the last of ``mainActorConditions`` (a sync
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
        register(.none, conditions: mainActorConditions) { (_, process) throws(Kind.Failure) in
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
        register(Self.target(target, retention), conditions: mainActorConditions) {
            (object, process) throws(Kind.Failure) in
            let owner = knownCast(object!, to: Target.self)
            return try Self.onMainActor(&process) { (process) throws(Kind.Failure) in
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
        pipe._register(
            _AsyncHandler(self, plain: { process in try await body(&process) }), for: key)
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
        register(Self.target(target, retention)) { object, process in
            try await body(knownCast(object!, to: Target.self), &process)
        }
    }
}
