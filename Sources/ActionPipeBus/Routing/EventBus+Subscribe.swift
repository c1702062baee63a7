import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `subscriber` to `topic`: `handler` gets the subscriber and each matching
    /// event, until the subscription is cancelled or the subscriber object goes away.
    ///
    /// The bus holds `subscriber` weakly (``Retention/weak``, the default) and passes it to
    /// the handler, so the handler need not capture it; the subscription ends by itself when
    /// the object is released (events published afterwards do not reach it; one already
    /// being delivered does no harm). With ``Retention/strong`` the subscription keeps the
    /// subscriber alive until it is cancelled.
    /// Subscribing the same handler twice makes two subscriptions: it runs twice.
    ///
    /// ```swift
    /// bus.subscribe(BusTopic(Login.self, .login), owner: screen) { screen, event in
    ///     screen.greet(event.user)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - topic: The event type and subtype (or any subtype) to receive.
    ///   - subscriber: The object whose lifetime bounds the subscription.
    ///   - retention: How the bus holds `subscriber`: weakly (the default) or strongly.
    ///   - name: The subscriber's name in feedback; by default its type's name.
    ///   - executor: Where the handler runs; by default synchronously during the publish.
    ///   - handler: Handles one event and returns the event's feedback (nothing for `Void`).
    /// - Returns: A token that cancels the subscription.
    ///
    /// - Complexity: Amortised O(1): the event type's routes are marked stale, and the next
    ///   publish of that type rebuilds them once.
    @_disfavoredOverload
    @inlinable
    @discardableResult
    public func subscribe<Event: BusEvent, Subscriber: AnyObject & Sendable>(
        _ topic: BusTopic<Event>, owner subscriber: Subscriber, retention: Retention = .weak,
        name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Subscriber, Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        // Disfavoured: `on: .mainActor` with a handler both forms accept means the main
        // actor's form, `subscribe(_:owner:on:name:_:)`, whose handler is `@MainActor`.
        // Inlinable, so that this adapting closure is specialised in the caller: compiled
        // here, generically, it wrapped every feedback in an `Optional` through value
        // witnesses, a tenth of a publish to one subscriber.
        guard retention == .weak else {
            // `.strong`: the handler keeps the subscriber; the entry still knows it as its
            // owner, for `unsubscribe(_:from:)` and `unsubscribeAll(_:)`.
            return _subscribe(
                topic, owner: subscriber,
                name: name ?? _typeName(Subscriber.self, qualified: false),
                executor: executor
            ) { _, event in try handler(subscriber, event) }
        }
        return _subscribe(
            topic, owner: subscriber, name: name ?? _typeName(Subscriber.self, qualified: false),
            executor: executor
        ) { object, event in
            // Owned entries always get their live subscriber.
            try handler(knownCast(object.unsafelyUnwrapped, to: Subscriber.self), event)
        }
    }

    /// Subscribes `handler` to `topic` until the returned token is cancelled (or the bus
    /// is gone). Prefer ``subscribe(_:owner:retention:name:on:_:)`` when an object owns the handler.
    ///
    /// ```swift
    /// let subscription = bus.subscribe(BusTopic(Ping.self)) { _ in print("ping") }
    /// subscription.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - topic: The event type and subtype (or any subtype) to receive.
    ///   - name: The subscriber's name in feedback; by default `subscription`.
    ///   - executor: Where the handler runs; by default synchronously during the publish.
    ///   - handler: Handles one event and returns the event's feedback (nothing for `Void`).
    /// - Returns: The token that ends the subscription.
    ///
    /// - Complexity: Amortised O(1): the event type's routes are marked stale, and the next
    ///   publish of that type rebuilds them once.
    @_disfavoredOverload
    @inlinable
    @discardableResult
    public func subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        // Disfavoured: `on: .mainActor` with a handler both forms accept means the main
        // actor's form, `subscribe(_:on:name:_:)`, whose handler is `@MainActor`.
        let name = name ?? "subscription"
        // Without an executor the entry keeps `handler` itself, which a publish calls
        // directly; with one, the handler runs later, through the general form.
        guard let executor else { return _subscribe(topic, name: name, plain: handler) }
        return _subscribe(topic, owner: nil, name: name, executor: executor) { _, event in
            try handler(event)
        }
    }

    /// Subscribes a handler that gets the subscriber (or `nil`) and the event.
    ///
    /// Not inlinable, unlike the plain form: inlined, the caller's adapting closure no longer
    /// had the subscriber's handler inlined into it, a cost on every delivery.
    @usableFromInline
    func _subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, owner: (AnyObject & Sendable)?, name: String,
        executor: BusExecutor?,
        handler: @escaping @Sendable (AnyObject?, Event) throws -> Event.Feedback?
    ) -> RegistrationToken {
        let owner = owner.map { _BusOwner($0) }
        return _subscribe(topic, owner: owner, name: name) { id in
            _BusGeneralEntry(
                id: id, subtype: topic.subtype, owner: owner, executor: executor, name: name,
                handler: handler)
        }
    }

    /// Subscribes a closure kept by its token and run during the publish, stored as given.
    @inlinable
    func _subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, name: String,
        plain handler: @escaping @Sendable (Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        _subscribe(topic, owner: nil, name: name) { id in
            _BusPlainEntry(id: id, subtype: topic.subtype, name: name, handler: handler)
        }
    }

    /// Registers the entry `makeEntry` makes with a new id, replays the topic's sticky
    /// events to it, and returns its token.
    ///
    /// Inlinable, and the only part of a subscribe that knows the event type: specialised in
    /// the caller, it makes the entry without looking up generic metadata at run time; the
    /// registration itself is not generic.
    @inlinable
    func _subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, owner: _BusOwner?, name: String,
        makeEntry: (UInt64) -> _BusEntry<Event>
    ) -> RegistrationToken {
        var stickySlots: _BusStickySlots?
        let (entry, count, threshold) = _register(
            ObjectIdentifier(Event.self), owner: owner, makeEntry: makeEntry
        ) { slots in
            stickySlots = slots
        }
        // Matched after unlocking: matching hashes and compares subtypes.
        if let stickySlots {
            let sticky = Self._sticky(for: topic, in: stickySlots)
            if !sticky.isEmpty {
                _replaySticky(sticky, to: knownCast(entry, to: _BusEntry<Event>.self))
            }
        }
        return _token(for: entry.id, count: count, threshold: threshold, name: name)
    }

    /// Registers, under the lock, a new subscription to a key of event type `type`: a new
    /// id, its record, and the entry `makeEntry` makes with it in the type's table. Calls
    /// `readSticky` there with the type's sticky events, if any: the caller takes its
    /// topic's after unlocking.
    /// What the change replaced is released after unlocking.
    ///
    /// - Returns: The entry, and the subscription count and prune threshold after it.
    @usableFromInline
    func _register(
        _ type: ObjectIdentifier, owner: _BusOwner?,
        makeEntry: (UInt64) -> _BusSubscriptionEntry,
        readSticky: (_BusStickySlots) -> Void
    ) -> (entry: _BusSubscriptionEntry, count: Int, threshold: Int) {
        let (entry, released, count, threshold) = _state.withLock { state in
            let id = RegistrationToken.nextID()
            state.record(id, _BusRecord(type: type, owner: owner))
            let entry = makeEntry(id)
            let released = state.add(entry, type: type)
            if let slots = state.sticky[type] { readSticky(slots) }
            return (entry, released, state.records.count, state.pruneThreshold)
        }
        withExtendedLifetime(released) {}
        return (entry, count, threshold)
    }

    /// The token of the new subscription `id`, named `name`; prunes gone subscribers first
    /// if `count` subscriptions reached the prune `threshold`.
    @usableFromInline
    func _token(for id: UInt64, count: Int, threshold: Int, name: String) -> RegistrationToken {
        _pruneGoneIfDue(count: count, threshold: threshold)
        return RegistrationToken(registry: self, id: id, scope: self.name, joiner: "/", label: name)
    }
}
