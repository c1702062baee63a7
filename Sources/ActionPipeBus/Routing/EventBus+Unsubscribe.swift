extension EventBus {
    /// Removes every subscription of `subscriber` that listens to `key`, including union
    /// and any-of subscriptions that contain it.
    ///
    /// ```swift
    /// bus.unsubscribe(screen, from: BusTopic(Login.self, .login).key)   // 1
    /// bus.unsubscribe(screen, from: BusTopic(Login.self, .login).key)   // 0: already gone
    /// ```
    ///
    /// Keys match exactly: removing `Login.login` leaves a subscription to any subtype of
    /// `Login` in place.
    ///
    /// - Returns: How many subscriptions were removed; 0 when there was none (not an error).
    ///
    /// - Complexity: O(k) for the subscriber's k subscriptions.
    @discardableResult
    public func unsubscribe(_ subscriber: AnyObject, from key: BusEventKey) -> Int {
        _remove(_ids(of: subscriber) { $0.contains(key) })
    }

    /// Removes every subscription of `subscriber` that listens to `topic`, including union
    /// and any-of subscriptions that contain it.
    ///
    /// ```swift
    /// bus.unsubscribe(screen, from: BusTopic(Login.self, .login))
    /// ```
    ///
    /// - Returns: How many subscriptions were removed; 0 when there was none.
    @discardableResult
    public func unsubscribe<Event: BusEvent>(_ subscriber: AnyObject, from topic: BusTopic<Event>)
        -> Int
    {
        unsubscribe(subscriber, from: topic.key)
    }

    /// Removes every subscription of `subscriber` on this bus.
    ///
    /// ```swift
    /// bus.unsubscribeAll(screen)
    /// ```
    ///
    /// - Returns: How many subscriptions were removed.
    ///
    /// - Complexity: O(k) for the subscriber's k subscriptions.
    @discardableResult
    public func unsubscribeAll(_ subscriber: AnyObject) -> Int {
        _remove(_ids(of: subscriber) { _ in true })
    }

    /// The ids of `subscriber`'s subscriptions whose keys satisfy `include`.
    private func _ids(
        of subscriber: AnyObject, where include: (_BusSubscriptionKeys) -> Bool
    ) -> Set<UInt64> {
        // Found by identity under the lock; whether each owner is still `subscriber` (an
        // identity can be reused once an object is gone), and whether its keys match, is
        // decided after unlocking: comparing keys compares subtypes, which may be the
        // app's code.
        let candidates = _state.withLock { state -> [(UInt64, _BusOwner, _BusSubscriptionKeys)] in
            (state.byOwner[ObjectIdentifier(subscriber)] ?? []).compactMap { id in
                guard let record = state.records[id], let owner = record.owner else { return nil }
                let keys =
                    record.keys.isEmpty
                    ? state.tables[record.type]?.entries[id].map { _BusSubscriptionKeys.entry($0) }
                    : .union(record.keys)
                return keys.map { (id, owner, $0) }
            }
        }
        var ids = Set<UInt64>()
        for (id, owner, keys) in candidates where owner.holds(subscriber) && include(keys) {
            ids.insert(id)
        }
        return ids
    }
}

/// What a subscription with a subscriber listens to, for ``EventBus/unsubscribe(_:from:)``:
/// a union's keys, or the entry of a subscription to one key (whose key is made only here).
private enum _BusSubscriptionKeys {
    case union([BusEventKey])
    case entry(_BusSubscriptionEntry)

    func contains(_ key: BusEventKey) -> Bool {
        switch self {
        case .union(let keys): keys.contains(key)
        case .entry(let entry): entry.key == key
        }
    }
}

extension EventBus: _Registry {
    /// Removes the subscription `id`; what it released is released after unlocking.
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        // `_remove(_:)` for one id, without its sets and arrays.
        let removed = _state.withLock { state in state.remove(id) }
        guard let (record, entry, released) = removed else { return false }
        // The owner is read, then the handlers (and what they capture) released, with no
        // lock held; read first, a subscriber that only its handler kept counts as live.
        let live = record.owner == nil || record.owner?.object != nil
        withExtendedLifetime((entry, released)) {}
        return live
    }

    /// Whether the subscription `id` is there and its owner, if it has one, is alive.
    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        // The owner is read after unlocking (see `subscriptionCount`).
        let record = _state.withLock { state in state.records[id] }
        guard let record else { return false }
        return record.owner == nil || record.owner?.object != nil
    }
}
