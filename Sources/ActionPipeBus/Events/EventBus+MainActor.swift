import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `handler` to `topic`, run on the main actor as a `@MainActor` closure: it
    /// changes `@MainActor` state (a view model, a view) directly, with no
    /// `MainActor.assumeIsolated`.
    ///
    /// Each event goes through the one queue of deliveries to the main actor (see
    /// ``MainActorDelivery``), so handlers run in publish order, across event types and
    /// buses (and after the state changes written before them). A publish made on the main
    /// actor with nothing queued runs the handler before it returns, counted in
    /// ``BusPublishResult/handledCount``; any other publish counts it in
    /// ``BusPublishResult/scheduledCount`` and it runs later, on the main actor. A delivery
    /// whose token was cancelled before it ran is dropped: after `cancel()` on the main
    /// actor, the handler is never called again.
    ///
    /// Main-actor subscribers answer no feedback: their reports (``publish(_:feedback:)``,
    /// ``publishAndWait(_:)``) say handled, with no value.
    ///
    /// ```swift
    /// @MainActor final class CartViewModel {
    ///     var count = 0
    ///     var token: RegistrationToken?
    ///
    ///     func bind(to bus: EventBus) {
    ///         token = bus.subscribe(BusTopic(OrderPlaced.self), on: .mainActor) { _ in
    ///             self.count += 1   // main-actor state, checked by the compiler
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - topic: The event type and subtype (or any subtype) to receive.
    ///   - delivery: `.mainActor`.
    ///   - name: The subscriber's name in feedback; by default `subscription`.
    ///   - handler: Handles one event on the main actor.
    /// - Returns: The token that ends the subscription.
    ///
    /// - Complexity: Amortised O(1) to subscribe, as ``subscribe(_:name:on:_:)``; each
    ///   delivery is one append to the main actor's queue (O(1) amortised), or the handler
    ///   itself when it runs at once.
    @discardableResult
    public func subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, on delivery: MainActorDelivery, name: String? = nil,
        _ handler: @escaping @MainActor @Sendable (Event) -> Void
    ) -> RegistrationToken {
        _subscribe(
            topic, owner: nil, name: name ?? "subscription", executor: .mainActorInOrder
        ) { _, event in
            // The executor runs this job on the main actor: the assumption holds.
            MainActor.assumeIsolated { handler(event) }
            return nil
        }
    }

    /// Subscribes `subscriber` to `topic`, its handler run on the main actor as a
    /// `@MainActor` closure, until the subscription is cancelled or the subscriber goes.
    ///
    /// As ``subscribe(_:on:name:_:)-(_,MainActorDelivery,_,_)`` (publish order, handled at
    /// once or scheduled, no feedback value), with the lifetime of
    /// ``subscribe(_:owner:retention:name:on:_:)``: the bus holds `subscriber` weakly and
    /// hands it to the handler, so the handler need not capture it; once it is released,
    /// events published afterwards, and deliveries still queued, do not reach it.
    ///
    /// ```swift
    /// @MainActor final class CartScreen {
    ///     var count = 0
    ///
    ///     func bind(to bus: EventBus) {
    ///         bus.subscribe(BusTopic(OrderPlaced.self), owner: self, on: .mainActor) {
    ///             screen, _ in screen.count += 1
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - topic: The event type and subtype (or any subtype) to receive.
    ///   - subscriber: The object whose lifetime bounds the subscription; held weakly.
    ///   - delivery: `.mainActor`.
    ///   - name: The subscriber's name in feedback; by default its type's name.
    ///   - handler: Handles one event on the main actor; gets the subscriber.
    /// - Returns: A token that cancels the subscription.
    ///
    /// - Complexity: Amortised O(1) to subscribe, as
    ///   ``subscribe(_:owner:retention:name:on:_:)``; each delivery as
    ///   ``subscribe(_:on:name:_:)-(_,MainActorDelivery,_,_)``'s.
    @discardableResult
    public func subscribe<Event: BusEvent, Owner: AnyObject & Sendable>(
        _ topic: BusTopic<Event>, owner subscriber: Owner, on delivery: MainActorDelivery,
        name: String? = nil,
        _ handler: @escaping @MainActor @Sendable (Owner, Event) -> Void
    ) -> RegistrationToken {
        _subscribe(
            topic, owner: subscriber, name: name ?? _typeName(Owner.self, qualified: false),
            executor: .mainActorInOrder
        ) { object, event in
            // Owned entries always get their live subscriber, and the executor runs this
            // job on the main actor.
            let owner = knownCast(object.unsafelyUnwrapped, to: Owner.self)
            MainActor.assumeIsolated { handler(owner, event) }
            return nil
        }
    }
}
