import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `handler` to `topic`, run isolated to `actor` (an `isolated` parameter),
    /// so it uses the actor's state directly; `MainActor.shared` for the main actor. By
    /// default the subscriber is named after the actor's type.
    ///
    /// Each event is handled in its own job on the actor after the publish returns (no
    /// order between events, as `.task`). The subscription keeps the actor alive until the
    /// token is cancelled or the bus goes.
    ///
    /// ```swift
    /// bus.subscribe(BusTopic(Ping.self), on: inbox) { inbox, _ in inbox.add() }
    /// ```
    @discardableResult
    public func subscribe<Event: BusEvent, A: Actor>(
        _ topic: BusTopic<Event>, on actor: A, name: String? = nil,
        _ handler: @escaping @Sendable (isolated A, Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        _subscribe(
            topic, owner: actor, name: name ?? _typeName(A.self, qualified: false),
            executor: .actor(actor)
        ) { object, event in
            // The executor runs this job on the actor's executor.
            try knownCast(object.unsafelyUnwrapped, to: A.self).assumeIsolated { actor in
                try handler(actor, event)
            }
        }
    }
}
