import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `handler` to `topic`, run isolated to `actor`: it gets the actor as an
    /// `isolated` parameter, so it uses the actor's state directly, as an observer `on:` an
    /// actor does in observable state. Pass `MainActor.shared` for the main actor.
    ///
    /// Each event is handed to the actor and handled there after the publish returns (each
    /// in its own job on the actor: like `.task`, no order between events is promised). The
    /// subscription keeps the actor alive until the token is cancelled or the bus goes:
    /// store the token in a ``RegistrationBag`` to end it with an owner.
    ///
    /// ```swift
    /// actor Inbox {
    ///     var count = 0
    ///     func add() { count += 1 }
    /// }
    /// let inbox = Inbox()
    /// bus.subscribe(BusTopic(Ping.self), on: inbox) { inbox, _ in inbox.add() }
    /// bus.subscribe(BusTopic(Ping.self), on: MainActor.shared) { _, _ in label.text = "ping" }
    /// ```
    ///
    /// - Parameters:
    ///   - topic: The event type and subtype (or any subtype) to receive.
    ///   - actor: The actor the handler runs isolated to; kept until the subscription ends.
    ///   - name: The subscriber's name in feedback; by default the actor's type's name.
    ///   - handler: Handles one event on the actor and returns the event's feedback.
    /// - Returns: A token that cancels the subscription.
    ///
    /// - Complexity: Amortised O(1), as ``subscribe(_:name:on:_:)``.
    @discardableResult
    public func subscribe<Event: BusEvent, A: Actor>(
        _ topic: BusTopic<Event>, on actor: A, name: String? = nil,
        _ handler: @escaping @Sendable (isolated A, Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        _subscribe(
            topic, owner: actor, name: name ?? _typeName(A.self, qualified: false),
            executor: .actor(actor)
        ) { object, event in
            // The executor runs this job on the actor's executor: the assumption holds.
            try knownCast(object.unsafelyUnwrapped, to: A.self).assumeIsolated { actor in
                try handler(actor, event)
            }
        }
    }
}
