import ActionPipeConcurrency

extension PipelinePlumber {
    /// Sets the sink to a `@MainActor` closure, delivered through the one main-actor queue
    /// (``MainActorDelivery``); a delivery still queued when the token is cancelled or the
    /// sink replaced is dropped.
    ///
    /// - Returns: The token that removes this sink; see ``sink(_:)``.
    /// - Complexity: O(1) to set; each delivery is one enqueue and one look-up of the token.
    @discardableResult
    public func sink(
        on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (PlumbingPacket<Payload>) -> Void
    ) -> RegistrationToken {
        _register(.sink, label: "sink") { $0.sink = ($1, _onMainActor(while: $1, is: .sink, body)) }
    }

    /// Sets the stop observer to a `@MainActor` closure, told each stop on the main actor,
    /// ordered, immediate and dropped as ``sink(on:_:)`` is.
    ///
    /// - Returns: The token that removes this observer; see ``onStop(_:)``.
    /// - Complexity: O(1) to set; each stop is one enqueue and one look-up of the token.
    @discardableResult
    public func onStop(
        on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (PlumbingOutcome<Payload>) -> Void
    ) -> RegistrationToken {
        _register(.stopObserver, label: "onStop") {
            $0.onStop = ($1, _onMainActor(while: $1, is: .stopObserver, body))
        }
    }

    /// Sets the sink to a `@MainActor` closure handed `owner` (held weakly, read only on the
    /// main actor) with each packet, for as long as `owner` lives; otherwise as ``sink(on:_:)``.
    ///
    /// - Returns: The token that removes this sink.
    /// - Complexity: As ``sink(on:_:)``, plus one weak read per delivery.
    @discardableResult
    public func sink<Owner: AnyObject & Sendable>(
        owner: Owner, on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (Owner, PlumbingPacket<Payload>) -> Void
    ) -> RegistrationToken {
        sink(on: delivery) { [weak owner] packet in
            if let owner { body(owner, packet) }
        }
    }

    /// Sets the stop observer to a `@MainActor` closure handed `owner` (held weakly) with
    /// each stop, for as long as `owner` lives; otherwise as ``onStop(on:_:)``.
    ///
    /// - Returns: The token that removes this observer.
    /// - Complexity: As ``onStop(on:_:)``, plus one weak read per stop.
    @discardableResult
    public func onStop<Owner: AnyObject & Sendable>(
        owner: Owner, on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (Owner, PlumbingOutcome<Payload>) -> Void
    ) -> RegistrationToken {
        onStop(on: delivery) { [weak owner] stop in
            if let owner { body(owner, stop) }
        }
    }

    /// Each value is dropped unless registration `id` of `kind` still holds when it runs.
    private func _onMainActor<Value: Sendable>(
        while id: UInt64, is kind: _PlumbingRegistration,
        _ body: @escaping @MainActor @Sendable (Value) -> Void
    ) -> @Sendable (Value) -> Void {
        { [weak self] value in
            _MainActorQueue.shared.enqueue { [weak self] in
                guard let self, self._configuration.withLock({ $0.holds(id, kind) }) else { return }
                body(value)
            }
        }
    }
}
