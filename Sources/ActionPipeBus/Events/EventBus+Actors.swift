import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `handler` to `topic`, run on the main actor in publish order through
    /// ``MainActorDelivery``'s queue (at once, counted as handled, when idle there).
    @discardableResult
    public func subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, on delivery: MainActorDelivery, name: String? = nil,
        _ handler: @escaping @MainActor @Sendable (Event) -> Void
    ) -> RegistrationToken {
        _subscribe(
            topic, owner: nil, name: name ?? "subscription", executor: .mainActorInOrder
        ) { _, event in
            MainActor.assumeIsolated { handler(event) }
            return nil
        }
    }

    /// Subscribes `subscriber` (held weakly) to `topic`, its handler run on the main actor as
    /// ``subscribe(_:on:name:_:)-(_,MainActorDelivery,_,_)``.
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
            let owner = knownCast(object.unsafelyUnwrapped, to: Owner.self)
            MainActor.assumeIsolated { handler(owner, event) }
            return nil
        }
    }

    /// Subscribes `handler` to `topic`, run isolated to `actor` in a job per event (in no
    /// order); the subscription keeps the actor alive until cancelled.
    @discardableResult
    public func subscribe<Event: BusEvent, A: Actor>(
        _ topic: BusTopic<Event>, on actor: A, name: String? = nil,
        _ handler: @escaping @Sendable (isolated A, Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        _subscribe(
            topic, owner: actor, name: name ?? _typeName(A.self, qualified: false),
            executor: .actor(actor)
        ) { object, event in
            try knownCast(object.unsafelyUnwrapped, to: A.self).assumeIsolated { actor in
                try handler(actor, event)
            }
        }
    }
}
