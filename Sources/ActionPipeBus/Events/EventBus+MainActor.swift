import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `handler` to `topic`, run on the main actor as a `@MainActor` closure.
    ///
    /// Events go through the one queue of deliveries to the main actor
    /// (``MainActorDelivery``), in publish order across types and buses. A publish on the
    /// main actor with nothing queued runs the handler before returning (counted in
    /// ``BusPublishResult/handledCount``); any other schedules it
    /// (``BusPublishResult/scheduledCount``). After `cancel()` on the main actor the handler
    /// is never called again. Main-actor subscribers answer no feedback; by default one is
    /// named `subscription`.
    ///
    /// ```swift
    /// token = bus.subscribe(BusTopic(OrderPlaced.self), on: .mainActor) { _ in
    ///     self.count += 1   // main-actor state, checked by the compiler
    /// }
    /// ```
    @discardableResult
    public func subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, on delivery: MainActorDelivery, name: String? = nil,
        _ handler: @escaping @MainActor @Sendable (Event) -> Void
    ) -> RegistrationToken {
        _subscribe(
            topic, owner: nil, name: name ?? "subscription", executor: .mainActorInOrder
        ) { _, event in
            // The executor runs this job on the main actor.
            MainActor.assumeIsolated { handler(event) }
            return nil
        }
    }

    /// Subscribes `subscriber` to `topic`, its handler run on the main actor: as
    /// ``subscribe(_:on:name:_:)-(_,MainActorDelivery,_,_)``, with the lifetime of
    /// ``subscribe(_:owner:retention:name:on:_:)`` (held weakly; once it is released,
    /// deliveries still queued do not reach it), named by default after its type.
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
            // Owned entries always get their live subscriber, on the main actor.
            let owner = knownCast(object.unsafelyUnwrapped, to: Owner.self)
            MainActor.assumeIsolated { handler(owner, event) }
            return nil
        }
    }
}
