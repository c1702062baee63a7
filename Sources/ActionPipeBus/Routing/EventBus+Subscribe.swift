import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `subscriber` (held weakly unless ``Retention/strong``, and handed to
    /// `handler`) to `topic`, until the subscription is cancelled or the subscriber goes.
    /// `name` is its name in feedback (by default its type's); `executor`, where it runs.
    ///
    /// - Complexity: Amortised O(1); the next publish of the type rebuilds its routes once.
    @_disfavoredOverload
    @inlinable
    @discardableResult
    public func subscribe<Event: BusEvent, Subscriber: AnyObject & Sendable>(
        _ topic: BusTopic<Event>, owner subscriber: Subscriber, retention: Retention = .weak,
        name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Subscriber, Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        // Disfavoured: `on: .mainActor` means the main actor's form.
        let name = name ?? _typeName(Subscriber.self, qualified: false)
        guard retention == .weak else {
            // The handler keeps the subscriber; the entry still knows it, for unsubscribing.
            return _subscribe(topic, owner: subscriber, name: name, executor: executor) {
                _, event in try handler(subscriber, event)
            }
        }
        return _subscribe(topic, owner: subscriber, name: name, executor: executor) {
            object, event in
            // Owned entries always get their live subscriber.
            try handler(knownCast(object.unsafelyUnwrapped, to: Subscriber.self), event)
        }
    }

    /// Subscribes `handler` to `topic` until the token is cancelled (or the bus is gone).
    ///
    /// - Complexity: As ``subscribe(_:owner:retention:name:on:_:)``.
    @_disfavoredOverload
    @inlinable
    @discardableResult
    public func subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        let name = name ?? "subscription"
        guard let executor else {
            return _subscribe(topic, owner: nil, name: name) { id in
                _BusPlainEntry(id: id, subtype: topic.subtype, name: name, handler: handler)
            }
        }
        return _subscribe(topic, owner: nil, name: name, executor: executor) { _, event in
            try handler(event)
        }
    }

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

    /// Registers `makeEntry`'s entry, replays the topic's sticky events to it (matched
    /// unlocked), and returns its token. Inlinable: no run-time metadata lookup.
    @inlinable
    func _subscribe<Event: BusEvent>(
        _ topic: BusTopic<Event>, owner: _BusOwner?, name: String,
        makeEntry: (UInt64) -> _BusEntry<Event>
    ) -> RegistrationToken {
        let (entry, sticky, prune) = _register(
            ObjectIdentifier(Event.self), owner: owner, makeEntry: makeEntry)
        if let sticky {
            let events = Self._sticky(for: topic, in: sticky)
            _replaySticky(events, to: knownCast(entry, to: _BusEntry<Event>.self))
        }
        // After the replay: a pruned subscriber's `deinit` may publish a newer sticky event,
        // which must reach the new subscriber after the replayed one.
        if prune { _pruneGone() }
        return _token(entry.id, name)
    }

    /// Under the lock: a new id, its record and entry. Returns the entry, the type's sticky
    /// events, and whether to prune (the subscriptions doubled since the last prune).
    @usableFromInline
    func _register(
        _ type: ObjectIdentifier, owner: _BusOwner?,
        makeEntry: (UInt64) -> _BusSubscriptionEntry
    ) -> (entry: _BusSubscriptionEntry, sticky: _BusStickySlots?, prune: Bool) {
        let (entry, sticky, released, prune) = _state.withLock { state in
            let id = RegistrationToken.nextID()
            state.record(id, _BusRecord(type: type, owner: owner))
            let entry = makeEntry(id)
            let released = state.add(entry, type: type)
            let prune = state.records.count >= state.pruneThreshold
            return (entry, state.sticky[type], released, prune)
        }
        withExtendedLifetime(released) {}
        return (entry, sticky, prune)
    }

    /// Named `bus/name#id`.
    @usableFromInline
    func _token(_ id: UInt64, _ name: String) -> RegistrationToken {
        RegistrationToken(registry: self, id: id, scope: self.name, joiner: "/", label: name)
    }
}
