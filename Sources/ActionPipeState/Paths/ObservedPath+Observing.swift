extension ObservedPath {
    /// Calls `handler` with the value at the end of the path after every assignment along
    /// it, synchronously, on the assigning thread, as ``ObservedProperty/observe(_:_:)`` does.
    ///
    /// ```swift
    /// let token = screen.$image.then(\.$url).observe(.initial) { print("now", $0) }
    /// ```
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], _ handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        _observePlain(options, label: label, handler)
    }

    /// Calls `handler` with `owner` and each new value for as long as `owner` lives (held
    /// weakly by default), as ``ObservedProperty/observe(_:owner:retention:_:)`` does.
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, label: label, owner: owner, retention: retention, handler)
    }

    /// Delivers each new value on `actor` (held weakly), in assignment order, asynchronously.
    ///
    /// - Complexity: O(length of the path).
    @discardableResult
    public func observe<A: Actor>(
        _ options: ObservationOptions = [], on actor: A,
        _ handler: @escaping @Sendable (isolated A, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, on: actor, handler)
    }

    /// Calls `handler` with each new value on the main actor, as a `@MainActor` closure,
    /// ordered, immediate and dropped as the property's main-actor `observe` is.
    ///
    /// ```swift
    /// let url = screen.$image.then(\.$url)
    /// let token = url.observe(.initial, on: .mainActor) { model.imageURL = $0 }
    /// ```
    ///
    /// - Complexity: O(length of the path); a set adds one enqueue per main-actor observer.
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
    /// - Complexity: O(length of the path); a set adds one enqueue per main-actor observer.
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, on _: MainActorDelivery,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options, owner: owner, handler)
    }

    /// The values at the end of the path from now on, as an `AsyncStream` that finishes when
    /// the property goes away.
    ///
    /// - Parameter buffering: By default the newest 1,024 unread values; `.unbounded` keeps
    ///   every value.
    /// - Complexity: O(length of the path).
    public func values(
        _ options: ObservationOptions = [],
        buffering: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1_024)
    ) -> AsyncStream<Value> {
        _values(options, buffering).stream
    }
}
