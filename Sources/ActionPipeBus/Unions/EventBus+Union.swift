import ActionPipeConcurrency

extension EventBus {
    /// Subscribes `subscriber` to the union of `keys`: `handler` runs once every key has
    /// received an event (a repeat replaces its key's), then the union starts over. Duplicate
    /// keys count once; a union of no keys never fires (its token is already inactive).
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

    /// Subscribes `handler` to the union of `keys`, until the token is cancelled.
    @discardableResult
    public func subscribe(
        allOf keys: [BusEventKey], name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (BusUnion) throws -> Void
    ) -> RegistrationToken {
        _subscribeUnion(keys, all: true, owner: nil, name: name ?? "union", executor: executor) {
            _, union in try handler(union)
        }
    }

    /// Subscribes `subscriber` to each of `keys`: `handler` runs once per event of any.
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

    /// The owner is held weakly, and with `.strong` also by the handler.
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

    /// Subscribes `handler` to each of `keys`, until the token is cancelled.
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
                    // Only the first matching key's forwarder acts, for every key it matches.
                    let matching = union.keys.indices.filter { union.keys[$0]._matches(event) }
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
        return _token(id, name)
    }
}

/// The events a union subscription has received since it last fired.
final class _BusUnionState: Sendable {
    let keys: [BusEventKey]
    /// Per key index; the union fires when every index has one.
    private let received = LockedValue<[Int: any BusEvent]>([:])

    init(keys: [BusEventKey]) { self.keys = keys }

    /// Records `event` under each key it matches; returns the completed union, or `nil`.
    func receive(_ event: any BusEvent, at indices: [Int]) -> BusUnion? {
        // Replaced events are released after unlocking.
        var replaced: [any BusEvent] = []
        let complete: [Int: any BusEvent]? = received.withLock { received in
            for index in indices {
                if let old = received.updateValue(event, forKey: index) { replaced.append(old) }
            }
            guard received.count == keys.count else { return nil }
            var complete: [Int: any BusEvent] = [:]
            swap(&complete, &received)
            return complete
        }
        replaced = []
        guard let complete else { return nil }
        let events = keys.indices.map { complete[$0]! }
        return BusUnion(last: event, lastKey: keys[indices[0]], events: events)
    }
}

/// What a union or any-of subscription receives: the event that fired it, and the others.
public struct BusUnion: Sendable, CustomStringConvertible {
    /// The event that fired the subscription.
    public let last: any BusEvent

    /// The key `last` arrived under.
    public let lastKey: BusEventKey

    /// For a union, the latest event of each key in order; for any-of, just `last`.
    public let events: [any BusEvent]

    /// The first event of `type` in ``events``.
    public func event<Event: BusEvent>(_ type: Event.Type) -> Event? {
        events.lazy.compactMap { $0 as? Event }.first
    }

    /// `Login.login + Data.- (last: Data.-)`.
    public var description: String {
        let names = events.map { "\(type(of: $0))" }.joined(separator: " + ")
        return "\(names) (last: \(lastKey))"
    }
}
