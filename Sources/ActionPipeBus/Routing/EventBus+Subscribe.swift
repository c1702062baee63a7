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
        var stickySlots: _BusStickySlots?
        let (entry, count, threshold) = _register(
            ObjectIdentifier(Event.self), owner: owner, makeEntry: makeEntry
        ) { slots in
            stickySlots = slots
        }
        if let stickySlots {
            let sticky = Self._sticky(for: topic, in: stickySlots)
            if !sticky.isEmpty {
                _replaySticky(sticky, to: knownCast(entry, to: _BusEntry<Event>.self))
            }
        }
        return _token(for: entry.id, count: count, threshold: threshold, name: name)
    }

    /// Under the lock: a new id, its record and entry; `readSticky` gets the type's sticky
    /// events. Returns the entry, and the subscription count and prune threshold after it.
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

    /// Prunes gone subscribers first once the subscriptions doubled since the last prune.
    @usableFromInline
    func _token(for id: UInt64, count: Int, threshold: Int, name: String) -> RegistrationToken {
        if count >= threshold { _pruneGone() }
        return RegistrationToken(registry: self, id: id, scope: self.name, joiner: "/", label: name)
    }
}
