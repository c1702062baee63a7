import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `subscriber` to the union of `keys`: `handler` runs once every key has
    /// received an event, with the last one and the latest of each; then the union starts
    /// over. A repeat before completion replaces its key's event; duplicate keys count once;
    /// a union of no keys never fires (its token is already inactive).
    ///
    /// ```swift
    /// bus.subscribe(allOf: [loginKey, profileKey], owner: screen) { screen, union in
    ///     screen.show(union.event(Login.self)!, union.event(Profile.self)!)
    /// }
    /// ```
    ///
    /// - Parameter executor: Where the handler runs; by default during the publish that
    ///   completes the union (an error thrown on an executor goes to `Diagnostics`).
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
    /// them, with ``BusUnion/last`` the event (once, even when it matches several keys).
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

    /// The owner is held weakly, and with `.strong` also captured by the handler.
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
        let keysInOrder = unique
        let (id, released) = _state.withLock { state -> (UInt64, [AnyObject]) in
            var released: [AnyObject] = []
            let id = RegistrationToken.nextID()
            guard !unique.isEmpty else { return (id, released) }
            state.record(id, _BusRecord(keys: unique, owner: owner))
            for (index, key) in unique.enumerated() {
                // Weak: the forwarders live in this bus's tables.
                let old = key.addForwarder(
                    to: &state, id: id, owner: owner, name: name
                ) { [weak self] object, event in
                    // An event matching several keys (`A.1`, `A.*`) reaches one forwarder
                    // per key; only the first matching key's acts, for all: `anyOf` fires
                    // once, `allOf` records it under every key it matches.
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
                    executor.enqueue { [weak self] in
                        // As a plain subscription's job: skipped once cancelled.
                        guard let self, self._isRegistered(id) else { return }
                        let alive = owner?.object
                        guard owner == nil || alive != nil else { return }
                        do {
                            try handler(alive, fired)
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
