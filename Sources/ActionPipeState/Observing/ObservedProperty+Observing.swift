import ActionPipeConcurrency

extension ObservedProperty {
    /// Calls `handler` with the new value after every assignment, synchronously, on the
    /// assigning thread, until the token is cancelled or the property goes away.
    ///
    /// The handler may set any property, observe, or cancel. It must not capture a state
    /// object that holds this property strongly (a retain cycle): observe with an `owner:`.
    ///
    /// - Complexity: Amortised O(1): the next set rebuilds the list, once per burst.
    @inlinable
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], _ handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        // Inlinable, so the observer's class metadata is looked up once per call site.
        guard options.isEmpty else {
            return _observe(options, label: label, _ObsObserver(plain: handler))
        }
        return _register(_ObsObserver(plain: handler))
    }

    /// Calls `handler` with `owner` and each new value for as long as `owner` lives (held
    /// weakly by default; ``Retention/strong`` keeps it until cancelled).
    ///
    /// Once `owner` is released the handler is never called again, and the observation is
    /// removed at the next assignment.
    ///
    /// - Complexity: Amortised O(1), as ``observe(_:_:)``.
    @inlinable
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        guard options.isEmpty, retention == .weak else {
            return _observe(options, label: label, owner: owner, retention: retention, handler)
        }
        return _register(_ObsDeliveringObserver(deliver: _obsDelivery(whileAlive: owner, handler)))
    }

    /// Delivers each new value on `actor` (held weakly), in assignment order, from a task (so
    /// the handler may lag), until the token is cancelled, the property or the actor is gone.
    ///
    /// - Complexity: Amortised O(1), as ``observe(_:_:)``.
    @discardableResult
    public func observe<A: Actor>(
        _ options: ObservationOptions = [], on actor: A,
        _ handler: @escaping @Sendable (isolated A, Value) -> Void
    ) -> RegistrationToken {
        _observe(options, on: actor, handler)
    }

    /// Calls `handler` with each new value on the main actor, as a `@MainActor` closure.
    ///
    /// Ordered and immediate as ``MainActorDelivery`` describes; a delivery still queued when
    /// the observation ends is dropped.
    ///
    /// - Parameter options: `.initial` delivers the current value first, unless a newer
    ///   write's value reaches the handler before it.
    /// - Complexity: Amortised O(1), as ``observe(_:_:)``; a set not delivered at once adds
    ///   one enqueue per main-actor observer.
    @inlinable
    @discardableResult
    public func observe(
        _ options: ObservationOptions = [], on _: MainActorDelivery,
        _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> RegistrationToken {
        guard options.isEmpty else { return _observeOnMainActor(options, handler) }
        let observation = _ObsMainActorObservation<Value> { value in
            handler(value)
            return true
        }
        // Captured here: a generic class's closure field would be called unspecialised.
        let immediate = MainQueue.uncheckedIsolation(handler)
        return _register(
            _ObsDeliveringObserver(
                plain: { value in
                    guard observation.isActive else { return }
                    if _MainActorQueue.shared.isIdleOnMainActor {
                        immediate(value)
                    } else {
                        observation.enqueue(value)
                    }
                },
                end: { observation.end() }))
    }

    /// Calls `handler` with `owner` (held weakly) and each new value on the main actor, for
    /// as long as `owner` lives; a `@MainActor` view model can be the owner.
    ///
    /// The owner is read on the main actor only; once it is gone no queued value is delivered.
    ///
    /// - Complexity: Amortised O(1); a set adds one enqueue per main-actor observer.
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], owner: Owner, on _: MainActorDelivery,
        _ handler: @escaping @MainActor @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        _observeOnMainActor(options, owner: owner, handler)
    }

    /// The values assigned from now on, as an `AsyncStream`; it finishes when the property
    /// goes away, and ending the iteration removes the observer.
    ///
    /// - Parameter buffering: By default the newest 1,024 unread values, so a stream nobody
    ///   reads cannot exhaust memory; `.unbounded` keeps every value.
    /// - Complexity: O(1) to create; as ``observe(_:_:)``.
    public func values(
        _ options: ObservationOptions = [],
        buffering: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1_024)
    ) -> AsyncStream<Value> {
        _values(options, buffering).stream
    }
}
