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
        _remove(_ids(of: subscriber) { $0.keys.contains(key) })
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

    /// The ids of `subscriber`'s subscriptions that satisfy `include` (library code only).
    private func _ids(of subscriber: AnyObject, where include: (_BusRecord) -> Bool)
        -> Set<UInt64>
    {
        // Matched by identity under the lock; whether each owner is still `subscriber` (an
        // identity can be reused once an object is gone) is read after unlocking.
        let candidates = _state.withLock { state -> [(UInt64, _BusOwner)] in
            (state.byOwner[ObjectIdentifier(subscriber)] ?? []).compactMap { id in
                guard let record = state.records[id], let owner = record.owner, include(record)
                else { return nil }
                return (id, owner)
            }
        }
        return Set(candidates.lazy.filter { $0.1.holds(subscriber) }.map(\.0))
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
