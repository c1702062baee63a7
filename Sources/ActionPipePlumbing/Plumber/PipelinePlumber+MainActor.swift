import ActionPipeConcurrency

extension PipelinePlumber {
    /// Sets the sink to a `@MainActor` closure the compiler checks: it changes main-actor
    /// state (a view model, a view) directly, with no `MainActor.assumeIsolated`.
    ///
    /// Each delivered packet goes through the one queue of deliveries to the main actor
    /// (see ``MainActorDelivery``), so the sink sees packets in the order they were
    /// delivered, after the state changes and bus events queued before them. A packet
    /// delivered on the main actor with nothing queued reaches the sink before `send` (or
    /// `process`) returns; any other reaches it later, on the main actor. As
    /// ``sink(_:)``, setting a sink again replaces this one; a delivery still queued when
    /// the token was cancelled (or the sink replaced) is dropped: after `cancel()` on the
    /// main actor the sink is never called again.
    ///
    /// ```swift
    /// @MainActor final class ShareViewModel {
    ///     var links: [String] = []
    ///     var token: RegistrationToken?
    ///
    ///     func bind(to plumber: PipelinePlumber<String>) {
    ///         token = plumber.sink(on: .mainActor) { packet in
    ///             self.links.append(packet.payload)   // main-actor state, checked by the compiler
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - delivery: `.mainActor`.
    ///   - body: Receives each delivered packet on the main actor.
    /// - Returns: The token that removes this sink; see ``sink(_:)``.
    /// - Complexity: O(1) to set, as ``sink(_:)``; each delivery is one append to the main
    ///   actor's queue (O(1) amortised) and, when it runs, one look-up of the token under
    ///   the plumber's lock.
    @discardableResult
    public func sink(
        on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (PlumbingPacket<Payload>) -> Void
    ) -> RegistrationToken {
        _setSink { id in _onMainActor(while: id, is: .sink, body) }
    }

    /// Sets the stop observer to a `@MainActor` closure the compiler checks, told about
    /// every packet that stops, on the main actor.
    ///
    /// Stops go through the one queue of deliveries to the main actor (see
    /// ``MainActorDelivery``), in the order they happened; a stop on the main actor with
    /// nothing queued is told before `send` (or `process`) returns. As ``onStop(_:)``,
    /// setting an observer again replaces this one; a delivery still queued when the token
    /// was cancelled (or the observer replaced) is dropped.
    ///
    /// ```swift
    /// @MainActor final class ShareErrors {
    ///     var message: String?
    ///
    ///     func bind(to plumber: PipelinePlumber<String>) -> RegistrationToken {
    ///         plumber.onStop(on: .mainActor) { stop in
    ///             self.message = stop.reason?.description   // main-actor state
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - delivery: `.mainActor`.
    ///   - body: Told each stop on the main actor.
    /// - Returns: The token that removes this observer; see ``onStop(_:)``.
    /// - Complexity: O(1) to set, as ``onStop(_:)``; each stop is one append to the main
    ///   actor's queue (O(1) amortised) and, when it runs, one look-up of the token under
    ///   the plumber's lock.
    @discardableResult
    public func onStop(
        on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (PlumbingOutcome<Payload>) -> Void
    ) -> RegistrationToken {
        _setStopObserver { id in _onMainActor(while: id, is: .stopObserver, body) }
    }

    /// Sets the sink to a `@MainActor` closure handed `owner` with each packet, for as long
    /// as `owner` lives: held weakly and read only on the main actor, so the plumber never
    /// keeps a screen alive and the handler need not capture it. Otherwise as
    /// ``sink(on:_:)``; once the owner is gone, packets are no longer delivered.
    ///
    /// ```swift
    /// @MainActor final class SearchScreen {
    ///     var query = ""
    ///
    ///     func bind(to plumber: PipelinePlumber<String>) -> RegistrationToken {
    ///         plumber.sink(owner: self, on: .mainActor) { screen, packet in
    ///             screen.query = packet.payload
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: The token that removes this sink; see ``sink(_:)``.
    /// - Complexity: As ``sink(on:_:)``, plus one read of the weak owner per delivery.
    @discardableResult
    public func sink<Owner: AnyObject & Sendable>(
        owner: Owner, on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (Owner, PlumbingPacket<Payload>) -> Void
    ) -> RegistrationToken {
        let weakOwner = WeakBox(owner)
        return sink(on: delivery) { packet in
            guard let owner = weakOwner.object else { return }
            body(owner, packet)
        }
    }

    /// Sets the stop observer to a `@MainActor` closure handed `owner` with each stop, for
    /// as long as `owner` lives (held weakly, read only on the main actor). Otherwise as
    /// ``onStop(on:_:)``.
    ///
    /// ```swift
    /// @MainActor final class SearchScreen {
    ///     var hint: String?
    ///
    ///     func bind(to plumber: PipelinePlumber<String>) -> RegistrationToken {
    ///         plumber.onStop(owner: self, on: .mainActor) { screen, stop in
    ///             screen.hint = stop.reason?.refusal
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: The token that removes this observer; see ``onStop(_:)``.
    /// - Complexity: As ``onStop(on:_:)``, plus one read of the weak owner per stop.
    @discardableResult
    public func onStop<Owner: AnyObject & Sendable>(
        owner: Owner, on delivery: MainActorDelivery,
        _ body: @escaping @MainActor @Sendable (Owner, PlumbingOutcome<Payload>) -> Void
    ) -> RegistrationToken {
        let weakOwner = WeakBox(owner)
        return onStop(on: delivery) { stop in
            guard let owner = weakOwner.object else { return }
            body(owner, stop)
        }
    }

    /// `body` delivered through the main actor's queue, each value dropped unless
    /// registration `id` of `kind` is still in place when it runs (not cancelled, not
    /// replaced, the plumber not gone).
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
