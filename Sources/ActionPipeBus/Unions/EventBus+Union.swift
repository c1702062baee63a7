import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `subscriber` to the union of `keys`: `handler` runs once every key has
    /// received an event at least once, with the last one and the latest of each; then the
    /// union starts over.
    ///
    /// An event arriving again before the union is complete replaces the earlier one of its
    /// key; it does not count twice. Duplicate keys are listed once. A union of one key
    /// fires on every event of that key. A union of no keys never fires: the returned
    /// subscription is already inactive.
    ///
    /// ```swift
    /// bus.subscribe(allOf: [loginKey, profileKey], owner: screen) { screen, union in
    ///     screen.show(union.event(Login.self)!, union.event(Profile.self)!)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keys: The events that must all arrive.
    ///   - subscriber: The object whose lifetime bounds the subscription.
    ///   - name: The subscriber's name in feedback; by default its type's name.
    ///   - executor: Where the handler runs; by default synchronously, during the publish
    ///     that completes the union. (An error thrown on an executor goes to `Diagnostics`.)
    ///   - handler: Handles each completed union.
    /// - Returns: A token that cancels the subscription (under every key).
    @discardableResult
    public func subscribe<Subscriber: AnyObject & Sendable>(
        allOf keys: [BusEventKey], owner subscriber: Subscriber,
        retention: Retention = .weak, name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Subscriber, BusUnion) throws -> Void
    ) -> RegistrationToken {
        _subscribeOwnedUnion(
            keys, all: true, owner: subscriber, retention: retention, name: name,
            executor: executor, handler)
    }

    /// Subscribes `handler` to the union of `keys`, until the token is cancelled; see
    /// ``subscribe(allOf:owner:retention:name:on:_:)``.
    ///
    /// ```swift
    /// let both = bus.subscribe(allOf: [loginKey, profileKey]) { union in print(union) }
    /// ```
    ///
    /// - Returns: The token that ends the subscription (under every key).
    @discardableResult
    public func subscribe(
        allOf keys: [BusEventKey], name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (BusUnion) throws -> Void
    ) -> RegistrationToken {
        _subscribeUnion(keys, all: true, owner: nil, name: name ?? "union", executor: executor) {
            _, union in try handler(union)
        }
    }

    /// Subscribes `subscriber` to each of `keys`: `handler` runs on every event of any of
    /// them, with ``BusUnion/last`` the event. An event matching two of the keys arrives
    /// twice.
    ///
    /// ```swift
    /// bus.subscribe(anyOf: [loginKey, logoutKey], owner: log) { log, union in
    ///     log.write("\(union.lastKey)")
    /// }
    /// ```
    ///
    /// - Returns: A token that cancels the subscription (under every key).
    @discardableResult
    public func subscribe<Subscriber: AnyObject & Sendable>(
        anyOf keys: [BusEventKey], owner subscriber: Subscriber,
        retention: Retention = .weak, name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Subscriber, BusUnion) throws -> Void
    ) -> RegistrationToken {
        _subscribeOwnedUnion(
            keys, all: false, owner: subscriber, retention: retention, name: name,
            executor: executor, handler)
    }

    /// The owner-bound union subscriptions (`allOf:` and `anyOf:`): the owner is held weakly,
    /// and with `.strong` also captured by the handler, which keeps it alive.
    private func _subscribeOwnedUnion<Subscriber: AnyObject & Sendable>(
        _ keys: [BusEventKey], all: Bool, owner subscriber: Subscriber, retention: Retention,
        name: String?, executor: BusExecutor?,
        _ handler: @escaping @Sendable (Subscriber, BusUnion) throws -> Void
    ) -> RegistrationToken {
        let kept = retention == .strong ? subscriber : nil
        return _subscribeUnion(
            keys, all: all, owner: subscriber,
            name: name ?? _typeName(Subscriber.self, qualified: false), executor: executor
        ) { object, union in
            withExtendedLifetime(kept) {}
            try handler(knownCast(object.unsafelyUnwrapped, to: Subscriber.self), union)
        }
    }

    /// Subscribes `handler` to each of `keys`, until the token is cancelled; see
    /// ``subscribe(anyOf:owner:retention:name:on:_:)``.
    ///
    /// ```swift
    /// bus.subscribe(anyOf: [loginKey, logoutKey]) { union in print(union.lastKey) }
    /// ```
    ///
    /// - Returns: The token that ends the subscription (under every key).
    @discardableResult
    public func subscribe(
        anyOf keys: [BusEventKey], name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (BusUnion) throws -> Void
    ) -> RegistrationToken {
        _subscribeUnion(keys, all: false, owner: nil, name: name ?? "anyOf", executor: executor) {
            _, union in try handler(union)
        }
    }

    func _subscribeUnion(
        _ keys: [BusEventKey], all: Bool, owner: (AnyObject & Sendable)?, name: String,
        executor: BusExecutor?,
        handler: @escaping @Sendable (AnyObject?, BusUnion) throws -> Void
    ) -> RegistrationToken {
        var unique: [BusEventKey] = []
        for key in keys where !unique.contains(key) { unique.append(key) }
        let owner = owner.map { _BusOwner($0) }
        let union = _BusUnionState(keys: unique)
        // Weak: the forwarders live in this bus's tables.
        let bus = _handle
        let keysInOrder = unique
        let (id, released) = _state.withLock { state -> (UInt64, [AnyObject]) in
            var released: [AnyObject] = []
            let id = RegistrationToken.nextID()
            guard !unique.isEmpty else { return (id, released) }
            state.record(id, _BusRecord(keys: unique, owner: owner))
            for (index, key) in unique.enumerated() {
                let old = key.ops.addForwarder(
                    to: &state, id: id, owner: owner, name: name
                ) { object, event in
                    // An event that matches several keys of the union (`A.1` and `A.*`)
                    // reaches one forwarder per key. Only the first matching key's acts, for
                    // all of them at once: `anyOf` fires once, and `allOf` records the event
                    // under every key it matches.
                    let matching = keysInOrder.indices.filter {
                        keysInOrder[$0]._matches(event)
                    }
                    guard matching.first == index else { return }
                    let fired =
                        all
                        ? union.receive(event, at: matching)
                        : BusUnion(last: event, lastKey: key, events: [event])
                    guard let fired else { return }
                    guard let executor else { return try handler(object, fired) }
                    executor.enqueue {
                        // Like a plain subscription's queued job: skipped once the
                        // subscription is cancelled (or the bus is gone).
                        guard let live = bus.value, live._isRegistered(id) else { return }
                        do {
                            if let owner {
                                guard let alive = owner.object else { return }
                                try handler(alive, fired)
                            } else {
                                try handler(nil, fired)
                            }
                        } catch {
                            _reportDropped(error, subscriber: name, event: BusUnion.self)
                        }
                    }
                }
                released += old
            }
            return (id, released)
        }
        withExtendedLifetime(released) {}
        return RegistrationToken(registry: self, id: id, scope: self.name, joiner: "/", label: name)
    }
}
