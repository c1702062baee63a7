extension EventBus {
    /// Removes every subscription of `subscriber` that listens to `key`, unions and any-of
    /// subscriptions containing it included. Keys match exactly: removing `Login.login`
    /// leaves a subscription to any subtype of `Login`.
    ///
    /// - Returns: How many subscriptions were removed; 0 when there was none (not an error).
    /// - Complexity: O(k) for the subscriber's k subscriptions.
    @discardableResult
    public func unsubscribe(_ subscriber: AnyObject, from key: BusEventKey) -> Int {
        _remove(_ids(of: subscriber) { $0.contains(key) })
    }

    /// Removes every subscription of `subscriber` that listens to `topic`; see
    /// the key form of `unsubscribe(_:from:)`.
    ///
    /// - Returns: How many subscriptions were removed; 0 when there was none.
    /// - Complexity: O(k) for the subscriber's k subscriptions.
    @discardableResult
    public func unsubscribe<Event: BusEvent>(_ subscriber: AnyObject, from topic: BusTopic<Event>)
        -> Int
    {
        unsubscribe(subscriber, from: topic.key)
    }

    /// Removes every subscription of `subscriber` on this bus.
    ///
    /// - Returns: How many subscriptions were removed.
    /// - Complexity: O(k) for the subscriber's k subscriptions.
    @discardableResult
    public func unsubscribeAll(_ subscriber: AnyObject) -> Int {
        _remove(_ids(of: subscriber) { _ in true })
    }

    private func _ids(
        of subscriber: AnyObject, where include: (_BusSubscriptionKeys) -> Bool
    ) -> Set<UInt64> {
        // Found by identity under the lock; whether the owner is still `subscriber` (ids are
        // reused) and its keys match (subtype comparison, app code) is decided unlocked.
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

/// A union's keys, or the entry of a one-key subscription (whose key is made only here).
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
    /// What it released is released after unlocking.
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        let removed = _state.withLock { state in state.remove(id) }
        guard let (record, entry, released) = removed else { return false }
        // Owner read, then handlers released, unlocked; read first, a subscriber only its
        // handler kept counts as live.
        let live = record.owner == nil || record.owner?.object != nil
        withExtendedLifetime((entry, released)) {}
        return live
    }

    /// The subscription is there and its owner, if any, is alive.
    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        // The owner is read after unlocking (see `subscriptionCount`).
        let record = _state.withLock { state in state.records[id] }
        guard let record else { return false }
        return record.owner == nil || record.owner?.object != nil
    }
}
