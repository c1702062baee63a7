import ActionPipeConcurrency

extension HandlerRegistration where Kind == ActionKind.Sync {
    /// Registers `body` as a `@MainActor` handler, replacing any handler of the action on
    /// this pipe: it changes `@MainActor` state (a view model, a view) directly, with no
    /// `MainActor.assumeIsolated`.
    ///
    /// A synchronous call cannot wait for the main actor, so the handler runs only in calls
    /// made on the main actor, at once and in turn like any handler: its result becomes the
    /// upstream value of the next handler, or the call's result. In a call made on any other
    /// thread or task, the handler is skipped, never trapping: the trace shows
    /// ``SkipReason/notOnMainActor``, and the call goes on with the next handler. (Code on
    /// the main thread that does not run on the main actor's queue, such as top-level code
    /// before the main queue runs, counts as elsewhere.) An action whose handler must run
    /// whatever the caller is an ``AsyncAction``, whose main-actor handlers hop there.
    ///
    /// The handler is checked out of line, like a handler with conditions: a chain that
    /// has one pays that check, and a chain without one is unaffected.
    ///
    /// ```swift
    /// @MainActor final class ProfileViewModel {
    ///     var title = ""
    ///
    ///     func bind(to pipe: ActionPipe) {
    ///         pipe.on(\.showTitle).handle(on: .mainActor) { process in
    ///             self.title = process.arguments   // main-actor state, checked
    ///             return nil
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - delivery: `.mainActor`.
    ///   - body: The handler, run on the main actor; returns the result or `nil`.
    /// - Returns: The token that removes the handler.
    ///
    /// - Complexity: Amortised O(1) to register, as `handle(_:)`; in a call, one O(1)
    ///   test of the calling thread before the body.
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
                state: handlerState, target: .none, conditions: mainActorConditions,
                plain: { process in
                    // The last condition admitted the handler on the main actor, and a
                    // synchronous call cannot have left it since: the assumption holds.
                    MainActor.assumeIsolated { body(&process) }
                },
                body: nil),
            for: key)
    }

    /// Registers a `@MainActor` handler that runs with `target`, held weakly by default:
    /// as `handle(on:_:)`, run at once in calls made on the main actor and skipped
    /// (``SkipReason/notOnMainActor``) in calls made elsewhere, and skipped
    /// (``SkipReason/targetReleased``) once the target is gone. The target is never
    /// touched off the main actor.
    ///
    /// ```swift
    /// @MainActor final class ProfileScreen {
    ///     var title = ""
    ///
    ///     func bind(to pipe: ActionPipe) {
    ///         pipe.on(\.showTitle).handle(owner: self, on: .mainActor) { screen, process in
    ///             screen.title = process.arguments
    ///             return nil
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The object the handler gets; held as `retention` says.
    ///   - retention: `.weak` (the default) or `.strong`.
    ///   - delivery: `.mainActor`.
    ///   - body: The handler, run on the main actor with the target.
    /// - Returns: The token that removes the handler.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, one O(1) test of the calling
    ///   thread, then the target's resolution, before the body.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak, on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        pipe._register(
            _SyncHandler(
                state: handlerState, target: Self.target(target, retention),
                conditions: mainActorConditions, plain: nil,
                body: { object, process in
                    // Admitted on the main actor (the conditions run before the target is
                    // resolved), and a synchronous call cannot leave it.
                    let owner = knownCast(object!, to: Target.self)
                    return MainActor.assumeIsolated { body(owner, &process) }
                }),
            for: key)
    }

}

extension HandlerRegistration {
    /// The registration's conditions, then "the call runs on the main actor", checked last
    /// so that the other reasons to skip keep their precedence in traces.
    fileprivate var mainActorConditions: [_Condition<Kind, repeat each Argument, Result>] {
        conditions + [
            _Condition(check: { _ in
                _MainActorQueue.isOnMainActor ? nil : .notOnMainActor
            })
        ]
    }
}

extension HandlerRegistration where Kind: ThrowingActionKind {
    /// Registers `body`, a `@MainActor` handler that may throw the action's `Failure`,
    /// replacing any handler of the action on this pipe: it changes `@MainActor` state
    /// directly, with no `MainActor.assumeIsolated`.
    ///
    /// As for a synchronous action (a throwing call cannot wait for the main actor either),
    /// the handler runs only in calls made on the main actor, at once and in turn; in a call
    /// made elsewhere it is skipped (``SkipReason/notOnMainActor``) and the call goes on.
    /// A throw ends the call, as with any throwing handler.
    ///
    /// ```swift
    /// @MainActor final class LoginForm {
    ///     var error = ""
    ///
    ///     func bind(to pipe: ActionPipe) {
    ///         pipe.on(\.validate).handle(on: .mainActor) { (process) throws(FormError) in
    ///             guard !process.arguments.isEmpty else {
    ///                 self.error = "Enter a name"   // main-actor state, checked
    ///                 throw .empty
    ///             }
    ///             return process.arguments
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - delivery: `.mainActor`.
    ///   - body: The handler, run on the main actor; returns the result or `nil`, or throws.
    /// - Returns: The token that removes the handler.
    ///
    /// - Complexity: Amortised O(1) to register, as `handle(_:)`; in a call, one O(1)
    ///   test of the calling thread before the body.
    @discardableResult
    public func handle(
        on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                inout ActionProcess<Kind, repeat each Argument, Result>
            ) throws(Kind.Failure) -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        register(.none, conditions: mainActorConditions) { (_, process) throws(Kind.Failure) in
            try Self.onMainActor(&process) { (process) throws(Kind.Failure) in try body(&process) }
        }
    }

    /// Registers a throwing `@MainActor` handler that runs with `target`, held weakly by
    /// default: as the form without an owner, and skipped (``SkipReason/targetReleased``) once the target is gone. The target is
    /// never touched off the main actor.
    ///
    /// ```swift
    /// @MainActor final class LoginScreen {
    ///     var name = ""
    ///
    ///     func bind(to pipe: ActionPipe) {
    ///         pipe.on(\.validate).handle(owner: self, on: .mainActor) {
    ///             (screen, process) throws(FormError) in
    ///             guard !process.arguments.isEmpty else { throw .empty }
    ///             screen.name = process.arguments
    ///             return process.arguments
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The object the handler gets; held as `retention` says.
    ///   - retention: `.weak` (the default) or `.strong`.
    ///   - delivery: `.mainActor`.
    ///   - body: The handler, run on the main actor with the target.
    /// - Returns: The token that removes the handler.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, one O(1) test of the calling
    ///   thread, then the target's resolution, before the body.
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

    /// `body`, run in a call that the last condition admitted on the main actor (a
    /// synchronous call cannot have left it since), with its typed error kept.
    private static func onMainActor(
        _ process: inout ActionProcess<Kind, repeat each Argument, Result>,
        _ body:
            @MainActor (inout ActionProcess<Kind, repeat each Argument, Result>)
            throws(Kind.Failure) -> Result?
    ) throws(Kind.Failure) -> Result? where repeat each Argument: Sendable, Result: Sendable {
        let outcome: Swift.Result<Result?, Kind.Failure> = MainActor.assumeIsolated {
            do throws(Kind.Failure) { return .success(try body(&process)) } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension HandlerRegistration where Kind == ActionKind.Async {
    /// Registers `body` as a `@MainActor` handler, replacing any handler of the action on
    /// this pipe: it changes `@MainActor` state (a view model, a view) directly, with no
    /// `MainActor.assumeIsolated`.
    ///
    /// The handler always runs on the main actor: a call made elsewhere hops there for the
    /// handler and back for the rest of the chain; a call made on the main actor runs it
    /// without a hop. It runs in the calling task, so it sees the task's cancellation.
    /// (The same as `handle { @MainActor process in ... }`, spelled so the intent shows.)
    ///
    /// ```swift
    /// @MainActor final class ProfileViewModel {
    ///     var isLoading = false
    ///
    ///     func bind(to pipe: ActionPipe) {
    ///         pipe.on(\.fetchTitle).handle(on: .mainActor) { process in
    ///             self.isLoading = true   // main-actor state, checked
    ///             return process.upstream
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - delivery: `.mainActor`.
    ///   - body: The handler, run on the main actor; may suspend and throw.
    /// - Returns: The token that removes the handler.
    ///
    /// - Complexity: Amortised O(1) to register, as `handle(_:)`; in a call, the hop to
    ///   the main actor and back when the call runs elsewhere.
    @discardableResult
    public func handle(
        on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        pipe._register(
            _AsyncHandler(
                state: handlerState, target: .none, conditions: conditions,
                plain: { process in try await body(&process) }, body: nil),
            for: key)
    }

    /// Registers a `@MainActor` handler that runs with `target`, held weakly by default:
    /// as `handle(on:_:)`, run on the main actor whatever the caller, and skipped
    /// (``SkipReason/targetReleased``) once the target is gone.
    ///
    /// ```swift
    /// @MainActor final class ProfileScreen {
    ///     var isLoading = false
    ///
    ///     func bind(to pipe: ActionPipe) {
    ///         pipe.on(\.fetchTitle).handle(owner: self, on: .mainActor) { screen, process in
    ///             screen.isLoading = true
    ///             return process.upstream
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The object the handler gets; held as `retention` says.
    ///   - retention: `.weak` (the default) or `.strong`.
    ///   - delivery: `.mainActor`.
    ///   - body: The handler, run on the main actor with the target; may suspend and throw.
    /// - Returns: The token that removes the handler.
    ///
    /// - Complexity: Amortised O(1) to register; in a call, the target's resolution, and the
    ///   hop to the main actor and back when the call runs elsewhere.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak, on delivery: MainActorDelivery,
        _ body:
            @escaping @MainActor @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken where repeat each Argument: Sendable, Result: Sendable {
        pipe._register(
            _AsyncHandler(
                state: handlerState, target: Self.target(target, retention),
                conditions: conditions, plain: nil,
                body: { object, process in
                    try await body(knownCast(object!, to: Target.self), &process)
                }),
            for: key)
    }
}
