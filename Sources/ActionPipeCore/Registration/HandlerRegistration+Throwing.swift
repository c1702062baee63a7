import ActionPipeConcurrency

extension HandlerRegistration where Kind: ThrowingActionKind {
    /// Registers `body`, which may throw the action's `Failure`, replacing any handler of
    /// the action on this pipe. A throw ends the call and reaches the caller.
    ///
    /// ```swift
    /// pipe.on(\.parse).handle { (process) throws(ParseError) in
    ///     guard let number = Int(process.arguments) else { throw .notANumber(process.arguments) }
    ///     return number
    /// }
    /// ```
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @inlinable @discardableResult
    public func handle(
        _ body:
            @escaping @Sendable (inout ActionProcess<Kind, repeat each Argument, Result>)
            throws(Kind.Failure) -> Result?
    ) -> RegistrationToken {
        register(.none) { (_, process) throws(Kind.Failure) in try body(&process) }
    }

    /// Registers a throwing handler that runs with `target`, held weakly by default; while
    /// the target is gone the handler is skipped.
    ///
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        owner target: Target, retention: Retention = .weak,
        _ body:
            @escaping @Sendable (Target, inout ActionProcess<Kind, repeat each Argument, Result>)
            throws(Kind.Failure) -> Result?
    ) -> RegistrationToken {
        register(_Target(target, retention)) { (object, process) throws(Kind.Failure) in
            try body(knownCast(object!, to: Target.self), &process)
        }
    }

    // No `handle(owner:method:)`: it breaks inference of `argumentNotNil(\.self)` before it.

    @usableFromInline
    func register(
        _ target: _Target,
        _ body: @escaping _ThrowingHandler<Kind, repeat each Argument, Result>.Body
    ) -> RegistrationToken {
        pipe._register(_ThrowingHandler(self, target: target, body: body), for: key)
    }
}
