extension ObservedPath {
    /// Calls `handler` with the value at the end of the path after every assignment along
    /// it, as ``ObservedProperty/observe(_:_:)`` does.
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], _ handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        _observe(options, label: label, _ObsObserver(plain: handler))
    }

    /// Calls `handler` with `owner` and each new value while `owner` lives, as
    /// ``ObservedProperty/observe(_:owner:retention:_:)`` does.
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, label: label, owner: owner, retention: retention, handler)
    }

    /// Delivers each new value on `actor` (held weakly), as the property's `observe(_:on:_:)`.
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe<A: Actor>(
        _ options: ObservationOptions = [], on actor: A,
        _ handler: @escaping @Sendable (isolated A, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, on: actor, handler)
    }

    /// Calls `handler` with each new value on the main actor, as the property's main-actor
    /// `observe` does.
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], on _: MainActorDelivery,
        _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options, handler)
    }

    /// Calls `handler` with `owner` (held weakly) and each new value on the main actor, for
    /// as long as `owner` lives.
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, on _: MainActorDelivery,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options, owner: owner, handler)
    }

    /// The values at the end of the path from now on, as an `AsyncStream`, as
    /// ``ObservedProperty/values(_:buffering:)``.
    ///
    /// - Complexity: O(length of the path).
    public func values(
        _ options: ObservationOptions = [],
        buffering: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1_024)
    ) -> AsyncStream<Value> {
        _values(options, buffering).stream
    }
}
