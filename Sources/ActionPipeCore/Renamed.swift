// Names before 0.2, kept one release for migration (CHANGELOG.md).

/// Renamed: every part now returns RegistrationToken.
@available(*, deprecated, renamed: "RegistrationToken")
public typealias HandlerToken = RegistrationToken

/// Renamed: one retention type, ``Retention``, for owners in every part.
@available(*, deprecated, renamed: "Retention")
public typealias TargetRetention = Retention

extension HandlerRegistration where Kind == ActionKind.Sync {
    /// Renamed: `handle(owner:retention:_:)`.
    @available(*, deprecated, renamed: "handle(owner:retention:_:)")
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        target: Target, retention: Retention = .weak,
        _ body:
            @escaping @Sendable (Target, inout ActionProcess<Kind, repeat each Argument, Result>)
            -> Result?
    ) -> RegistrationToken {
        handle(owner: target, retention: retention, body)
    }

    /// Renamed: `handle(owner:retention:method:)`.
    @available(*, deprecated, renamed: "handle(owner:retention:method:)")
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        target: Target, retention: Retention = .weak,
        method: @escaping @Sendable (Target) -> (repeat each Argument) -> Result?
    ) -> RegistrationToken {
        handle(owner: target, retention: retention, method: method)
    }
}

extension HandlerRegistration where Kind: ThrowingActionKind {
    /// Renamed: `handle(owner:retention:_:)`.
    @available(*, deprecated, renamed: "handle(owner:retention:_:)")
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        target: Target, retention: Retention = .weak,
        _ body:
            @escaping @Sendable (Target, inout ActionProcess<Kind, repeat each Argument, Result>)
            throws(Kind.Failure) -> Result?
    ) -> RegistrationToken {
        handle(owner: target, retention: retention, body)
    }
}

extension HandlerRegistration where Kind == ActionKind.Async {
    /// Renamed: `handle(owner:retention:_:)`.
    @available(*, deprecated, renamed: "handle(owner:retention:_:)")
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        target: Target, retention: Retention = .weak,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                Target, inout ActionProcess<Kind, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken {
        handle(owner: target, retention: retention, body)
    }

    /// Renamed: `handle(owner:retention:method:)`.
    @available(*, deprecated, renamed: "handle(owner:retention:method:)")
    @discardableResult
    public func handle<Target: AnyObject & Sendable>(
        target: Target, retention: Retention = .weak,
        method:
            @escaping @Sendable (Target) ->
            nonisolated(nonsending) (repeat each Argument) async throws
            -> Result?
    ) -> RegistrationToken {
        handle(owner: target, retention: retention, method: method)
    }
}

extension ActionReport {
    /// Renamed: ``runCount``.
    @available(*, deprecated, renamed: "runCount")
    public var handlersRun: Int { runCount }

    /// Renamed: ``isFailure``.
    @available(*, deprecated, renamed: "isFailure")
    public var failed: Bool { isFailure }
}
