import ActionPipeConcurrency

extension EventBus {
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
